package io.fastccs.core.ring;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

class Murmur3TokenTest {
    /**
     * Tokens computed by Cassandra 5.0.9's {@code Murmur3Partitioner.instance.getToken(ByteBuffer.wrap(key))}:
     * text keys, random keys of every tail length class from 1 to 40 bytes, and keys whose tail bytes are
     * {@code >= 0x80} (sign extension).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "61, -8839064797231613815",
            "6b6579, -6847573755651342660",
            "68656c6c6f20776f726c64, 5998619086395760910",
            "757365723a3132333435, -8339725354620553174",
            "54686520717569636b2062726f776e20666f78206a756d7073206f76657220746865206c617a7920646f67, -2068352364225029268",
            "35, 958005880272148645",
            "f78a, -7302957027595216506",
            "e1bbe7, 3891965475149484587",
            "28c0450ce43c08, -3262424828412953743",
            "4bbb2bf1839dee46, 1264027521177821564",
            "6d852cb5be6a61aa9a, -7814805406457702332",
            "bd6743e7dc978573998e685e885cb3, -7720966063705057633",
            "f86c974620bebfb01100b276545718c3, 1364632233040705539",
            "0f406cc8e3a188fff11059eb6fbce62655, -2803864054741482914",
            "83b89670d6d9f9bf52d83deedc0bf66205835ccc16ad682d, 8130877920350578824",
            "8c478a26f450279849599b56dd53b3351a572b40f27f72d37f347b5d997916, -614627601111414230",
            "fa959d2832a46196d92c304697e953c0026cc4a45eb32f92829e8d14ee827c94, 4083863040531422073",
            "edc93517ef7da4c0ce2972cc9b060b08b6460851f3a3a05bb102f732ed235bd128, 8405474001917834670",
            "1192ed6a754300c523675af9b6c4a514cacaa1b6a736738853ee067b87849adf0100aa4a52cc3238, -5576666803054980299",
            "80878e959ca3aab1b8bfc6cdd4dbe2, 3052317648445578018",
            "ff, -4442228696663692417",
            "fffe807f0081c3, 6256250759501167094",
    })
    void matchesCassandra(String keyHex, long expected) {
        assertThat(Murmur3Token.tokenOf(HexFormat.of().parseHex(keyHex))).isEqualTo(expected);
    }

    @Test
    void emptyKeyHasTheMinimumToken() {
        assertThat(Murmur3Token.tokenOf(new byte[0])).isEqualTo(Long.MIN_VALUE).isEqualTo(Murmur3Token.MINIMUM);
    }

    @Test
    void tailBytesAreSignExtended() {
        // The reference algorithm zero-extends; a key with a high tail byte must differ from that reading.
        byte[] key = {(byte) 0xff};
        assertThat(Murmur3Token.tokenOf(key)).isNotEqualTo(zeroExtendedReference(key));
        byte[] low = {0x35};
        assertThat(Murmur3Token.tokenOf(low)).isEqualTo(zeroExtendedReference(low));
    }

    @Test
    void offsetAndLengthSelectASlice() {
        byte[] padded = HexFormat.of().parseHex("00006b657900");
        assertThat(Murmur3Token.hash64(padded, 2, 3)).isEqualTo(-6847573755651342660L);
    }

    /** A one-byte key hashed as the reference C code does (unsigned tail byte). */
    private static long zeroExtendedReference(byte[] oneByte) {
        long c1 = 0x87c37b91114253d5L;
        long c2 = 0x4cf5ad432745937fL;
        long k1 = oneByte[0] & 0xffL;
        k1 *= c1;
        k1 = Long.rotateLeft(k1, 31);
        k1 *= c2;
        long h1 = k1 ^ 1;
        long h2 = 1;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        return h1 + h2;
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
