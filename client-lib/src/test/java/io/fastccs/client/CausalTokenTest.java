package io.fastccs.client;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CausalTokenTest {
    private static final CausalToken TOKEN = CausalToken.of(new long[]{0, 1, 127, 128, 1L << 40, 3}, 0xfeedface12345678L);

    @Test
    void roundTripsThroughBytes() {
        CausalToken back = CausalToken.fromBytes(TOKEN.toBytes());
        assertThat(back).isEqualTo(TOKEN).hasSameHashCodeAs(TOKEN);
        assertThat(back.clock()).containsExactly(0, 1, 127, 128, 1L << 40, 3);
        assertThat(back.partitions()).isEqualTo(6);
        assertThat(back.ringFingerprint()).isEqualTo(0xfeedface12345678L);
    }

    @Test
    void roundTripsThroughText() {
        String text = TOKEN.toString();
        assertThat(text).startsWith("fccs1.").doesNotContain("=", "+", "/");
        assertThat(CausalToken.parse(text)).isEqualTo(TOKEN);
    }

    @Test
    void isCompact() {
        assertThat(CausalToken.of(new long[64], 1).toBytes()).hasSizeLessThan(2 + 8 + 1 + 64 + 4 + 1);
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
    }
}
