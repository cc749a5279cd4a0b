package io.fastccs.baselines.eiger;

import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.PeerSink;
import io.fastccs.core.api.TimeSource;
import io.fastccs.core.api.Topology;
import io.fastccs.core.api.WriteLog;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;

import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the cohort and the coordinator of one Eiger partition share: the Lamport clock, the version chain and pending
 * marks of each key, the transactions marked pending here, and the host's interfaces.
 */
final class EigerState {
    final int self;
    final PartitionConfig config;
    final Topology topology;
    final PeerSink peers;
    final TimeSource time;
    /** Where prepared and committed writes are made durable (the nodes); nowhere in the simulator. */
    final WriteLog writeLog;
    final Set<EigerBug> bugs;
    final EigerMetrics metrics = new EigerMetrics();

    /** Lamport clock. */
    long clock;
    final TreeMap<Key, KeyState> keys = new TreeMap<>();
    /** Transactions this partition is a cohort of and has marked pending, by id. */
    final TreeMap<TxnId, PendingTxn> pending = new TreeMap<>();

    static final class Version {
        final long stamp;
        final long evt;
        final byte[] value;
        final Key coordKey;
        final long committedAtMicros;

        Version(long stamp, long evt, byte[] value, Key coordKey, long committedAtMicros) {
            this.stamp = stamp;
            this.evt = evt;
            this.value = value;
            this.coordKey = coordKey;
            this.committedAtMicros = committedAtMicros;
        }
    }

    static final class KeyState {
        final TreeMap<Long, Version> versions = new TreeMap<>();
        /** Pending marks: transaction id to pending time. */
        final TreeMap<TxnId, Long> marks = new TreeMap<>();
        /** Versions of this key were collected: reads at times before the oldest kept version cannot be answered. */
        boolean collected;
    }

    static final class PendingTxn {
        final TxnId txnId;
        final int coordinator;
        final Key coordKey;
        final long pendingTime;
        final List<KeyValue> writes;
        final long markedAtMicros;
        long lastCheckMicros;

        PendingTxn(TxnId txnId, int coordinator, Key coordKey, long pendingTime, List<KeyValue> writes, long now) {
            this.txnId = txnId;
            this.coordinator = coordinator;
            this.coordKey = coordKey;
            this.pendingTime = pendingTime;
            this.writes = writes;
            this.markedAtMicros = now;
            this.lastCheckMicros = now;
        }
    }

    EigerState(int self, PartitionConfig config, Topology topology, PeerSink peers, TimeSource time, WriteLog writeLog,
               Set<EigerBug> bugs) {
        this.writeLog = writeLog;
        if (topology.partitions() > Stamps.MAX_PARTITIONS)
            throw new IllegalArgumentException("Eiger stamps hold at most " + Stamps.MAX_PARTITIONS + " partitions, got "
                    + topology.partitions());
        this.self = self;
        this.config = config;
        this.topology = topology;
        this.peers = peers;
        this.time = time;
        this.bugs = bugs;
    }

    void receive(long remote) {
        clock = Math.max(clock, remote) + 1;
    }

    void install(Key k, Version v) {
        keys.computeIfAbsent(k, x -> new KeyState()).versions.put(v.stamp, v);
    }

    void send(int to, PeerMessage m) {
        peers.send(to, m);
    }
}
