package io.fastccs.client;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CausalTokenTest {
    private static final long TIME = 1_764_201_600_123_456L;
    private static final CausalToken TOKEN = CausalToken.of(new long[]{0, 1, 127, 128, 1L << 40, 3}, TIME, 0xfeedface12345678L);

    @Test
    void roundTripsThroughBytes() {
        CausalToken back = CausalToken.fromBytes(TOKEN.toBytes());
        assertThat(back).isEqualTo(TOKEN).hasSameHashCodeAs(TOKEN);
        assertThat(back.clock()).containsExactly(0, 1, 127, 128, 1L << 40, 3);
        assertThat(back.partitions()).isEqualTo(6);
        assertThat(back.ringFingerprint()).isEqualTo(0xfeedface12345678L);
        assertThat(back.commitTime()).isEqualTo(TIME);
    }

    @Test
    void aTokenOfFormatVersionOneStillParsesWithCommitTimeZero() {
        // Version 1: magic, version, fingerprint, partition count, entries, CRC32C; no commit time.
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(0xFC);
        out.write(1);
        for (int shift = 56; shift >= 0; shift -= 8) out.write((int) (0x1234L >>> shift));
        out.write(2);
        out.write(5);
        out.write(7);
        byte[] body = out.toByteArray();
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(body);
        int c = (int) crc.getValue();
        byte[] v1 = Arrays.copyOf(body, body.length + 4);
        for (int i = 0; i < 4; i++) v1[body.length + i] = (byte) (c >>> (24 - 8 * i));
        CausalToken old = CausalToken.fromBytes(v1);
        assertThat(old.clock()).containsExactly(5, 7);
        assertThat(old.commitTime()).isZero();
        assertThat(old).isNotEqualTo(CausalToken.of(new long[]{5, 7}, 1, 0x1234L)).isEqualTo(CausalToken.of(new long[]{5, 7}, 0x1234L));
    }

    @Test
    void roundTripsThroughText() {
        String text = TOKEN.toString();
        assertThat(text).startsWith("fccs1.").doesNotContain("=", "+", "/");
        assertThat(CausalToken.parse(text)).isEqualTo(TOKEN);
    }

    @Test
    void isCompact() {
        // magic and version, fingerprint, count, one byte per small entry, the commit time (epoch microseconds), CRC
        assertThat(CausalToken.of(new long[64], TIME, 1).toBytes()).hasSize(2 + 8 + 1 + 64 + 8 + 4);
    }

    @Test
    void isImmutable() {
        long[] clock = {1, 2};
        CausalToken t = CausalToken.of(clock, 9);
        clock[0] = 99;
        t.clock()[1] = 99;
        assertThat(t.clock()).containsExactly(1, 2);
    }

    @Test
    void refusesCorruptedOrForeignBytes() {
        byte[] bytes = TOKEN.toBytes();
        for (int i = 0; i < bytes.length; i++) {
            byte[] flipped = bytes.clone();
            flipped[i] ^= 0x10;
            assertThatThrownBy(() -> CausalToken.fromBytes(flipped)).isInstanceOf(IllegalArgumentException.class);
        }
        for (int len = 0; len < bytes.length; len++) {
            byte[] cut = Arrays.copyOf(bytes, len);
            assertThatThrownBy(() -> CausalToken.fromBytes(cut)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> CausalToken.parse("hello")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CausalToken.parse("fccs1.!!!")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesImpossibleClocks() {
        assertThatThrownBy(() -> CausalToken.of(new long[0], 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CausalToken.of(new long[]{-1}, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CausalToken.of(new long[]{1L << 60}, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CausalToken.of(new long[]{1}, -1, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
