package io.fastccs.testkit;

import io.fastccs.protocol.primitives.CommitOrder;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.Outcome;
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
 * raw connection) at once and then every 250 ms until the answer is COMMITTED or ABORTED. Coordinators keep decisions
 * for {@code decision_retention} (60 s by default), so asking at once matters; a coordinator that is down, paused or
 * restarting is asked again once it answers.
 */
public final class OutcomeResolver implements AutoCloseable {
    private record Pending(TxnId txnId, int coordinator, BiConsumer<Outcome, CommitOrder> onDecided) {
    }

    private final ClusterView cluster;
    private final ConcurrentLinkedQueue<Pending> submitted = new ConcurrentLinkedQueue<>();
    private final List<Pending> pending = new ArrayList<>();
    private final Map<Integer, RawClient> connections = new HashMap<>();
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

    /** Asks until decided; {@code onDecided} gets the outcome and, if committed, the commit clock and time. */
    public void resolve(TxnId txnId, int coordinator, BiConsumer<Outcome, CommitOrder> onDecided) {
        if (coordinator < 0) throw new IllegalArgumentException("write " + txnId + " names no coordinator");
        unresolved.incrementAndGet();
        submitted.add(new Pending(txnId, coordinator, onDecided));
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
                    p.onDecided().accept(reply.outcome(),
                            reply.commitClock() == null ? null : new CommitOrder(reply.commitTime(), reply.commitClock()));
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

    /**
     * Asks the node leading the coordinator's partition now: with replicated partitions that may be another member
     * than the partition's own node for minutes (after a kill, a restart of every node, a cut-off leader), and the
     * leader there collects decisions after the retention, so asking only the partition's own node could get a
     * presumed abort for a committed write once it leads again; the leader is found through any node that answers (the
     * availability experiment kept the own node down for 60 s and more). At replication factor 1 the leader is the own
     * node.
     */
    private OutcomeReply ask(Pending p) {
        int partition = p.coordinator();
        try {
            RawClient c = connections.get(partition);
            if (c == null) {
                int node = leaderOf(partition);
                if (node < 0) node = cluster.nodeOfPartition(partition); // no node answers: ask its own again later
                c = RawClient.openFor(cluster.fastccsAddress(node), partition, Duration.ofSeconds(2));
                connections.put(partition, c);
            }
            queries.incrementAndGet();
            Message m = c.exchange(new OutcomeQuery(requestIds.incrementAndGet(), p.txnId()));
            if (m instanceof OutcomeReply r && r.txnId().equals(p.txnId())) return r;
            if (m instanceof ErrorReply) drop(partition); // not (or no longer) the leader: find it again
            return null; // a refusal or a stale reply says nothing about the outcome: ask again
        } catch (IOException e) {
            drop(partition);
            return null; // the leader is down, paused or restarting: ask again later
        }
    }

    /**
     * The node leading {@code partition}'s group as the first node that answers says, its own node first. Any node will
     * do: its own node may be the one that is down, for longer than the coordinator keeps its decisions
     * (decision_retention), and a question asked after that is answered by a presumed abort.
     */
    private int leaderOf(int partition) {
        int own = cluster.nodeOfPartition(partition);
        for (int i = 0; i < cluster.nodes(); i++) {
            int asked = (own - 1 + i) % cluster.nodes() + 1;
            int leader = cluster.leaderAsSeenBy(asked, partition, Duration.ofSeconds(2));
            if (leader >= 0) return leader;
        }
        return -1;
    }

    private void drop(int partition) {
        RawClient c = connections.remove(partition);
        if (c != null) c.close();
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.interrupt();
        thread.join(5_000);
        connections.values().forEach(RawClient::close);
    }
}
