package io.fastccs.protocol.messages;

import io.fastccs.core.primitives.WriteKind;

import io.fastccs.core.primitives.Key;

import java.util.Arrays;

/** {@link WaitingVersion} in a {@link CompactReadReply}: its commit clock, raised to the request's, as a difference from it. */
public record CompactWaitingVersion(Key key, byte[] value, long sequence, ClockDiff commitClock, long commitTime,
                                    WriteKind kind) {
    /** A put's version. */
    public CompactWaitingVersion(Key key, byte[] value, long sequence, ClockDiff commitClock, long commitTime) {
        this(key, value, sequence, commitClock, commitTime, WriteKind.PUT);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CompactWaitingVersion w && key.equals(w.key) && Arrays.equals(value, w.value)
                && sequence == w.sequence && commitClock.equals(w.commitClock) && commitTime == w.commitTime
                && kind == w.kind;
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
