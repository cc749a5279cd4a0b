package io.fastccs.client.internal;

import io.fastccs.client.ClientMetrics;
import io.fastccs.client.LatencySnapshot;
import io.fastccs.client.internal.cache.ClientCache;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/** The client's metrics; the recording methods are called by sessions, transactions and the cluster. */
final class DefaultClientMetrics implements ClientMetrics {
    private final DefaultOperationMetrics reads = new DefaultOperationMetrics();
    private final DefaultOperationMetrics writes = new DefaultOperationMetrics();
    private final LongAdder readRounds = new LongAdder();
    private final LongAdder twoRoundReads = new LongAdder();
    private final LongAdder snapshotRestarts = new LongAdder();
    private final LongAdder unconfirmedWrites = new LongAdder();
    private final LongAdder reconnects = new LongAdder();
    private final LongAdder ringRefreshes = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder writesRunAgain = new LongAdder();
    private volatile IntSupplier connectedPartitions = () -> 0;
    /** Counts what it served itself. */
    private final ClientCache cache;

    DefaultClientMetrics(ClientCache cache) {
        this.cache = cache;
    }

    ClientCache cache() {
        return cache;
    }

    void connectedPartitionsFrom(IntSupplier supplier) {
        connectedPartitions = supplier;
    }

    void readSucceeded(long startNanos, int rounds) {
        reads.succeeded(startNanos);
        readRounds.add(rounds);
        if (rounds >= 2) twoRoundReads.increment();
    }

    void snapshotRestarted() {
        snapshotRestarts.increment();
    }

    void writeUnconfirmed() {
        unconfirmedWrites.increment();
    }

    void reconnected() {
        reconnects.increment();
    }

    void ringRefreshed() {
        ringRefreshes.increment();
    }

    void retried() {
        retries.increment();
    }

    void writeRunAgain() {
        writesRunAgain.increment();
    }

    @Override
    public DefaultOperationMetrics reads() {
        return reads;
    }

    @Override
    public DefaultOperationMetrics writes() {
        return writes;
    }

    @Override
    public long readRounds() {
        return readRounds.sum();
    }

    @Override
    public long twoRoundReads() {
        return twoRoundReads.sum();
    }

    @Override
    public double secondRoundShare() {
        long ok = reads.successes();
        return ok == 0 ? 0 : Math.min(1.0, (double) twoRoundReads() / ok);
    }

    @Override
    public long snapshotRestarts() {
        return snapshotRestarts.sum();
    }

    @Override
    public long unconfirmedWrites() {
        return unconfirmedWrites.sum();
    }

    @Override
    public long reconnects() {
        return reconnects.sum();
    }

    @Override
    public long ringRefreshes() {
        return ringRefreshes.sum();
    }

    @Override
    public long retries() {
        return retries.sum();
    }

    @Override
    public long writesRunAgain() {
        return writesRunAgain.sum();
    }

    @Override
    public long cacheHits() {
        return cache.keysServed();
    }

    @Override
    public long zeroRoundReads() {
        return cache.zeroRoundReads();
    }

    @Override
    public long partialCacheHits() {
        return cache.partialHits();
    }

    @Override
    public long cacheEvictions() {
        return cache.evictions();
    }

    @Override
    public LatencySnapshot cacheServedAge() {
        return new DefaultOperationMetrics.HdrLatencySnapshot(cache.servedAge());
    }

    @Override
    public int connectedPartitions() {
        return connectedPartitions.getAsInt();
    }

    @Override
    public String toString() {
        return "reads{" + reads + "} writes{" + writes + "} readRounds=" + readRounds() + " twoRoundReads=" + twoRoundReads()
                + " snapshotRestarts=" + snapshotRestarts() + " unconfirmedWrites=" + unconfirmedWrites()
                + " reconnects=" + reconnects() + " ringRefreshes=" + ringRefreshes() + " retries=" + retries() + " writesRunAgain=" + writesRunAgain()
                + " cacheHits=" + cacheHits() + " zeroRoundReads=" + zeroRoundReads() + " partialCacheHits=" + partialCacheHits()
                + " cacheEvictions=" + cacheEvictions() + " connected=" + connectedPartitions();
    }
}
