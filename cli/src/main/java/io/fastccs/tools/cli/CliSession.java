package io.fastccs.tools.cli;

import io.fastccs.client.AuthenticationException;
import io.fastccs.client.CausalSession;
import io.fastccs.client.CausalToken;
import io.fastccs.client.FastCcsClient;
import io.fastccs.client.FastCcsException;
import io.fastccs.client.InvalidRequestException;
import io.fastccs.client.KeyType;
import io.fastccs.client.PartitionUnavailableException;
import io.fastccs.client.ReadResult;
import io.fastccs.client.ReadTimeoutException;
import io.fastccs.client.SessionInDoubtException;
import io.fastccs.client.WriteBuilder;
import io.fastccs.client.WriteResult;
import io.fastccs.client.WriteTimeoutException;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One client and one causal session, with the command-line client's output and exit codes: results on standard
 * output, one-line errors on standard error, each prefixed with what failed ({@code fastccs read}, or the shell's
 * command and line).
 */
final class CliSession implements AutoCloseable {
    static final int OK = 0;
    /** The transaction failed or timed out. */
    static final int FAILED = 1;
    /** Usage or invalid input. */
    static final int USAGE = 2;
    /** The cluster could not be reached. */
    static final int UNREACHABLE = 3;

    static final String START_HINT = "is the cluster running? bin/fastccs cluster start --nodes 3";

    private final FastCcsClient client;
    private final List<InetSocketAddress> contactPoints;
    private final PrintWriter out;
    private final PrintWriter err;
    private CausalSession session;

    private CliSession(FastCcsClient client, List<InetSocketAddress> contactPoints, PrintWriter out, PrintWriter err) {
        this.client = client;
        this.contactPoints = contactPoints;
        this.out = out;
        this.err = err;
    }

    /** Thrown by {@link #connect} with the exit code and the message already printed. */
    static final class NotConnected extends Exception {
        private static final long serialVersionUID = 1L;
        final int exitCode;

        NotConnected(int exitCode) {
            super(null, null, false, false);
            this.exitCode = exitCode;
        }
    }

    /**
     * Connects and opens the session ({@code token}'s context, or a new one).
     *
     * @throws NotConnected after printing why: exit code 3 if no contact point answered or the credentials were
     *                      refused, 2 if the token belongs to another cluster
     */
    static CliSession connect(List<InetSocketAddress> contactPoints, Duration timeout, CausalToken token,
                              String what, PrintWriter out, PrintWriter err) throws NotConnected {
        return connect(contactPoints, timeout, token, CliInput.Security.NONE, what, out, err);
    }

    /** As above, logging in and using TLS as {@code security} says. */
    static CliSession connect(List<InetSocketAddress> contactPoints, Duration timeout, CausalToken token,
                              CliInput.Security security, String what, PrintWriter out, PrintWriter err) throws NotConnected {
        FastCcsClient client;
        try {
            client = security.applyTo(FastCcsClient.builder()).addContactPoints(contactPoints)
                    .withRequestTimeout(timeout).withConnectTimeout(timeout)
                    // One short-lived connection set per invocation: no need for many I/O threads.
                    .withIoThreads(2)
                    .build();
        } catch (AuthenticationException e) {
            err.println(what + ": the cluster at " + describe(contactPoints) + " refused the connection: " + e.getMessage());
            throw new NotConnected(UNREACHABLE);
        } catch (FastCcsException e) {
            err.println(what + ": cannot reach the FastCCS cluster at " + describe(contactPoints) + " (" + reason(e, contactPoints)
                    + "); " + START_HINT);
            throw new NotConnected(UNREACHABLE);
        }
        CliSession s = new CliSession(client, contactPoints, out, err);
        try {
            s.session = token == null ? client.session() : client.session(token);
        } catch (InvalidRequestException e) {
            s.close();
            err.println(what + ": --token: " + e.getMessage());
            throw new NotConnected(USAGE);
        }
        return s;
    }

    /** The number of partitions of the cluster. */
    int partitions() {
        return client.partitions();
    }

    /** The contact points, as {@code host:port, ...}. */
    String contactPointsText() {
        return describe(contactPoints);
    }

    /** Writes {@code pairs} in one transaction; prints {@code committed ...}, or the outcome on a timeout. */
    int write(Map<String, String> pairs, boolean printToken, String what) {
        return write(CliInput.puts(pairs), printToken, what);
    }

    /**
     * Writes {@code operations} in one transaction; prints {@code committed ...}, or the outcome on a timeout. A set
     * remove removes the adds its session has seen, so the keys of set removes are read first: the remove then removes
     * every add of its element visible at that moment.
     */
    int write(List<CliOperation> operations, boolean printToken, String what) {
        WriteResult w;
        try {
            List<String> removedFrom = operations.stream().filter(op -> op.kind() == CliOperation.Kind.SET_REMOVE)
                    .map(CliOperation::key).distinct().toList();
            if (!removedFrom.isEmpty()) session.read(removedFrom);
            WriteBuilder write = session.newWrite();
            for (CliOperation op : operations) op.addTo(write);
            w = write.execute();
        } catch (WriteTimeoutException e) {
            out.println("not confirmed: outcome=" + e.outcome() + " txn=" + e.transactionId());
            err.println(what + ": timed out: " + e.getMessage() + "; " + switch (e.outcome()) {
                case ABORTED -> "the write aborted: none of it took effect, it is safe to retry";
                case COMMITTED_UNCONFIRMED -> "the write committed and will become visible, but not every partition "
                        + "confirmed it in time";
                case UNKNOWN -> "the outcome is unknown: the write may or may not take effect, and retrying may apply "
                        + "it twice";
            });
            return FAILED;
        } catch (FastCcsException e) {
            return failed(e, what);
        }
        out.println("committed keys=" + w.size() + " partitions=" + w.partitionsTouched() + " txn=" + w.transactionId());
        if (printToken) printToken();
        return OK;
    }

