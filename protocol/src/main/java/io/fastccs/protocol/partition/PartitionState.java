package io.fastccs.protocol.partition;

import io.fastccs.protocol.Bug;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.ClientReply;
import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.protocol.api.PartitionStore.Decision;
import io.fastccs.protocol.api.PartitionStore.TxnRecord;
import io.fastccs.core.api.PeerSink;
import io.fastccs.core.api.TimeSource;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the roles of one partition share: the snapshot clock and the transactions it knows, the host's interfaces and
 * the counters. The roles keep what only they use (the coordinator its open votes, stabilization its tree and bases,
 * the collector its samples of svc).
 */
final class PartitionState {
    /** Hot typed keys a partition keeps a running fold for (RunningFolds), the most recently read ones. */
    static final int RUNNING_FOLD_KEYS = 1024;

    final int self;
    final int n;
    final PartitionConfig config;
    final PartitionStore store;
    final PeerSink peers;
    final TimeSource time;
    final PartitionMetrics metrics = new PartitionMetrics();

    /** The highest sequence number assigned so far. */
    long lastSequence;
    /** The highest commit time proposed so far: our proposals never go back while we run, nor across a restart. */
    long lastProposed;
    /** The durable part of {@code svc[self]}, when the host tracks it; MAX_VALUE when it does not. */
    private long durableSettled = Long.MAX_VALUE;
    /** The snapshot vector clock; {@code svc[self]} is the settled prefix of our own sequence numbers. */
    final long[] svc;
    /**
     * What each partition told us it settled, from stabilization only. Unlike svc, never raised by a client
     * clock: forgetting a commit decision must not rest on what clients claim.
     */
    final long[] peerSettled;
    /** Our transactions with a sequence number above {@code svc[self]}, by sequence number. */
    final TreeMap<Long, LocalTxn> unsettled = new TreeMap<>();
    /** Our transactions whose outcome is not known yet. */
    final Map<TxnId, LocalTxn> pending = new LinkedHashMap<>();
    /** Settled transactions, remembered so a duplicated write request is answered instead of prepared twice. */
    final Map<TxnId, Remembered> recentlySettled = new LinkedHashMap<>();
    /** Aborts that arrived before the write request (the client's request to us was slow). */
    final Map<TxnId, EarlyAbort> earlyAborts = new LinkedHashMap<>();
    /** Our decisions as coordinator, in decision order, kept for late participants and clients. */
    final Map<TxnId, Decision> decisions = new LinkedHashMap<>();
    /**
     * Committed transactions of other coordinators whose records we keep, by id and by sequence number, until the
     * coordinator's durable settled prefix covers them: until then its decision may be lost, and it resolves the
     * transaction again from the participants' records (docs/design/one-round-writes.md, "A participant keeps its record").
     */
    final Map<TxnId, TxnRecord> retained = new LinkedHashMap<>();
    final TreeMap<Long, TxnRecord> retainedBySequence = new TreeMap<>();
    /** Bounds the work of a read on a hot typed key. */
    final RunningFolds runningFolds;

    /** Our part of a write transaction, from its prepare until it is settled. */
    static final class LocalTxn {
        final TxnRecord record;
        Outcome outcome = Outcome.UNDECIDED;
        VectorClock commitClock;
        long commitTime;
        ClientReply replyTo;
        long requestId;
        long nextCheckAt;

        LocalTxn(TxnRecord record) {
            this.record = record;
        }

        long sequence() {
            return record.sequence();
        }
    }

    record Remembered(Outcome outcome, VectorClock commitClock, long commitTime, long at) {
    }

    /** An abort from partition {@code from}, honoured only if the late write request names it as coordinator. */
    record EarlyAbort(int from, long at) {
    }

    PartitionState(int self, int n, PartitionConfig config, PartitionStore store, PeerSink peers, TimeSource time) {
        if (self < 0 || self >= n) throw new IllegalArgumentException("partition " + self + " outside 0.." + (n - 1));
        this.self = self;
        this.n = n;
        this.config = config;
        this.runningFolds = new RunningFolds(n, RUNNING_FOLD_KEYS);
        this.store = store;
        this.peers = peers;
        this.time = time;
        this.svc = new long[n];
        this.peerSettled = new long[n];
    }

    /** {@code svc[self]}, the settled prefix. */
    long settledPrefix() {
        return svc[self];
    }

    /** From now on the host reports which part of the settled prefix is durable; what recovery found is. */
    void trackDurableSettled() {
        durableSettled = svc[self];
    }

    /** The settled prefix up to {@code settled} is durable. */
    void onSettledDurable(long settled) {
        if (durableSettled == Long.MAX_VALUE) return; // not tracked: reads use svc[self]
        durableSettled = Math.max(durableSettled, Math.min(settled, svc[self]));
    }

    /** How far reads show our own entry: the settled prefix, or its durable part when the host tracks that. */
    long readableSettled() {
        return config.has(Bug.READ_BEYOND_DURABLE) ? svc[self] : Math.min(svc[self], durableSettled);
    }

    /** Keeps a committed record of another coordinator's transaction for the status queries it may still send. */
    void retain(TxnRecord committed) {
        retained.put(committed.txnId(), committed);
        retainedBySequence.put(committed.sequence(), committed);
    }

    /**
     * How far the store may drop transaction records: the durable part of the settled prefix, but below the first
     * retained record whose coordinator has not yet reported a durable prefix covering it. Retained records below
     * that are let go here too.
     */
    long releasableRecords() {
        long upTo = readableSettled();
        for (var it = retainedBySequence.values().iterator(); it.hasNext(); ) {
            TxnRecord r = it.next();
            int coordinator = r.coordinator();
            boolean decisionDurable = r.commitClock() != null && peerSettled[coordinator] >= r.commitClock().get(coordinator);
            if (!decisionDurable) {
                upTo = Math.min(upTo, r.sequence() - 1);
                break;
            }
            if (r.sequence() > upTo) break;
            it.remove();
            retained.remove(r.txnId());
        }
        return upTo;
    }

    /** Answers a request we refuse. */
    void refuse(ClientReply reply, ErrorReply error) {
        metrics.requestsRefused++;
        reply.reply(error);
    }
}
