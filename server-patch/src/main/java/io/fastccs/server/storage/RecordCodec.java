package io.fastccs.server.storage;

import io.fastccs.core.primitives.WriteKind;

import io.fastccs.protocol.primitives.CommitOrder;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The byte encodings of the store's blob columns. Every integer is an unsigned LEB128 varint (7 bits a byte, low
 * group first, high bit set on every byte but the last), so small numbers take one byte:
 * <ul>
 *   <li>vector clock: {@code n, e[0], ..., e[n-1]} (a 3-partition clock of small entries is 4 bytes);</li>
 *   <li>commit (a version's or a transaction's commit clock and commit time): the vector clock, then {@code time}.
 *       Blobs written before commit times existed end after the clock and read as time 0: older than anything
 *       committed since, and ordered among themselves by their clocks as they were;</li>
 *   <li>participant list: {@code count, p[0], ...};</li>
 *   <li>writes of a prepared transaction: {@code count}, then per write {@code keyLength, key, valueLength, value}.</li>
 * </ul>
 * Outcomes are stored as a tinyint: 0 undecided (or the column absent), 1 committed, 2 aborted. Decoders check
 * lengths and throw {@link IllegalArgumentException} on malformed input rather than reading past the end.
 */
public final class RecordCodec {
    private static final byte UNDECIDED = 0;
    private static final byte COMMITTED = 1;
    private static final byte ABORTED = 2;

    private RecordCodec() {
    }

    public static byte[] encodeClock(VectorClock clock) {
        Writer w = new Writer(1 + clock.size() * 3);
        writeClock(w, clock);
        return w.toArray();
    }

    public static VectorClock decodeClock(ByteBuffer bytes) {
        Reader r = new Reader(bytes);
        VectorClock clock = readClock(r);
        r.expectEnd();
        return clock;
    }

    public static byte[] encodeCommit(VectorClock clock, long time) {
        if (time < 0) throw new IllegalArgumentException("negative commit time " + time);
        Writer w = new Writer(2 + clock.size() * 3 + 8);
        writeClock(w, clock);
        w.varint(time);
        return w.toArray();
    }

    private static void writeClock(Writer w, VectorClock clock) {
        w.varint(clock.size());
        for (int i = 0; i < clock.size(); i++) w.varint(clock.get(i));
    }

    /** A version's commit, and its kind after it when it is not a put (the older format has none). */
    public static byte[] encodeVersionCommit(VectorClock clock, long time, WriteKind kind) {
        if (kind == WriteKind.PUT) return encodeCommit(clock, time);
        Writer w = new Writer(4 + clock.size() * 3 + 8);
        writeClock(w, clock);
        w.varint(time);
        w.varint(kind.ordinal());
        return w.toArray();
    }

    /** A version's stored commit: its order and its kind. */
    public record VersionCommit(CommitOrder order, WriteKind kind) {
    }

    public static VersionCommit decodeVersionCommit(ByteBuffer bytes) {
        Reader r = new Reader(bytes);
        VectorClock clock = readClock(r);
        long time = r.atEnd() ? 0 : r.varint();
        WriteKind kind = r.atEnd() ? WriteKind.PUT : kind(r.intValue());
        r.expectEnd();
        return new VersionCommit(new CommitOrder(time, clock), kind);
    }

    private static WriteKind kind(int ordinal) {
        WriteKind kind = WriteKind.ofOrdinal(ordinal);
        if (kind == null) throw new IllegalArgumentException("unknown stored write kind " + ordinal);
        return kind;
    }

    public static CommitOrder decodeCommit(ByteBuffer bytes) {
        Reader r = new Reader(bytes);
        VectorClock clock = readClock(r);
        long time = r.atEnd() ? 0 : r.varint();
        r.expectEnd();
        return new CommitOrder(time, clock);
    }

    private static VectorClock readClock(Reader r) {
        int n = r.count();
        if (n < 1) throw new IllegalArgumentException("a stored vector clock has no entries");
        long[] entries = new long[n];
        for (int i = 0; i < n; i++) entries[i] = r.varint();
        return VectorClock.of(entries);
    }

    public static byte[] encodeParticipants(List<Integer> participants) {
        Writer w = new Writer(1 + participants.size() * 2);
        w.varint(participants.size());
        for (int p : participants) {
            if (p < 0) throw new IllegalArgumentException("negative partition index " + p);
            w.varint(p);
        }
        return w.toArray();
    }

