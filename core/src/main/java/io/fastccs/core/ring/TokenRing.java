package io.fastccs.core.ring;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.api.Topology;
import io.fastccs.core.messages.RingMember;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Cassandra's token ring as a {@link Topology}. Partition {@code i} is the member with the {@code i}-th smallest
 * token {@code t_i}; it owns the keys whose {@linkplain Murmur3Token token} lies in {@code (t_(i-1), t_i]}, and
 * partition 0 also owns every token above the largest one (the ring wraps around), exactly as Cassandra assigns
 * a key to the first node at or after its token.
 *
 * <p>Immutable and thread-safe.
 */
public final class TokenRing implements Topology {
    private final List<RingMember> members;
    private final long[] tokens;
    private final long fingerprint;

    private TokenRing(List<RingMember> sortedMembers) {
        this.members = List.copyOf(sortedMembers);
        this.tokens = new long[members.size()];
        for (int i = 0; i < tokens.length; i++) tokens[i] = members.get(i).token();
        this.fingerprint = fingerprintOf(tokens);
    }

    /**
     * The ring of {@code members}, in any order.
     *
     * @throws IllegalArgumentException if there are no members, two share a token, or a member's
     *                                  {@link RingMember#partition()} is not its rank in token order (the index
     *                                  every node uses for clock entries, so a client must agree with it)
     */
    public static TokenRing of(Collection<RingMember> members) {
        if (members.isEmpty()) throw new IllegalArgumentException("a ring needs at least one member");
        List<RingMember> sorted = new ArrayList<>(members);
        sorted.sort(Comparator.comparingLong(RingMember::token));
        for (int i = 0; i < sorted.size(); i++) {
            RingMember m = sorted.get(i);
            if (i > 0 && sorted.get(i - 1).token() == m.token())
                throw new IllegalArgumentException("partitions " + sorted.get(i - 1).partition() + " and "
                        + m.partition() + " share token " + m.token());
            if (m.partition() != i)
                throw new IllegalArgumentException("member " + m + " has rank " + i + " in token order but claims partition "
                        + m.partition());
        }
        return new TokenRing(sorted);
    }

    @Override
    public int partitions() {
        return tokens.length;
    }

    @Override
    public int ownerOf(Key key) {
        return ownerOfToken(Murmur3Token.tokenOf(key.unsafeBytes()));
    }

    /** The partition owning {@code token}: the first member whose token is at least it, wrapping to partition 0. */
    public int ownerOfToken(long token) {
        int at = Arrays.binarySearch(tokens, token);
        if (at >= 0) return at;
        int insertion = -at - 1;
        return insertion == tokens.length ? 0 : insertion;
    }

    /** Member {@code partition}: its address, token and liveness as the answering node saw them. */
    public RingMember member(int partition) {
        return members.get(partition);
    }

    /** Every member, in partition (token) order. */
    public List<RingMember> members() {
        return members;
    }

    /** Partition {@code partition}'s token. */
    public long token(int partition) {
        return tokens[partition];
    }

    /**
     * A 64-bit digest of the partitioning (the number of partitions and their tokens, not their addresses): two
     * rings with the same fingerprint place every key in the same partition, so a vector clock from one is
     * meaningful in the other.
     */
    public long fingerprint() {
        return fingerprint;
    }

    /** Whether {@code other} partitions keys exactly like this ring (addresses and liveness may differ). */
    public boolean samePartitioning(TokenRing other) {
        return Arrays.equals(tokens, other.tokens);
    }

    private static long fingerprintOf(long[] tokens) {
        // FNV-1a over the tokens' bytes, finished by Murmur3's fmix so nearby rings give distant digests.
        long h = 0xcbf29ce484222325L ^ tokens.length;
        for (long t : tokens) {
            for (int shift = 0; shift < 64; shift += 8) {
                h ^= (t >>> shift) & 0xff;
                h *= 0x100000001b3L;
            }
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TokenRing r && members.equals(r.members);
    }

    @Override
    public int hashCode() {
        return members.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("TokenRing[");
        for (RingMember m : members) {
            if (sb.length() > 10) sb.append(", ");
            sb.append(m.partition()).append('@').append(m.host()).append(':').append(m.port()).append(" t=").append(m.token());
            if (!m.alive()) sb.append(" (down)");
        }
        return sb.append(']').toString();
    }
}
