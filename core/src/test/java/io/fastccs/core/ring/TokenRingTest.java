package io.fastccs.core.ring;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.messages.RingMember;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenRingTest {
    private static RingMember member(int partition, long token) {
        return new RingMember(partition, "10.0.0." + partition, 9142, token, true);
    }

    private static final TokenRing RING = TokenRing.of(List.of(
            member(2, 5_000), member(0, -3_000), member(1, 100)));

    @Test
    void partitionsAreRanksInTokenOrder() {
        assertThat(RING.partitions()).isEqualTo(3);
        assertThat(RING.members()).extracting(RingMember::token).containsExactly(-3_000L, 100L, 5_000L);
        assertThat(RING.member(1).host()).isEqualTo("10.0.0.1");
        assertThat(RING.token(2)).isEqualTo(5_000L);
    }

    @Test
    void ownerIsTheFirstMemberAtOrAfterTheToken() {
        assertThat(RING.ownerOfToken(Long.MIN_VALUE)).isZero();
        assertThat(RING.ownerOfToken(-3_001)).isZero();
        assertThat(RING.ownerOfToken(-3_000)).isZero();   // ranges are (previous, own]
        assertThat(RING.ownerOfToken(-2_999)).isEqualTo(1);
        assertThat(RING.ownerOfToken(100)).isEqualTo(1);
        assertThat(RING.ownerOfToken(101)).isEqualTo(2);
        assertThat(RING.ownerOfToken(5_000)).isEqualTo(2);
        assertThat(RING.ownerOfToken(5_001)).isZero();     // wraps around
        assertThat(RING.ownerOfToken(Long.MAX_VALUE)).isZero();
    }

    @Test
    void keysAreRoutedByTheirMurmur3Token() {
        Random random = new Random(7);
        List<RingMember> members = new ArrayList<>();
        long[] tokens = random.longs(8).sorted().toArray();
        for (int i = 0; i < tokens.length; i++) members.add(member(i, tokens[i]));
        TokenRing ring = TokenRing.of(members);
        int[] seen = new int[8];
        for (int k = 0; k < 10_000; k++) {
            byte[] key = ("key-" + k).getBytes(StandardCharsets.UTF_8);
            long token = Murmur3Token.tokenOf(key);
            int owner = ring.ownerOf(Key.of(key));
            seen[owner]++;
            long previous = owner == 0 ? tokens[tokens.length - 1] : tokens[owner - 1];
            if (owner == 0) assertThat(token <= tokens[0] || token > previous).isTrue();
            else assertThat(token).isGreaterThan(previous).isLessThanOrEqualTo(tokens[owner]);
        }
        assertThat(seen).doesNotContain(0);
    }

    @Test
    void singleMemberOwnsEverything() {
        TokenRing one = TokenRing.of(List.of(member(0, 42)));
        assertThat(one.ownerOf(Key.of("anything"))).isZero();
        assertThat(one.ownerOfToken(Long.MAX_VALUE)).isZero();
    }

    @Test
    void refusesInconsistentRings() {
        assertThatThrownBy(() -> TokenRing.of(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TokenRing.of(List.of(member(0, 1), member(1, 1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("share token");
        assertThatThrownBy(() -> TokenRing.of(List.of(member(1, 1), member(0, 2))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rank");
    }

    @Test
    void fingerprintDependsOnTokensOnly() {
        TokenRing moved = TokenRing.of(List.of(
                new RingMember(0, "elsewhere", 1, -3_000, false), member(1, 100), member(2, 5_000)));
        TokenRing other = TokenRing.of(List.of(member(0, -3_000), member(1, 101), member(2, 5_000)));
        assertThat(moved.fingerprint()).isEqualTo(RING.fingerprint());
        assertThat(moved.samePartitioning(RING)).isTrue();
        assertThat(moved).isNotEqualTo(RING);
        assertThat(other.fingerprint()).isNotEqualTo(RING.fingerprint());
        assertThat(other.samePartitioning(RING)).isFalse();
    }
}
