package io.fastccs.server.cassandra;

import io.fastccs.core.api.Topology;
import io.fastccs.core.messages.RingMember;
import io.fastccs.core.ring.TokenRing;
import io.fastccs.server.config.FastCcsSettings;
import io.fastccs.server.node.MonotonicClock;
import io.fastccs.server.node.RingView;
import org.apache.cassandra.dht.Murmur3Partitioner;
import org.apache.cassandra.dht.Token;
import org.apache.cassandra.gms.ApplicationState;
import org.apache.cassandra.gms.EndpointState;
import org.apache.cassandra.gms.Gossiper;
import org.apache.cassandra.gms.VersionedValue;
import org.apache.cassandra.locator.InetAddressAndPort;
import org.apache.cassandra.locator.TokenMetadata;
import org.apache.cassandra.service.StorageService;
import org.apache.cassandra.utils.FBUtilities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The FastCCS ring read from Cassandra's own: one partition per node (each node has exactly one token), partition
 * index = rank of the node's token, so indexes are stable across restarts as long as the tokens are. FastCCS ports
 * come from gossip ({@link ApplicationState#X1}), falling back to this node's configured port.
 */
public final class CassandraRing implements RingView {
    private static final Logger logger = LoggerFactory.getLogger(CassandraRing.class);
    /** Gossip application state carrying "fastccs:PORT". */
    static final ApplicationState FASTCCS_STATE = ApplicationState.X1;
    private static final String PREFIX = "fastccs:";

    private final int self;
    private final List<InetAddressAndPort> endpoints;
    private final List<Long> tokens;
    private final int defaultPort;
    private final TokenRing topology;

    private CassandraRing(int self, List<InetAddressAndPort> endpoints, List<Long> tokens, int defaultPort) {
        this.self = self;
        this.endpoints = List.copyOf(endpoints);
        this.tokens = List.copyOf(tokens);
        this.defaultPort = defaultPort;
        List<RingMember> byToken = new ArrayList<>(tokens.size());
        for (int p = 0; p < tokens.size(); p++) byToken.add(new RingMember(p, "", defaultPort, tokens.get(p), true));
        this.topology = TokenRing.of(byToken); // ownership needs only the tokens
    }

    /**
     * Waits until the ring is complete: as many nodes as {@code partitions} says, or, when unset, until the ring has
     * not changed for {@code ring_settle_time}. Vector clocks have one entry per partition, so the ring must not
     * change afterwards (the thesis assumes a fixed set of partitions too).
     */
    public static CassandraRing awaitComplete(FastCcsSettings settings) throws InterruptedException {
        int expected = settings.partitions();
        long settleNanos = TimeUnit.MICROSECONDS.toNanos(settings.ringSettleTime().toMicroseconds());
        List<Long> last = null;
        long stableSince = MonotonicClock.nanoTime();
        long lastLog = 0;
        while (true) {
            TokenMetadata tm = StorageService.instance.getTokenMetadata();
            ArrayList<Token> sorted = tm.sortedTokens();
            List<Long> tokens = new ArrayList<>();
            for (Token t : sorted) tokens.add(((Murmur3Partitioner.LongToken) t).token);
            if (!tokens.equals(last)) {
                last = tokens;
                stableSince = MonotonicClock.nanoTime();
            }
            boolean complete = expected > 0 ? tokens.size() == expected : MonotonicClock.nanoTime() - stableSince >= settleNanos;
            if (complete && !tokens.isEmpty()) {
                List<InetAddressAndPort> eps = new ArrayList<>();
                for (Token t : sorted) eps.add(tm.getEndpoint(t));
                for (InetAddressAndPort ep : eps)
                    if (tm.getTokens(ep).size() != 1)
                        throw new IllegalStateException("FastCCS needs exactly one token per node (num_tokens: 1); " + ep
                                + " has " + tm.getTokens(ep).size());
                int self = eps.indexOf(FBUtilities.getBroadcastAddressAndPort());
                if (self < 0) throw new IllegalStateException("this node is not in its own ring");
                if (expected > 0 && tokens.size() > expected)
                    throw new IllegalStateException("the ring has " + tokens.size() + " nodes but fastccs partitions is " + expected);
                return new CassandraRing(self, eps, tokens, settings.port());
            }
            if (MonotonicClock.nanoTime() - lastLog > TimeUnit.SECONDS.toNanos(10)) {
                logger.info("FastCCS waiting for the ring: {} of {} nodes", tokens.size(), expected > 0 ? expected : "?");
                lastLog = MonotonicClock.nanoTime();
            }
            Thread.sleep(200);
        }
    }

    /** Gossip application state carrying the groups this node leads (replicated partitions; see LeaderClaims). */
    static final ApplicationState LEADERSHIP_STATE = ApplicationState.X2;

    /** This ring's view of who leads which group, through gossip. */
    public io.fastccs.server.groups.LeaderClaims.Gossip leaderGossip() {
        return new io.fastccs.server.groups.LeaderClaims.Gossip() {
            @Override
            public void publish(java.util.Map<Integer, Long> termByPartition) {
                String encoded = io.fastccs.server.groups.LeaderClaims.encode(termByPartition);
                Gossiper.instance.addLocalApplicationState(LEADERSHIP_STATE, StorageService.instance.valueFactory.rack(encoded));
            }

            @Override
            public int leaderOf(int partition) {
                List<java.util.Map<Integer, Long>> claims = new ArrayList<>(endpoints.size());
                for (int p = 0; p < endpoints.size(); p++) {
                    InetAddressAndPort ep = endpoints.get(p);
                    EndpointState state = Gossiper.instance.getEndpointStateForEndpoint(ep);
                    VersionedValue v = state == null ? null : state.getApplicationState(LEADERSHIP_STATE);
                    boolean alive = p == self || Gossiper.instance.isAlive(ep);
                    claims.add(alive && v != null ? io.fastccs.server.groups.LeaderClaims.decode(v.value) : null);
                }
                return io.fastccs.server.groups.LeaderClaims.leaderOf(partition, claims);
            }
        };
    }

    /** Tells the other nodes which port this node serves FastCCS on. */
    public static void advertisePort(int port) {
        VersionedValue value = StorageService.instance.valueFactory.rack(PREFIX + port);
        Gossiper.instance.addLocalApplicationState(FASTCCS_STATE, value);
    }

    @Override
    public int self() {
        return self;
    }

    @Override
    public int partitions() {
        return tokens.size();
    }

    @Override
    public List<RingMember> members() {
        List<RingMember> out = new ArrayList<>(tokens.size());
        for (int p = 0; p < tokens.size(); p++) {
            InetAddressAndPort ep = endpoints.get(p);
            String host = p == self ? FBUtilities.getBroadcastNativeAddressAndPort().getHostAddress(false)
                    : StorageService.instance.getNativeaddress(ep, false);
            boolean alive = p == self || Gossiper.instance.isAlive(ep);
            out.add(new RingMember(p, host, portOf(ep, p), tokens.get(p), alive));
        }
        return out;
    }

    private int portOf(InetAddressAndPort ep, int p) {
        if (p == self) return defaultPort;
        EndpointState state = Gossiper.instance.getEndpointStateForEndpoint(ep);
        VersionedValue v = state == null ? null : state.getApplicationState(FASTCCS_STATE);
        if (v != null && v.value.startsWith(PREFIX)) {
            try {
                return Integer.parseInt(v.value.substring(PREFIX.length()));
            } catch (NumberFormatException e) {
                logger.warn("FastCCS: {} advertises a bad port '{}'", ep, v.value);
            }
        }
        return defaultPort;
    }

    /** The Cassandra endpoint of partition {@code p}. */
    public InetAddressAndPort endpoint(int p) {
        return endpoints.get(p);
    }

    @Override
    public Topology topology() {
        return topology;
    }

    @Override
    public boolean mayActAs(InetAddress address, int partition) {
        if (partition < 0 || partition >= endpoints.size()) return false;
        InetAddressAndPort ep = endpoints.get(partition);
        if (ep.getAddress().equals(address)) return true;
        String nativeAddress = StorageService.instance.getNativeaddress(ep, false);
        return nativeAddress.equals(address.getHostAddress());
    }
}
