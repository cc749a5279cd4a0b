package io.fastccs.client;

import io.fastccs.client.internal.Blocking;

import java.util.concurrent.CompletionStage;

/**
 * A connection to a FastCCS cluster: one TCP connection per node, routing of keys to the nodes that own them,
 * and the sessions that run transactions. Build one per cluster with {@link #builder()} and share it: it is
 * thread-safe, and every session it creates uses the same connections.
 *
 * <pre>{@code
 * try (FastCcsClient client = FastCcsClient.builder()
 *         .addContactPoint(new InetSocketAddress("10.0.0.1", 9142))
 *         .withCredentials("app", "secret")
 *         .build()) {
 *     CausalSession session = client.session();
 *     session.write(Map.of("alice:status", "online", "alice:seen", "2024-05-01"));
 *     ReadResult r = session.read("alice:status", "alice:seen");
 *     String status = r.getString("alice:status");
 * }
 * }</pre>
 *
 * <p>The client keeps its view of the cluster current by itself: it refreshes the ring periodically and whenever
 * a node fails or disagrees about who owns a key, and reconnects to restarted nodes with exponential backoff.
 * Transactions touching a partition the client is not connected to fail fast with
 * {@link PartitionUnavailableException}.
 */
public interface FastCcsClient extends AutoCloseable {
    /**
     * A builder for a client.
     *
     * @return a new builder with default settings and no contact point
     */
    static FastCcsClientBuilder builder() {
        return new FastCcsClientBuilder();
    }

    /**
     * A new session with an empty causal context.
     *
     * @return the session
     * @throws IllegalStateException if the client is closed
     */
    CausalSession session();

    /**
     * A new session that continues the causal context of {@code token}, exported by a session of this or another
     * client of the same cluster.
     *
     * @param token the context to continue
     * @return the session
     * @throws InvalidRequestException       if the token belongs to a cluster with a different ring
     * @throws UnsupportedOperationException if the client speaks another protocol than FastCCS
     *                                       ({@link FastCcsClientBuilder#withProtocol}), whose sessions tokens cannot
     *                                       resume
     * @throws IllegalStateException         if the client is closed
     */
    CausalSession session(CausalToken token);

    /** The number of partitions in the cluster. */
    int partitions();

    /** The client's counters and latency histograms. */
    ClientMetrics metrics();

    /**
     * Closes every connection and releases the client's threads. Transactions still running fail; later calls
     * fail with {@link IllegalStateException}. Idempotent.
     *
     * @return a stage completed once everything is released
     */
    CompletionStage<Void> closeAsync();

    /**
     * {@link #closeAsync()}, waiting for it.
     *
     * @throws IllegalStateException if called from one of the client's I/O threads
     */
    @Override
    default void close() {
        Blocking.await(closeAsync());
    }

    /** Whether {@link #closeAsync()} was called. */
    boolean isClosed();
}
