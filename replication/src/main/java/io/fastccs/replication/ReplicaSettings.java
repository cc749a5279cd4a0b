package io.fastccs.replication;

import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import java.time.Duration;

/**
 * How the groups on a node run.
 *
 * @param electionTimeoutMin a follower that hears no leader for a random time in [min, max] starts an election; leader
 *                           leases last a little less than min
 * @param requestTimeout     how long an append may wait before it fails
 * @param snapshotEvery      a member snapshots its applier after this many entries and drops the log before it
 * @param tls                null for plaintext; else mutual TLS on the consensus port: a member presents its key and
 *                           accepts only peers whose certificate the trust manager trusts (the ring's)
 */
public record ReplicaSettings(Duration electionTimeoutMin, Duration electionTimeoutMax, Duration requestTimeout,
                              long snapshotEvery, Tls tls) {
    /** 1 to 2 s elections: a loaded 2-core machine must not depose healthy leaders on a GC pause. */
    public static final ReplicaSettings DEFAULT = new ReplicaSettings(Duration.ofSeconds(1), Duration.ofSeconds(2),
            Duration.ofSeconds(10), 100_000, null);

    /** The node's identity and the certificates it trusts, as Cassandra's internode encryption has them. */
    public record Tls(KeyManager keyManager, TrustManager trustManager) {
    }

    public ReplicaSettings {
        if (electionTimeoutMin.isNegative() || electionTimeoutMin.isZero() || electionTimeoutMax.compareTo(electionTimeoutMin) < 0)
            throw new IllegalArgumentException("the election timeout range " + electionTimeoutMin + ".." + electionTimeoutMax + " is not a range");
        if (snapshotEvery < 1) throw new IllegalArgumentException("snapshotEvery must be >= 1");
    }

    public ReplicaSettings withSnapshotEvery(long entries) {
        return new ReplicaSettings(electionTimeoutMin, electionTimeoutMax, requestTimeout, entries, tls);
    }

    public ReplicaSettings withElectionTimeout(Duration min, Duration max) {
        return new ReplicaSettings(min, max, requestTimeout, snapshotEvery, tls);
    }

    public ReplicaSettings withTls(Tls on) {
        return new ReplicaSettings(electionTimeoutMin, electionTimeoutMax, requestTimeout, snapshotEvery, on);
    }
}
