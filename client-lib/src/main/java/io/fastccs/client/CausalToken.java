package io.fastccs.client;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.BufferUnderflowException;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.CRC32C;

/**
 * A session's causal context, detached from the session: the session's vector clock (one entry per partition), the
 * largest commit time the session has read or written (its next write is ordered after it), the number of partitions
 * and a fingerprint of the cluster's ring. Pass it to
 * {@link FastCcsClient#session(CausalToken)} in this or another process to continue the same causal history: the
 * new session sees everything the exporting session had written or read when it exported the token.
 *
 * <p>A token belongs to one cluster: a client connected to a cluster with a different ring refuses it with an
 * {@link InvalidRequestException}. Tokens are small (a few bytes per partition), immutable and thread-safe.
 * {@link #toBytes()} and {@link #toString()} are stable across client versions of the same major version.
 */
public final class CausalToken {
    private static final byte MAGIC = (byte) 0xFC;
    /** Version 2 adds the commit time; version 1 tokens still parse, with commit time 0. */
    private static final byte FORMAT_VERSION = 2;
    private static final byte FORMAT_VERSION_WITHOUT_TIME = 1;
    private static final String TEXT_PREFIX = "fccs1.";
    /** Far above any sequence number a partition can reach, so a token that claims more is corrupt. */
    private static final long MAX_ENTRY = 1L << 50;
    private static final int MAX_PARTITIONS = 65_536;

    /** Far above any commit time (microseconds since 1970) for thousands of years. */
    private static final long MAX_TIME = 1L << 62;

    private final long[] clock;
    private final long commitTime;
    private final long ringFingerprint;

    private CausalToken(long[] clock, long commitTime, long ringFingerprint) {
        this.clock = clock;
        this.commitTime = commitTime;
        this.ringFingerprint = ringFingerprint;
    }

    /**
     * A token from its parts; sessions create tokens with {@link CausalSession#exportToken()}, so applications
     * rarely need this.
     *
     * @param clock           the vector clock, one non-negative entry per partition
     * @param ringFingerprint the fingerprint of the ring the clock's partitions belong to
     * @throws IllegalArgumentException if the clock is empty, too long, or has a negative or absurd entry
     */
    public static CausalToken of(long[] clock, long ringFingerprint) {
        return of(clock, 0, ringFingerprint);
    }

    /**
     * A token from its parts, with the session's largest commit time.
     *
     * @param commitTime the largest commit time the session read or wrote ({@link WriteResult#commitTime()}), >= 0
     * @throws IllegalArgumentException as {@link #of(long[], long)}, or if the commit time is negative or absurd
     */
    public static CausalToken of(long[] clock, long commitTime, long ringFingerprint) {
        long[] copy = clock.clone();
        if (copy.length == 0 || copy.length > MAX_PARTITIONS)
            throw new IllegalArgumentException("a causal token has 1 to " + MAX_PARTITIONS + " clock entries, got " + copy.length);
        for (long e : copy)
            if (e < 0 || e > MAX_ENTRY) throw new IllegalArgumentException("clock entry out of range: " + e);
        if (commitTime < 0 || commitTime > MAX_TIME) throw new IllegalArgumentException("commit time out of range: " + commitTime);
        return new CausalToken(copy, commitTime, ringFingerprint);
    }

    /** The number of partitions of the cluster the token belongs to. */
    public int partitions() {
        return clock.length;
    }

    /** The fingerprint of the ring of the cluster the token belongs to. */
    public long ringFingerprint() {
        return ringFingerprint;
    }

    /** The largest commit time the session had read or written; 0 for a token of format version 1. */
    public long commitTime() {
        return commitTime;
    }

    /** A copy of the vector clock: entry {@code i} for partition {@code i}. */
    public long[] clock() {
        return clock.clone();
    }

    /**
     * The token as bytes: a magic byte, a format version, the ring fingerprint, the partition count, the clock
     * entries and the commit time (all as unsigned varints), then a CRC32C of everything before it.
     */
    public byte[] toBytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + 3 * clock.length);
        out.write(MAGIC);
        out.write(FORMAT_VERSION);
        for (int shift = 56; shift >= 0; shift -= 8) out.write((int) (ringFingerprint >>> shift));
        writeVarint(out, clock.length);
        for (long e : clock) writeVarint(out, e);
        writeVarint(out, commitTime);
        CRC32C crc = new CRC32C();
        byte[] body = out.toByteArray();
        crc.update(body);
        int c = (int) crc.getValue();
        byte[] bytes = Arrays.copyOf(body, body.length + 4);
        for (int i = 0; i < 4; i++) bytes[body.length + i] = (byte) (c >>> (24 - 8 * i));
        return bytes;
    }

    /**
     * The token {@link #toBytes()} produced.
     *
     * @throws IllegalArgumentException if the bytes are not a token (truncated, corrupted, or of an unknown
     *                                  format version)
     */
    public static CausalToken fromBytes(byte[] bytes) {
        if (bytes.length < 2 + 8 + 1 + 1 + 4) throw new IllegalArgumentException("not a causal token: too short");
        if (bytes[0] != MAGIC) throw new IllegalArgumentException("not a causal token: bad magic byte");
        if (bytes[1] != FORMAT_VERSION && bytes[1] != FORMAT_VERSION_WITHOUT_TIME)
            throw new IllegalArgumentException("causal token of unknown format version " + bytes[1]);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        if (in.getInt(bytes.length - 4) != (int) crc.getValue())
            throw new IllegalArgumentException("causal token corrupted: checksum mismatch");
        in.limit(bytes.length - 4).position(2);
        try {
            long fingerprint = in.getLong();
            long n = readVarint(in);
            if (n < 1 || n > MAX_PARTITIONS) throw new IllegalArgumentException("causal token with " + n + " partitions");
            long[] clock = new long[(int) n];
            for (int i = 0; i < clock.length; i++) clock[i] = readVarint(in);
            long time = bytes[1] == FORMAT_VERSION_WITHOUT_TIME ? 0 : readVarint(in);
            if (in.hasRemaining()) throw new IllegalArgumentException("causal token with trailing bytes");
            return of(clock, time, fingerprint);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("causal token truncated", e);
        }
    }

    /** The token as text safe for URLs, cookies and headers: {@code fccs1.} and the base64url of {@link #toBytes()}. */
    @Override
    public String toString() {
        return TEXT_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(toBytes());
    }

    /**
     * The token {@link #toString()} produced.
     *
     * @throws IllegalArgumentException if the text is not a token
     */
    public static CausalToken parse(String text) {
        if (!text.startsWith(TEXT_PREFIX)) throw new IllegalArgumentException("not a causal token: missing " + TEXT_PREFIX);
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(text.substring(TEXT_PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a causal token: bad base64", e);
        }
        return fromBytes(bytes);
    }

    private static void writeVarint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7fL) != 0) {
            out.write((int) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static long readVarint(ByteBuffer in) {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = in.get();
            v |= (long) (b & 0x7f) << shift;
            if (b >= 0) return v;
        }
        throw new IllegalArgumentException("causal token with an overlong varint");
    }

    /** Tokens are equal when their clocks, commit times and ring fingerprints are. */
    @Override
    public boolean equals(Object o) {
        return o instanceof CausalToken t && ringFingerprint == t.ringFingerprint && commitTime == t.commitTime
                && Arrays.equals(clock, t.clock);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Long.hashCode(ringFingerprint) + Long.hashCode(commitTime)) + Arrays.hashCode(clock);
    }
}
