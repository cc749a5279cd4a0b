package io.fastccs.protocol.api;

import io.fastccs.core.api.PartitionStorage;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;

import java.util.Collection;
import java.util.List;

/**
 * A partition's durable state: the multiversion data and the log of write transactions it takes part in or
 * coordinates. Called from the partition's single thread.
 *
 * <h2>What a message waits for</h2>
 * Every write is durable when its method returns, or, for hosts that batch syncs ({@code DurablePartitionStore}),
 * later. There, a message the partition sends waits only for the writes a message may rest on: {@link #savePrepared}
 * (a vote, and the commit it implies, rest on the prepare) and an abort's {@link #saveDecision} (an abort, and the
 * fence a participant writes before it refuses a transaction, must survive any crash before anyone hears of it). The
 * other writes (outcomes, versions, commit decisions, snapshots, deletions) are implied by the prepares and are made
 * durable in write order, behind them; reads show them only once they are (docs/design/one-round-writes.md).
 */
public interface PartitionStore extends PartitionStorage {

    /**
     * A write transaction this partition prepared, with its outcome once known ({@code commitClock} and
     * {@code commitTime} only when committed: null and 0 otherwise).
     *
     * @param proposedTime the commit time this partition proposed in its vote; the commit time is the largest proposal,
     *                     so a coordinator that lost its decision computes the same commit again from the prepares
     *                     (docs/design/one-round-writes.md)
     */
    record TxnRecord(TxnId txnId, long sequence, int coordinator, List<Integer> participants,
                     List<KeyValue> writes, VectorClock clientClock, long proposedTime, Outcome outcome,
                     VectorClock commitClock, long commitTime) {
        public TxnRecord withOutcome(Outcome outcome, VectorClock commitClock, long commitTime) {
            return new TxnRecord(txnId, sequence, coordinator, participants, writes, clientClock, proposedTime, outcome,
                    commitClock, commitTime);
        }
    }

    /**
     * A coordinator's decision (commit with its clock and time, or abort: null and 0).
     *
     * @param participants the transaction's participants; empty for an abort presumed for a transaction this
     *                     coordinator never saw
     */
    record Decision(TxnId txnId, Outcome outcome, VectorClock commitClock, long commitTime, List<Integer> participants,
                    long decidedAt) {
    }

    /**
     * What a restarted partition reads back.
     *
     * @param snapshot the last saved snapshot clock, or {@code null} for a partition that never saved one
     */
    record Recovered(VectorClock snapshot, List<TxnRecord> transactions, List<Decision> decisions) {
    }

    /** Records a prepared transaction (outcome UNDECIDED) before its sequence number is told to anyone. */
    void savePrepared(TxnRecord record);

    /** Records the outcome of a prepared transaction. */
    void saveOutcome(TxnId txnId, long sequence, Outcome outcome, VectorClock commitClock, long commitTime);

    /**
     * Saves the snapshot clock. Its own entry is the settled prefix: every sequence number up to it is settled and
     * its versions are stored, so the store may drop transaction records up to it. Recovery restores the clock, so
     * it never goes back behind a value GC relied on.
     */
    default void saveSnapshot(VectorClock snapshot, int self) {
        saveSnapshot(snapshot, self, snapshot.get(self));
    }

    /**
     * As above, but transaction records are dropped only up to sequence number {@code recordsUpTo} (at most the
     * snapshot's own entry): a participant keeps the record of a commit until its coordinator's decision is durable,
     * since a coordinator that lost it resolves the transaction from the participants' records.
     */
    void saveSnapshot(VectorClock snapshot, int self, long recordsUpTo);

    void saveDecision(Decision decision);

    void forgetDecision(TxnId txnId);

    /** The key's stored versions, newest first in {@link Version#NEWEST_FIRST} order; empty if none. */
    List<Version> versions(Key key);

    /**
     * Whether {@link #versions} answers for this key from memory. False means it would wait for the disk: the
     * partition then leaves work that can wait (garbage collection) for a later pass, and the store may start
     * bringing the key into memory meanwhile. Stores held entirely in memory always answer true.
     */
    default boolean versionsInMemory(Key key) {
        return true;
    }

    /** Stores a committed version; storing the same (key, sequence) again is harmless. */
    void putVersion(Key key, Version version);

    /** Removes the key's versions that are older than {@code newestKept} in {@link Version#NEWEST_FIRST} order. */
    void removeVersionsOlderThan(Key key, Version newestKept);

    /**
     * Replaces a typed key's {@code folded} versions by {@code base}, which holds their fold (garbage collection of
     * commutative operations: they are folded, not dropped). {@code base} may reuse the sequence number of one of them.
     * Atomic: a crash leaves either all of {@code folded} or {@code base}, never both, else a read would count them twice.
     */
    default void replaceVersions(Key key, List<Version> folded, Version base) {
        throw new UnsupportedOperationException("this store does not keep commutative operations");
    }

    Recovered recover();

    /**
     * Keys that hold more than one version, so a restarted partition's GC looks at them again. A store that cannot
     * tell cheaply may return any subset; uncollected old versions only cost space.
     */
    default Collection<Key> keysWithOlderVersions() {
        return java.util.List.of();
    }
}
