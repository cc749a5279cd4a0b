package io.fastccs.protocol.partition;

import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.protocol.api.PartitionStore.Decision;
import io.fastccs.protocol.api.PartitionStore.TxnRecord;
import io.fastccs.protocol.messages.Abort;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.protocol.partition.PartitionState.LocalTxn;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;

import java.util.List;

/**
 * A partition's start from what its store holds (section 3.8): empty for a new partition, or the durable records of an
 * earlier run after a crash, from which it rebuilds its state and finishes what the crash cut short.
 */
final class Recovery {
    private Recovery() {
    }

    static void recover(PartitionState state, Coordinator coordinator, Participant participant, Collector collector,
                        PartitionStore.Recovered recovered) {
        int self = state.self;
        int n = state.n;
        long[] svc = state.svc;
        long now = state.time.nowMicros();
        if (recovered.snapshot() != null) {
            if (recovered.snapshot().size() != n)
                throw new IllegalStateException("stored snapshot has " + recovered.snapshot().size() + " entries, cluster has " + n);
            recovered.snapshot().maxInto(svc);
        }
        state.lastSequence = svc[self];
        // A recovered decision's retention counts from now: clients that lost track of a write during the outage can
        // only ask once we are back (DecisionAcrossDowntimeTest). This also keeps the map in decision-time order.
        for (Decision d : recovered.decisions())
            state.decisions.put(d.txnId(), new Decision(d.txnId(), d.outcome(), d.commitClock(), d.commitTime(),
                    d.participants(), now));
        for (TxnRecord r : recovered.transactions()) {
            state.lastSequence = Math.max(state.lastSequence, r.sequence());
            state.lastProposed = Math.max(state.lastProposed, r.proposedTime());
            // A commit of another coordinator stays answerable until that coordinator's decision is durable.
            if (r.outcome() == Outcome.COMMITTED && r.coordinator() != self) state.retain(r);
            if (r.sequence() <= svc[self]) continue;
            LocalTxn t = new LocalTxn(r);
            state.unsettled.put(r.sequence(), t);
            if (r.outcome() == Outcome.UNDECIDED) {
                state.pending.put(r.txnId(), t);
                t.nextCheckAt = now; // ask the coordinator at once: we may have missed its decision while down
            } else {
                t.outcome = r.outcome();
                t.commitClock = r.commitClock();
                t.commitTime = r.commitTime();
                // idempotent: the crash may have cut it short
                if (r.outcome() == Outcome.COMMITTED) participant.installVersions(t);
            }
        }
        // A sequence number with no record was assigned but never made durable, so nobody ever heard of it
        // (messages leave only after the records before them are durable): skip it like an abort.
        for (long sn = svc[self] + 1; sn <= state.lastSequence; sn++) {
            if (!state.unsettled.containsKey(sn)) {
                LocalTxn gap = new LocalTxn(new TxnRecord(new TxnId(-1, sn), sn, self, List.of(self), List.of(),
                        VectorClock.zero(n), 0, Outcome.ABORTED, null, 0));
                gap.outcome = Outcome.ABORTED;
                state.unsettled.put(sn, gap);
            }
        }
        if (recovered.snapshot() != null || !recovered.transactions().isEmpty() || !recovered.decisions().isEmpty())
            state.metrics.recoveries++;
        for (LocalTxn t : List.copyOf(state.pending.values())) {
            if (t.record.coordinator() != self) continue;
            Decision d = state.decisions.get(t.record.txnId());
            if (d == null) {
                // The votes we collected were volatile and are gone, and a commit is recorded only after it is told:
                // the participants' records say whether it committed.
                coordinator.resolve(t.record);
            } else {
                // Decided before the crash but maybe not sent, and not applied here: finish both now.
                PeerMessage m = d.outcome() == Outcome.COMMITTED ? coordinator.commitMessage(d, 0) : new Abort(d.txnId());
                for (int p : d.participants()) if (p != self) state.peers.send(p, m);
                participant.onDecided(d.txnId(), d.outcome(), d.commitClock(), d.commitTime());
            }
        }
        collector.mayHoldOlderVersions(state.store.keysWithOlderVersions());
        participant.advanceSettled();
    }
}