    public static List<Integer> decodeParticipants(ByteBuffer bytes) {
        Reader r = new Reader(bytes);
        int count = r.count();
        Integer[] out = new Integer[count];
        for (int i = 0; i < count; i++) out[i] = r.intValue();
        r.expectEnd();
        return List.of(out);
    }

    public static byte[] encodeWrites(List<KeyValue> writes) {
        int size = 5;
        for (KeyValue kv : writes) size += 10 + kv.key().length() + kv.value().length;
        Writer w = new Writer(size + writes.size());
        w.varint(writes.size());
        boolean typed = false;
        for (KeyValue kv : writes) {
            w.bytes(kv.key().unsafeBytes());
            w.bytes(kv.value());
            typed |= kv.kind() != WriteKind.PUT;
        }
        // Commutative operations: their kinds after the writes, one each; absent when all are puts (the older format).
        if (typed) for (KeyValue kv : writes) w.varint(kv.kind().ordinal());
        return w.toArray();
    }

    public static List<KeyValue> decodeWrites(ByteBuffer bytes) {
        Reader r = new Reader(bytes);
        int count = r.count();
        List<KeyValue> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Key key = Key.wrap(r.bytes());
            out.add(new KeyValue(key, r.bytes()));
        }
        if (!r.atEnd())
            for (int i = 0; i < count; i++) out.set(i, new KeyValue(out.get(i).key(), out.get(i).value(), kind(r.intValue())));
        r.expectEnd();
        return List.copyOf(out);
    }

    public static byte encodeOutcome(Outcome outcome) {
        return switch (outcome) {
            case UNDECIDED -> UNDECIDED;
            case COMMITTED -> COMMITTED;
            case ABORTED -> ABORTED;
        };
    }

    public static Outcome decodeOutcome(byte code) {
        return switch (code) {
            case UNDECIDED -> Outcome.UNDECIDED;
            case COMMITTED -> Outcome.COMMITTED;
            case ABORTED -> Outcome.ABORTED;
            default -> throw new IllegalArgumentException("unknown stored outcome code " + code);
        };
    }

    /** A growable byte array for varints and length-prefixed byte strings. */
    private static final class Writer {
        private byte[] buf;
        private int size;

        Writer(int capacity) {
            buf = new byte[Math.max(capacity, 8)];
        }

        void varint(long value) {
            ensure(10);
            while ((value & ~0x7FL) != 0) {
                buf[size++] = (byte) ((value & 0x7F) | 0x80);
                value >>>= 7;
            }
            buf[size++] = (byte) value;
        }

        void bytes(byte[] b) {
            varint(b.length);
            ensure(b.length);
            System.arraycopy(b, 0, buf, size, b.length);
            size += b.length;
        }

        private void ensure(int more) {
            if (size + more > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }

        byte[] toArray() {
            return size == buf.length ? buf : Arrays.copyOf(buf, size);
        }
    }

    /** Reads a buffer from its position to its limit without moving the caller's position. */
    private static final class Reader {
        private final ByteBuffer buf;

        Reader(ByteBuffer bytes) {
            this.buf = bytes.duplicate();
        }

        long varint() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (!buf.hasRemaining()) throw new IllegalArgumentException("truncated varint");
                byte b = buf.get();
                value |= (long) (b & 0x7F) << shift;
                if (b >= 0) return value;
            }
            throw new IllegalArgumentException("varint longer than 10 bytes");
        }

        int intValue() {
            long v = varint();
            if (v < 0 || v > Integer.MAX_VALUE) throw new IllegalArgumentException("value out of int range: " + v);
            return (int) v;
        }

        /** A count of items that each take at least one byte, so a corrupt count cannot make us allocate much. */
        int count() {
            int n = intValue();
            if (n > buf.remaining()) throw new IllegalArgumentException("count " + n + " exceeds the " + buf.remaining() + " bytes left");
            return n;
        }

        byte[] bytes() {
            int length = intValue();
            if (length > buf.remaining()) throw new IllegalArgumentException("length " + length + " exceeds the " + buf.remaining() + " bytes left");
            byte[] out = new byte[length];
            buf.get(out);
            return out;
        }

        boolean atEnd() {
            return !buf.hasRemaining();
        }

        void expectEnd() {
            if (buf.hasRemaining()) throw new IllegalArgumentException(buf.remaining() + " unexpected trailing bytes");
        }
    }
}
