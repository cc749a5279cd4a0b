package io.fastccs.testkit;

import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.messages.Hello;
import io.fastccs.protocol.messages.HelloReply;
import io.fastccs.protocol.messages.Message;
import io.fastccs.protocol.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * Settles writes whose outcome the client could not know: asks the write's coordinator ({@code OutcomeQuery} over a
 * raw connection whose Hello names the coordinator's partition) at once and then every 250 ms until the answer is
 * COMMITTED or ABORTED. Coordinators keep decisions for {@code decision_retention} (60 s by default), so asking at once
 * matters; a coordinator that is down, paused or restarting is asked again once it answers. With replicated partitions
 * the coordinator is whichever node leads its group now: a node that does not answers NOT_LEADER, and the next node is
 * asked (only the partition's own node was, once: a group led elsewhere for longer than the retention, as after its
 * node was wiped and replaced, forgot the decision before the query got there, and its next leader presumed abort).
 */
public final class OutcomeResolver implements AutoCloseable {
    private static final class Pending {
        final TxnId txnId;
        final int coordinator;
        final BiConsumer<Outcome, long[]> onDecided;
        /** The node asked next: the coordinator partition's own node first, then each other in turn. */
        int node;

        Pending(TxnId txnId, int coordinator, BiConsumer<Outcome, long[]> onDecided, int node) {
            this.txnId = txnId;
            this.coordinator = coordinator;
            this.onDecided = onDecided;
            this.node = node;
        }
    }

    private final ClusterView cluster;
    private final ConcurrentLinkedQueue<Pending> submitted = new ConcurrentLinkedQueue<>();
    private final List<Pending> pending = new ArrayList<>();
    /** Keyed by node and partition: each connection's Hello names the partition it asks about. */
    private final Map<List<Integer>, RawClient> connections = new HashMap<>();
    private final AtomicLong requestIds = new AtomicLong(1_000_000);
    private final AtomicLong unresolved = new AtomicLong();
    private final AtomicLong queries = new AtomicLong();
    private final Thread thread;
    private volatile boolean closed;

    public OutcomeResolver(ClusterView cluster) {
        this.cluster = cluster;
        this.thread = new Thread(this::run, "outcome-resolver");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Asks until decided; {@code onDecided} gets the outcome and, if committed, the commit clock. */
    public void resolve(TxnId txnId, int coordinator, BiConsumer<Outcome, long[]> onDecided) {
        if (coordinator < 0) throw new IllegalArgumentException("write " + txnId + " names no coordinator");
        unresolved.incrementAndGet();
        submitted.add(new Pending(txnId, coordinator, onDecided, cluster.nodeOfPartition(coordinator)));
    }

    public long unresolved() {
        return unresolved.get();
    }

    public long queries() {
        return queries.get();
    }

    /** Waits until every submitted write has an outcome, or {@code timeout} passed; returns how many are left. */
    public long awaitAll(Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (unresolved.get() > 0 && Instant.now().isBefore(deadline)) Thread.sleep(100);
        return unresolved.get();
    }

    /** {@code WriteResult#transactionId()}: the client id in hex, a colon, the counter. */
    public static TxnId parse(String transactionId) {
        int colon = transactionId.indexOf(':');
        return new TxnId(Long.parseUnsignedLong(transactionId.substring(0, colon), 16),
                Long.parseLong(transactionId.substring(colon + 1)));
    }

    private void run() {
        while (!closed) {
            for (Pending p; (p = submitted.poll()) != null; ) pending.add(p);
            for (var it = pending.iterator(); it.hasNext(); ) {
                Pending p = it.next();
                OutcomeReply reply = ask(p);
                if (reply != null && reply.outcome() != Outcome.UNDECIDED) {
                    p.onDecided.accept(reply.outcome(), reply.commitClock() == null ? null : reply.commitClock().toArray());
                    it.remove();
                    unresolved.decrementAndGet();
                }
            }
            try {
                Thread.sleep(pending.isEmpty() ? 20 : 250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private OutcomeReply ask(Pending p) {
        List<Integer> key = List.of(p.node, p.coordinator);
        try {
            RawClient c = connections.get(key);
            if (c == null) {
                c = RawClient.openBare(cluster.fastccsAddress(p.node), Duration.ofSeconds(2));
                connections.put(key, c);
                Message hello = c.exchange(Hello.client(null, null).to(p.coordinator));
                if (!(hello instanceof HelloReply)) throw new IOException("node " + p.node + " does not lead partition " + p.coordinator + ": " + hello);
            }
            queries.incrementAndGet();
            Message m = c.exchange(new OutcomeQuery(requestIds.incrementAndGet(), p.txnId));
            if (m instanceof OutcomeReply r && r.txnId().equals(p.txnId)) return r;
            // A refusal (NOT_LEADER: the group is led elsewhere now) or a stale reply says nothing about the outcome.
            throw new IOException("node " + p.node + " answered " + m);
        } catch (IOException e) {
            RawClient c = connections.remove(key);
            if (c != null) c.close();
            p.node = p.node % cluster.nodes() + 1; // down, paused, restarting or not the leader: ask the next node
            return null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.interrupt();
        thread.join(5_000);
        connections.values().forEach(RawClient::close);
    }
}
