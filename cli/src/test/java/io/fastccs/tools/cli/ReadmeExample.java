package io.fastccs.tools.cli;

import io.fastccs.client.CausalSession;
import io.fastccs.client.CausalToken;
import io.fastccs.client.FastCcsClient;
import io.fastccs.client.FastCcsException;
import io.fastccs.client.ReadResult;
import io.fastccs.client.WriteOutcome;
import io.fastccs.client.WriteResult;
import io.fastccs.client.WriteTimeoutException;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Writes two keys atomically, reads them back, and continues the causal context in another session. */
public class ReadmeExample {
    public static void main(String[] args) {
        // Contact points as HOST:PORT; the default is node 1 of the local cluster (bin/fastccs cluster start).
        System.exit(run(args.length > 0 ? args : new String[] {"127.0.0.1:9142"}));
    }

    static int run(String... nodes) {
        List<InetSocketAddress> contactPoints = new ArrayList<>();
        for (String node : nodes) {
            int colon = node.lastIndexOf(':');
            contactPoints.add(new InetSocketAddress(node.substring(0, colon), Integer.parseInt(node.substring(colon + 1))));
        }
        // One client per cluster, shared by the whole application. Any reachable node is enough: the client learns
        // the others from it and connects to every node.
        try (FastCcsClient client = FastCcsClient.builder()
                .addContactPoints(contactPoints)
                .withRequestTimeout(Duration.ofSeconds(2))
                .build()) {
            // A session is one causal context, e.g. one end user: each transaction sees the earlier ones.
            CausalSession alice = client.session();

            // Two keys in one write-only transaction: every reader sees both or neither.
            try {
                WriteResult w = alice.write(Map.of("alice:status", "online", "alice:seen", "2024-05-01"));
                System.out.println("committed " + w.size() + " keys on " + w.partitionsTouched() + " partition(s)");
            } catch (WriteTimeoutException e) {
                System.err.println("write " + e.transactionId() + " not confirmed in time: " + e.outcome());
                if (e.outcome() == WriteOutcome.ABORTED) return 1; // nothing was written: safe to retry
                // COMMITTED_UNCONFIRMED or UNKNOWN: it may still take effect. The session refuses transactions
                // (SessionInDoubtException) until we accept that they may not see this write:
                alice.continueWithoutUnconfirmedWrite();
            }

            // One causally consistent snapshot, which includes the session's own writes.
            ReadResult r = alice.read("alice:status", "alice:seen", "bob:status");
            System.out.println("alice:status=" + r.getString("alice:status") + " alice:seen=" + r.getString("alice:seen")
                    + " bob:status exists=" + r.exists("bob:status") + " rounds=" + r.rounds());

            // The causal context as text, to hand to another process (an HTTP header, a cookie, a queue message)...
            String token = alice.exportToken().toString();
            // ...which continues it: this session is guaranteed to see alice's write, on any node.
            CausalSession elsewhere = client.session(CausalToken.parse(token));
            System.out.println("resumed " + token + ": alice:status="
                    + elsewhere.read("alice:status").getString("alice:status"));
            return 0;
        } catch (FastCcsException e) {
            // Every client failure is one: no contact point answered, invalid input, a read timeout
            // (ReadTimeoutException: no effect, retry), a partition down (PartitionUnavailableException)...
            System.err.println("FastCCS: " + e.getMessage());
            return 1;
        }
    }
}
