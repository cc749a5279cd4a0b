package io.fastccs.core.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The token Cassandra's {@code Murmur3Partitioner} gives a partition key: the first 64 bits of MurmurHash3
 * x64_128 with seed 0, so FastCCS places every key on the same node Cassandra would.
 *
 * <p>Two quirks of Cassandra's variant are reproduced on purpose. The tail bytes (the last {@code length % 16})
 * are sign-extended, as Java's signed {@code byte} makes them, where the reference C code zero-extends; so keys
 * with a tail byte {@code >= 0x80} hash differently from the reference. And {@link Long#MIN_VALUE}, which
 * Cassandra reserves as the ring's minimum token, becomes {@link Long#MAX_VALUE}; only the empty key has
 * the minimum token.
 */
public final class Murmur3Token {
    /** The token of the empty key, and the ring's minimum: no non-empty key has it. */
    public static final long MINIMUM = Long.MIN_VALUE;

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;
    private static final VarHandle LITTLE_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Murmur3Token() {
    }

    /** The token of {@code key}. */
    public static long tokenOf(byte[] key) {
        return key.length == 0 ? MINIMUM : normalize(hash64(key, 0, key.length));
    }

    private static long normalize(long hash) {
        return hash == Long.MIN_VALUE ? Long.MAX_VALUE : hash;
    }

    /** The first half of MurmurHash3 x64_128 (seed 0) of {@code key[offset, offset + length)}, tail sign-extended. */
    @SuppressWarnings("fallthrough")
    static long hash64(byte[] key, int offset, int length) {
        int blocks = length >>> 4;
        long h1 = 0;
        long h2 = 0;
        for (int i = 0; i < blocks; i++) {
            int at = offset + (i << 4);
            long k1 = littleEndianLong(key, at);
            long k2 = littleEndianLong(key, at + 8);
            h1 ^= mixK1(k1);
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(k2);
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }

        int tail = offset + (blocks << 4);
        long k1 = 0;
        long k2 = 0;
        // Deliberate fall-through, as in the reference; (long) key[..] sign-extends, which is Cassandra's quirk.
        switch (length & 15) {
            case 15: k2 ^= ((long) key[tail + 14]) << 48;
            case 14: k2 ^= ((long) key[tail + 13]) << 40;
            case 13: k2 ^= ((long) key[tail + 12]) << 32;
            case 12: k2 ^= ((long) key[tail + 11]) << 24;
            case 11: k2 ^= ((long) key[tail + 10]) << 16;
            case 10: k2 ^= ((long) key[tail + 9]) << 8;
            case 9:
                k2 ^= key[tail + 8];
                h2 ^= mixK2(k2);
            case 8: k1 ^= ((long) key[tail + 7]) << 56;
            case 7: k1 ^= ((long) key[tail + 6]) << 48;
            case 6: k1 ^= ((long) key[tail + 5]) << 40;
            case 5: k1 ^= ((long) key[tail + 4]) << 32;
            case 4: k1 ^= ((long) key[tail + 3]) << 24;
            case 3: k1 ^= ((long) key[tail + 2]) << 16;
            case 2: k1 ^= ((long) key[tail + 1]) << 8;
            case 1:
                k1 ^= key[tail];
                h1 ^= mixK1(k1);
            default:
                break;
        }

        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 += h2;
        return h1;
    }

    private static long mixK1(long k1) {
        k1 *= C1;
        k1 = Long.rotateLeft(k1, 31);
        return k1 * C2;
    }

    private static long mixK2(long k2) {
        k2 *= C2;
        k2 = Long.rotateLeft(k2, 33);
        return k2 * C1;
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    private static long littleEndianLong(byte[] b, int at) {
        return (long) LITTLE_ENDIAN_LONG.get(b, at);
    }
}
