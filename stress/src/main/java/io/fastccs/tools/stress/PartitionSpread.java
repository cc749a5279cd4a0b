package io.fastccs.tools.stress;

import io.fastccs.workload.KeyDistribution;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.RingReply;
import io.fastccs.core.messages.RingRequest;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.ring.TokenRing;
import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.core.wire.WireCodec;
import io.fastccs.core.wire.WireLimits;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Draws a transaction's keys so that they span exactly P partitions (figure 4.7 varies P). The first key comes
 * from the population as usual and fixes one partition; P - 1 others are chosen at random; the remaining keys are
 * drawn from the population until every chosen partition has at least one. Same keys for every mode, since the
 * partition of a key is its Murmur3 token's owner, which Cassandra and FastCCS agree on.
 */
final class PartitionSpread {
    private static final int MAX_DRAWS = 1_000_000;

    private final KeyDistribution population;
    private final int[] partitionOfKey; // indexed by key - population.min()
    private final int partitions;
    private final int spread;

    PartitionSpread(KeyDistribution population, TokenRing ring, int spread) {
        if (spread > ring.partitions())
            throw new IllegalArgumentException("partitions=" + spread + " but the cluster has " + ring.partitions());
        if (population.size() > 50_000_000)
            throw new IllegalArgumentException("partitions= needs a population of at most 50,000,000 keys");
        this.population = population;
        this.partitions = ring.partitions();
        this.spread = spread;
        this.partitionOfKey = new int[(int) population.size()];
        for (int i = 0; i < partitionOfKey.length; i++)
            partitionOfKey[i] = ring.ownerOf(Key.of(StressBackend.keyName(population.min() + i)));
    }

    int partitionOf(long key) {
        return partitionOfKey[(int) (key - population.min())];
    }

    /** {@code count} distinct keys, sorted, spanning exactly {@code spread} partitions. */
    long[] pick(SplittableRandom random, int count) {
        boolean[] chosen = new boolean[partitions];
        long first = population.next(random);
        chosen[partitionOf(first)] = true;
        for (int more = spread - 1; more > 0; ) {
            int p = random.nextInt(partitions);
            if (!chosen[p]) { chosen[p] = true; more--; }
        }
        java.util.TreeSet<Long> keys = new java.util.TreeSet<>();
        keys.add(first);
        boolean[] covered = new boolean[partitions];
        covered[partitionOf(first)] = true;
        int uncovered = spread - 1;
        for (int draws = 0; keys.size() < count; draws++) {
            if (draws > MAX_DRAWS)
                throw new IllegalStateException("cannot draw " + count + " keys over " + spread + " partitions from " + population);
            long k = population.next(random);
            int p = partitionOf(k);
            if (!chosen[p] || keys.contains(k)) continue;
            // Leave room for a key of every chosen partition not covered yet.
            if (covered[p] && count - keys.size() <= uncovered) continue;
            keys.add(k);
            if (!covered[p]) { covered[p] = true; uncovered--; }
        }
        return keys.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * The ring as any node's FastCCS port describes it (Hello, then RingRequest); plain connections only. Each Hello
     * speaks one of {@code speaking}, tried in order on a fresh connection while nodes refuse it (a node refuses a
     * client of another protocol than it runs): the run's protocol, or every protocol for the plain-Cassandra modes,
     * which do not know what the FastCCS port runs.
     */
    static TokenRing fetchRing(List<InetSocketAddress> fastccsNodes, String user, String password, List<Protocol> speaking)
            throws IOException {
        IOException last = null;
        for (InetSocketAddress node : fastccsNodes) {
            for (Protocol protocol : speaking) {
                try (Socket socket = new Socket()) {
                    socket.connect(node, 5_000);
                    socket.setSoTimeout(10_000);
                    DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                    DataInputStream in = new DataInputStream(socket.getInputStream());
                    Message hello = exchange(out, in, Hello.client(user, password).speaking(protocol));
                    if (!(hello instanceof HelloReply))
                        throw new IOException(node + " refused a handshake in " + protocol.word() + ": " + describe(hello));
                    Message ring = exchange(out, in, new RingRequest(1));
                    if (ring instanceof RingReply reply) return TokenRing.of(reply.members());
                    throw new IOException(node + " answered the ring request with " + describe(ring));
                } catch (IOException e) {
                    last = e;
                }
            }
        }
        throw new IOException("no node told its ring: " + (last == null ? "no nodes" : last.getMessage()), last);
    }

    /** The protocols {@link #fetchRing} speaks for a run in {@code mode}. */
    static List<Protocol> speaking(StressOptions.Mode mode) {
        if (mode.protocol() != null) return List.of(mode.protocol());
        return List.of(Protocol.values()); // FastCCS first: the nodes' default
    }

    private static Message exchange(DataOutputStream out, DataInputStream in, Message request) throws IOException {
        byte[] frame = WireCodec.encode(request);
        out.writeInt(frame.length);
        out.write(frame);
        out.flush();
        int length = in.readInt();
        if (length <= 0 || length > WireLimits.DEFAULT.maxFrameBytes()) throw new IOException("bad frame length " + length);
        byte[] reply = new byte[length];
        in.readFully(reply);
        try {
            return WireCodec.decode(reply);
        } catch (MalformedFrameException e) {
            throw new IOException("malformed reply: " + e.getMessage(), e);
        }
    }

    private static String describe(Message m) {
        return m instanceof ErrorReply e ? e.code() + " " + e.message() : m.getClass().getSimpleName();
    }
}
