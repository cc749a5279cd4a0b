package io.fastccs.replication;

import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509KeyManager;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How the groups on a node run.
 *
 * @param electionTimeoutMin a follower that hears no leader for a random time in [min, max] starts an election; leader
 *                           leases last a little less than min
 * @param requestTimeout     how long an append may wait before it fails
 * @param snapshotEvery      a member snapshots its applier after this many entries and drops the log before it
 * @param stepDownBacklog    a member elected leader with more committed entries than this still to apply (and than it
 *                           applies in two longest election timeouts) hands leadership to a follower whose log matches,
 *                           so that a caught-up member leads instead of one that would serve only after applying them
 *                           all; 0 never hands over so
 * @param tls                null for plaintext; else mutual TLS on the consensus port: a member presents its key and
 *                           accepts only peers whose certificate the trust manager trusts (the ring's)
 * @param linkFaults         test only: the members this one's consensus traffic is cut off from; {@link LinkFaults#none()}
 *                           otherwise
 */
public record ReplicaSettings(Duration electionTimeoutMin, Duration electionTimeoutMax, Duration requestTimeout,
                              long snapshotEvery, long stepDownBacklog, Tls tls, LinkFaults linkFaults) {
    /** 1 to 2 s elections: a loaded 2-core machine must not depose healthy leaders on a GC pause. */
    public static final ReplicaSettings DEFAULT = new ReplicaSettings(Duration.ofSeconds(1), Duration.ofSeconds(2),
            Duration.ofSeconds(10), 100_000, 1_000, null, LinkFaults.none());

    /** The node's identity and the certificates it trusts, as Cassandra's internode encryption has them. */
    public record Tls(KeyManager keyManager, TrustManager trustManager) {
        private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
        /** The subject alternative name type of an IP address (RFC 5280, iPAddress). */
        private static final int SAN_IP = 7;

        public Tls {
            if (keyManager == null || trustManager == null)
                throw new IllegalArgumentException("mutual TLS needs both a key manager and a trust manager");
        }

        /**
         * Fails unless this member's certificate names {@code host}, when {@code host} is an IP address, as a subject
         * alternative name. gRPC checks the server's address against its certificate on every connection, so without
         * that name no other member could reach this one and its groups would never elect a leader; better to say so
         * at start. Names other than IP addresses, and key managers that are not X.509 ones, are left to gRPC.
         *
         * @throws IllegalArgumentException naming the certificates found and what to add
         */
        public void requireCertificateNaming(String host) {
            if (!(keyManager instanceof X509KeyManager x509) || !isIpAddress(host)) return;
            InetAddress address;
            try {
                address = InetAddress.getByName(host); // a literal: no look-up
            } catch (UnknownHostException e) {
                return;
            }
            Set<String> seen = new LinkedHashSet<>();
            for (String keyType : List.of("RSA", "EC", "EdDSA", "RSASSA-PSS", "DSA")) {
                String[] aliases = x509.getServerAliases(keyType, null);
                if (aliases == null) continue;
                for (String alias : aliases) {
                    X509Certificate[] chain = x509.getCertificateChain(alias);
                    if (chain == null || chain.length == 0) continue;
                    List<String> ips = ipNames(chain[0]);
                    for (String ip : ips) {
                        try {
                            if (InetAddress.getByName(ip).equals(address)) return;
                        } catch (UnknownHostException e) {
                            // not an address after all: ignore it
                        }
                    }
                    seen.add("'" + alias + "' (" + chain[0].getSubjectX500Principal().getName() + ", IP names " + ips + ")");
                }
            }
            throw new IllegalArgumentException("TLS on the consensus port: this member's certificate must name its address "
                    + host + " as a subject alternative name (gRPC checks the server's address against it), but "
                    + (seen.isEmpty() ? "the key manager holds no server key" : "none does: " + String.join(", ", seen))
                    + "; make the node's certificate with the extension SAN=ip:" + host + " (keytool -ext)");
        }

        private static boolean isIpAddress(String host) {
            return IPV4.matcher(host).matches() || host.indexOf(':') >= 0;
        }

        private static List<String> ipNames(X509Certificate certificate) {
            List<String> ips = new ArrayList<>();
            try {
                Collection<List<?>> names = certificate.getSubjectAlternativeNames();
                if (names != null)
                    for (List<?> name : names)
                        if (name.size() >= 2 && Integer.valueOf(SAN_IP).equals(name.get(0))) ips.add(String.valueOf(name.get(1)));
            } catch (CertificateParsingException e) {
                // an unreadable extension names nothing
            }
            return ips;
        }
    }

    public ReplicaSettings {
        if (electionTimeoutMin.isNegative() || electionTimeoutMin.isZero() || electionTimeoutMax.compareTo(electionTimeoutMin) < 0)
            throw new IllegalArgumentException("the election timeout range " + electionTimeoutMin + ".." + electionTimeoutMax + " is not a range");
        if (snapshotEvery < 1) throw new IllegalArgumentException("snapshotEvery must be >= 1");
        if (stepDownBacklog < 0) throw new IllegalArgumentException("stepDownBacklog must be >= 0");
        Objects.requireNonNull(linkFaults, "linkFaults");
    }

    public ReplicaSettings withSnapshotEvery(long entries) {
        return new ReplicaSettings(electionTimeoutMin, electionTimeoutMax, requestTimeout, entries, stepDownBacklog, tls, linkFaults);
    }

    public ReplicaSettings withElectionTimeout(Duration min, Duration max) {
        return new ReplicaSettings(min, max, requestTimeout, snapshotEvery, stepDownBacklog, tls, linkFaults);
    }

    public ReplicaSettings withTls(Tls on) {
        return new ReplicaSettings(electionTimeoutMin, electionTimeoutMax, requestTimeout, snapshotEvery, stepDownBacklog, on, linkFaults);
    }

    public ReplicaSettings withLinkFaults(LinkFaults faults) {
        return new ReplicaSettings(electionTimeoutMin, electionTimeoutMax, requestTimeout, snapshotEvery, stepDownBacklog, tls, faults);
    }

    public ReplicaSettings withStepDownBacklog(long entries) {
        return new ReplicaSettings(electionTimeoutMin, electionTimeoutMax, requestTimeout, snapshotEvery, entries, tls, linkFaults);
    }
}