    /** Reads {@code keys} in one transaction; prints {@code KEY=VALUE} or {@code KEY (none)} per key, then the rounds. */
    int read(List<String> keys, boolean printToken, String what) {
        ReadResult r;
        try {
            r = session.read(keys);
        } catch (FastCcsException e) {
            return failed(e, what);
        }
        for (String key : keys) out.println(show(r, key));
        out.println("rounds=" + r.rounds() + " partitions=" + r.partitionsTouched());
        if (printToken) printToken();
        return OK;
    }

    /**
     * A key as {@code read} prints it: {@code KEY=VALUE} for a plain key; a typed key's value and its type in
     * parentheses ({@code likes=3 (counter)}, {@code tags={a, b} (set)}, {@code top=[alice=950, bob=900] (top-k)});
     * {@code KEY (none)} for a key without a value.
     */
    static String show(ReadResult r, String key) {
        KeyType type = r.type(key);
        if (type == null) return key + " (none)";
        return key + "=" + switch (type) {
            case REGISTER -> r.getString(key);
            case COUNTER -> r.counter(key) + " (counter)";
            case MAX -> r.max(key).getAsLong() + " (max)";
            case SET -> "{" + String.join(", ", r.set(key)) + "} (set)";
            case TOPK -> r.topk(key) + " (top-k)";
        };
    }

    /** Prints the session's causal token on a line of its own. */
    void printToken() {
        out.println(session.exportToken());
    }

    /**
     * Continues the context of {@code token} as well as this session's own: the session from then on sees
     * everything either had seen (the two vector clocks joined), so its earlier writes stay visible.
     */
    int resume(CausalToken token, String what) {
        CausalToken mine = session.exportToken();
        CausalToken joined = token;
        if (mine.partitions() == token.partitions() && mine.ringFingerprint() == token.ringFingerprint()) {
            long[] a = mine.clock();
            long[] b = token.clock();
            for (int i = 0; i < a.length; i++) a[i] = Math.max(a[i], b[i]);
            joined = CausalToken.of(a, token.ringFingerprint());
        }
        try {
            session = client.session(joined);
        } catch (InvalidRequestException e) {
            err.println(what + ": " + e.getMessage());
            return USAGE;
        }
        out.println("resumed");
        return OK;
    }

    /** Lets a session with an unconfirmed write run transactions again. */
    int continueWithoutUnconfirmedWrite() {
        if (!session.hasUnconfirmedWrite()) {
            out.println("nothing to continue from: the session has no unconfirmed write");
            return OK;
        }
        session.continueWithoutUnconfirmedWrite();
        out.println("continuing; the unconfirmed write may or may not be visible to later commands");
        return OK;
    }

    /** Prints a transaction's failure; the exit code: 2 for refused input, 1 otherwise. */
    private int failed(FastCcsException e, String what) {
        if (e instanceof InvalidRequestException) {
            err.println(what + ": invalid request: " + e.getMessage());
            return USAGE;
        }
        if (e instanceof ReadTimeoutException)
            err.println(what + ": timed out: " + e.getMessage() + "; the read had no effect, try again or raise --timeout");
        else if (e instanceof PartitionUnavailableException p)
            err.println(what + ": failed: " + e.getMessage() + (p.partition() >= 0 ? "; is that node running? "
                    + "(bin/fastccs cluster status)" : ""));
        else if (e instanceof SessionInDoubtException d)
            err.println(what + ": refused: write " + d.unconfirmedWrite().transactionId() + " was not confirmed (outcome "
                    + d.unconfirmedWrite().outcome() + "), so this session cannot promise to see it; type 'continue' to go "
                    + "on without relying on it, or 'resume TOKEN'");
        else
            err.println(what + ": failed: " + e.getMessage());
        return FAILED;
    }

    @Override
    public void close() {
        client.close();
    }

    private static String describe(List<InetSocketAddress> points) {
        return points.stream().map(a -> (a.getAddress() != null && a.getAddress() instanceof java.net.Inet6Address
                        ? "[" + a.getHostString() + "]" : a.getHostString()) + ":" + a.getPort())
                .collect(Collectors.joining(", "));
    }

    /**
     * Why connecting failed, briefly: the innermost cause's message for each contact point tried, after its address
     * when there are several ("127.0.0.1:9142: Connection refused; ..."); the client's own message when it gave none.
     */
    static String reason(FastCcsException e, List<InetSocketAddress> points) {
        Throwable[] failures = e.getSuppressed();
        if (failures.length == 0) return rootMessage(e);
        List<String> reasons = new java.util.ArrayList<>();
        for (int i = 0; i < failures.length; i++)
            reasons.add((failures.length == points.size() && points.size() > 1 ? describe(List.of(points.get(i))) + ": " : "")
                    + rootMessage(failures[i]));
        return String.join("; ", reasons);
    }

    private static String rootMessage(Throwable t) {
        String message = null;
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause())
            if (c.getMessage() != null && !c.getMessage().isBlank()) message = c.getMessage();
            else if (message == null) message = c.getClass().getSimpleName();
        return message;
    }
}
