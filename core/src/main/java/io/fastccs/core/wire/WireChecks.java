package io.fastccs.core.wire;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.KeyType;
import io.fastccs.core.primitives.WriteKind;
import io.fastccs.core.wire.MalformedFrameException.Kind;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The field checks every protocol's mapping shares, so the same value gets the same check and the same message
 * whatever the protocol. Decoding checks everything Thrift itself does not (presence of every field not marked
 * optional, value ranges, per-field limits) and fails with a {@link MalformedFrameException}; encoding refuses with
 * an {@link IllegalArgumentException} what a receiver would refuse, so a bad message fails where it is made.
 */
public final class WireChecks {
    private WireChecks() {
    }

    // ------------------------------------------------------------------------------------------------------------
    // Decoding
    // ------------------------------------------------------------------------------------------------------------

    public static MalformedFrameException missing(String field) {
        return new MalformedFrameException(Kind.MISSING_FIELD, field + " is absent");
    }

    public static MalformedFrameException invalid(String detail) {
        return new MalformedFrameException(Kind.INVALID_VALUE, detail);
    }

    public static MalformedFrameException tooMany(String field, int size, int limit) {
        return new MalformedFrameException(Kind.LIMIT_EXCEEDED, field + " has " + size + " elements, limit " + limit);
    }

    public static long requireSet(boolean isSet, String field, long value) throws MalformedFrameException {
        if (!isSet) throw missing(field);
        return value;
    }

    public static int requireSet(boolean isSet, String field, int value) throws MalformedFrameException {
        if (!isSet) throw missing(field);
        return value;
    }

    public static int partition(boolean isSet, int p, String field) throws MalformedFrameException {
        if (!isSet) throw missing(field);
        if (p < 0) throw invalid(field + " is a negative partition index: " + p);
        return p;
    }

    public static long sequence(boolean isSet, long s, String field) throws MalformedFrameException {
        if (!isSet) throw missing(field);
        if (s < 0) throw invalid(field + " is a negative sequence number: " + s);
        return s;
    }

    /** A time, clock or version, which is never negative. */
    public static long nonNegative(boolean isSet, long v, String field) throws MalformedFrameException {
        if (!isSet) throw missing(field);
        if (v < 0) throw invalid(field + " is negative: " + v);
        return v;
    }

    /** A time that is -1 where there is none. */
    public static long timeOrMinusOne(boolean isSet, long v, String field) throws MalformedFrameException {
        if (!isSet) throw missing(field);
        if (v < -1) throw invalid(field + " is a time >= 0 or -1, got " + v);
        return v;
    }

    /** A list of partition indices, which counts against the clock limit (one per partition at most). */
    public static List<Integer> partitions(List<Integer> wire, String field, WireLimits limits)
            throws MalformedFrameException {
        if (wire == null) throw missing(field);
        if (wire.size() > limits.maxClockEntries()) throw tooMany(field, wire.size(), limits.maxClockEntries());
        for (int i = 0; i < wire.size(); i++)
            if (wire.get(i) < 0) throw invalid(field + "[" + i + "] is a negative partition index: " + wire.get(i));
        return wire;
    }

    public static List<Key> keys(List<ByteBuffer> wire, String field, WireLimits limits)
            throws MalformedFrameException {
        if (wire == null) throw missing(field);
        if (wire.size() > limits.maxKeysPerMessage()) throw tooMany(field, wire.size(), limits.maxKeysPerMessage());
        List<Key> out = new ArrayList<>(wire.size());
        for (ByteBuffer b : wire) out.add(Key.wrap(copy(b)));
        return out;
    }

    /** A write kind's number (absent: a put); {@link WriteKind#FOLDED} never travels. */
    public static WriteKind writeKind(boolean set, byte wire, String field) throws MalformedFrameException {
        if (!set) return WriteKind.PUT;
        WriteKind kind = WriteKind.ofOrdinal(wire);
        if (kind == null || kind == WriteKind.FOLDED) throw invalid(field + " is " + wire + ", not a write kind");
        return kind;
    }

    public static KeyType keyType(boolean set, byte wire, String field) throws MalformedFrameException {
        if (!set) return KeyType.REGISTER;
        if (wire < 0 || wire >= KeyType.values().length) throw invalid(field + " is " + wire + ", not a key type");
        return KeyType.values()[wire];
    }

    /**
     * The bytes of a decoded binary. They must be copied: Thrift hands out a view of the frame, whose buffer the
     * transport is free to reuse once decode returns.
     */
    public static byte[] copy(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(b.position(), out);
        return out;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Encoding
    // ------------------------------------------------------------------------------------------------------------

    public static void checkPartition(int p, String field) {
        if (p < 0) throw new IllegalArgumentException(field + " must be a partition index >= 0, got " + p);
    }

    public static void checkSequence(long s, String field) {
        if (s < 0) throw new IllegalArgumentException(field + " must be a sequence number >= 0, got " + s);
    }

    /** For a time, clock or version that is never negative. */
    public static void checkNonNegative(long v, String field) {
        if (v < 0) throw new IllegalArgumentException(field + " must be >= 0, got " + v);
    }

    public static long nonNegativeTime(long v, String field) {
        checkNonNegative(v, field);
        return v;
    }

    /** For a time that is -1 where there is none. */
    public static void checkTimeOrMinusOne(long v, String field) {
        if (v < -1) throw new IllegalArgumentException(field + " must be a time >= 0 or -1, got " + v);
    }

    public static List<Integer> partitionsToWire(List<Integer> partitions, String field) {
        for (int p : partitions) checkPartition(p, field);
        return partitions;
    }

    public static List<ByteBuffer> keysToWire(List<Key> keys) {
        List<ByteBuffer> out = new ArrayList<>(keys.size());
        // unsafeBytes: the buffers only live until the frame is written, and writing never modifies them.
        for (Key k : keys) out.add(ByteBuffer.wrap(k.unsafeBytes()));
        return out;
    }
}
