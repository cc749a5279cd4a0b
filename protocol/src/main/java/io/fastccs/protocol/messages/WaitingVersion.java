package io.fastccs.protocol.messages;

import io.fastccs.core.primitives.WriteKind;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;

import java.util.Arrays;

/**
 * A version a read answer left out although it is settled on the partition (its sequence number is within the
 * snapshot's own entry): it waits for another partition's entry of its commit clock. Listed so that the client can
 * pick, at its merged clock, what a round two would return (docs/design/second-rounds.md, "Waiting versions").
 *
 * @param sequence    the partition's sequence number of the version (its commit clock's own entry)
 * @param commitClock the writing transaction's commit clock
 * @param commitTime  the writing transaction's commit time
 * @param kind        a put, or the commutative operation (its operand in {@code value}) the client folds in
 */
public record WaitingVersion(Key key, byte[] value, long sequence, VectorClock commitClock, long commitTime, WriteKind kind) {
    /** A put's version. */
    public WaitingVersion(Key key, byte[] value, long sequence, VectorClock commitClock, long commitTime) {
        this(key, value, sequence, commitClock, commitTime, WriteKind.PUT);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WaitingVersion w && key.equals(w.key) && Arrays.equals(value, w.value) && sequence == w.sequence
                && commitClock.equals(w.commitClock) && commitTime == w.commitTime && kind == w.kind;
    }

    @Override
    public int hashCode() {
        return (key.hashCode() * 31 + Long.hashCode(sequence)) * 31 + Long.hashCode(commitTime);
    }

    @Override
    public String toString() {
        return key + "@" + sequence + " " + commitClock + " t=" + commitTime + " (" + value.length + "B)";
    }
}
