package io.fastccs.protocol.partition;

import io.fastccs.protocol.Bug;
import io.fastccs.core.PartitionConfig;
import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.protocol.api.PartitionStore.Decision;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.KeyType;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.core.primitives.WriteKind;
import io.fastccs.protocol.typed.TypedFold;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a partition may forget, on its GC tick: versions no read still allowed can want, typed operations every such
 * read sees (folded into one base), and decisions and settled outcomes nobody is left to ask about.
 */
final class Collector {
    private final PartitionState state;
    private final PartitionConfig config;
    private final PartitionStore store;

    /** Samples of svc over time: GC keeps every version a round two within the retention window may ask for. */
    private final ArrayDeque<SvcSample> svcHistory = new ArrayDeque<>();
    /** Keys that may hold more than one version. */
    private final Set<Key> gcCandidates = new LinkedHashSet<>();
    private long nextGcAt;

    private record SvcSample(long at, long[] svc) {
    }

    Collector(PartitionState state, long now) {
        this.state = state;
        this.config = state.config;
        this.store = state.store;
        this.nextGcAt = now;
    }

    /** {@code key} may now hold more than one version. */
    void mayHoldOlderVersions(Key key) {
        gcCandidates.add(key);
    }

    /** As above, for keys a store found with older versions at recovery. */
    void mayHoldOlderVersions(Collection<Key> keys) {
        gcCandidates.addAll(keys);
    }

    /** Collects when due. */
    void tick(long now) {
        if (now >= nextGcAt) {
            // Durable first: GC below relies on svc values, which must not go back after a restart. Records go only
            // where their outcomes are durable and no coordinator may still resolve them from our record.
            store.saveSnapshot(VectorClock.of(state.svc), state.self, state.releasableRecords());
            collectGarbage(now);
            expireRemembered(now);
            nextGcAt = now + config.gcIntervalMicros();
        }
    }

    /**
     * Eiger-style GC (section 3.7). A round two at time t2 follows its round one here at t1 >= t2 - retention,
     * and asks for the newest version with commit clock at most a clock that covers what round one returned,
     * which was the newest version within svc(t1). So a version may go once a newer version of its key was
     * already within svc at some time before now - retention: every round two still allowed saw that newer one.
     */
    private void collectGarbage(long now) {
        svcHistory.addLast(new SvcSample(now, state.svc.clone()));
        long horizon = now - config.versionRetentionMicros();
        // Strictly older than the horizon: a round two whose round one was exactly at the horizon is still allowed.
        while (svcHistory.size() > 1 && svcHistory.peekFirst().at() < horizon) {
            Iterator<SvcSample> it = svcHistory.iterator();
            it.next();
            if (it.next().at() < horizon) svcHistory.pollFirst();
            else break;
        }
        SvcSample old = svcHistory.peekFirst();
        if (old == null || old.at() >= horizon) return;
        for (Iterator<Key> it = gcCandidates.iterator(); it.hasNext(); ) {
            Key key = it.next();
            if (!store.versionsInMemory(key)) continue; // never wait for the disk here; a later pass collects it
            List<Version> versions = store.versions(key);
            KeyType type = TypedFold.typeOf(versions);
            if (type != KeyType.REGISTER) {
                if (foldOld(key, type, versions, old.svc())) it.remove();
                continue;
            }
            int keep = -1;
            for (int i = 0; i < versions.size(); i++)
                if (versions.get(i).commitClock().leq(old.svc())) {
                    keep = i;
                    break;
                }
            int count = versions.size();
            if (keep >= 0 && keep < count - 1) {
                store.removeVersionsOlderThan(key, versions.get(keep));
                state.metrics.versionsCollected += count - 1 - keep;
            }
            if (keep == 0 || count <= 1) it.remove(); // only one version left that any read can want
        }
    }

    /**
     * Folds a typed key's operations that every read still allowed sees (commit clock within svc as it was a retention
     * ago, the same bound as for versions above) into one base version. Returns whether nothing is left to fold.
     */
    private boolean foldOld(Key key, KeyType type, List<Version> versions, long[] oldSvc) {
        List<Version> folded = new ArrayList<>();
        for (Version v : versions) if (v.kind() == WriteKind.FOLDED || v.commitClock().leq(oldSvc)) folded.add(v);
        if (folded.size() >= 2) {
            TypedFold fold = new TypedFold(type);
            long[] clock = new long[state.n];
            long sequence = 0, commitTime = 0;
            for (Version v : folded) {
                fold.add(v);
                v.commitClock().maxInto(clock);
                sequence = Math.max(sequence, v.sequence());
                commitTime = Math.max(commitTime, v.commitTime());
            }
            Version base = new Version(sequence, VectorClock.wrap(clock), commitTime, fold.base(), WriteKind.FOLDED);
            long s = sequence;
            List<Version> replaced = config.has(Bug.TYPED_OP_APPLIED_TWICE)
                    ? folded.stream().filter(v -> v.sequence() == s).toList() : folded;
            store.replaceVersions(key, replaced, base);
            state.metrics.versionsCollected += folded.size() - 1;
        }
        return folded.size() == versions.size();
    }

    /**
     * A decision is kept for the retention, so a client that lost track of its write can ask for the outcome, and
     * a commit decision also until every participant has settled the transaction durably, which stabilization tells us
     * (ct[p] <= what p reported settled), so no participant is left to ask. After that a coordinator that does not
     * know a transaction presumes it aborted, which is then right: only commits need remembering, and they were.
     */
    private void expireRemembered(long now) {
        long before = now - config.decisionRetentionMicros();
        for (Iterator<Decision> it = state.decisions.values().iterator(); it.hasNext(); ) {
            Decision d = it.next();
            if (d.decidedAt() > before) break; // decisions are in decision order
            if (d.outcome() != Outcome.COMMITTED || settledEverywhere(d)) {
                store.forgetDecision(d.txnId());
                it.remove();
            }
        }
        // Only duplicated write requests need these, and clients do not resend writes.
        long settledBefore = now - 2 * config.transactionTimeoutMicros();
        state.recentlySettled.values().removeIf(r -> r.at() <= settledBefore);
        state.earlyAborts.values().removeIf(e -> e.at() <= before);
    }

    private boolean settledEverywhere(Decision d) {
        for (int p : d.participants()) {
            // Our own part counts once its outcome is durable, as the others' do (they report their durable part).
            long settled = p == state.self ? state.readableSettled() : state.peerSettled[p];
            if (settled < d.commitClock().get(p)) return false;
        }
        return true;
    }
}
