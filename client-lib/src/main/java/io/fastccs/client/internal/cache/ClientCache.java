package io.fastccs.client.internal.cache;

import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.KeyType;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.spi.PartitionAnswer;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The versions one client read, shared by all its sessions (docs/design/client-cache.md): at most {@code maxEntries}
 * entries and {@code maxBytes}, the least read evicted first, each served until its lease ends. Which entries a read
 * may combine is {@link CachedSnapshot}'s rule; this class only keeps them. Time comes from the injected clock.
 */
public final class ClientCache {
    public static final int DEFAULT_MAX_ENTRIES = 100_000;
    public static final long DEFAULT_MAX_BYTES = 64L << 20;
    /** Read counts are halved every this many key reads per entry the cache may hold. */
    private static final int READS_PER_AGING_PER_ENTRY = 16;
    /** Keys whose rates are kept, per entry the cache may hold, before aging forgets the rarely read ones. */
    private static final int TRACKED_KEYS_PER_ENTRY = 4;

    private final long maxStalenessNanos;
    private final int maxEntries;
    private final long maxBytes;
    private final LongSupplier nanoClock;

    private final Map<Key, CachedVersion> entries = new HashMap<>();
    private final Map<Key, KeyRates> rates = new HashMap<>();
    /** Held keys by how often they were read, least first, then the longest held: what eviction takes. */
    private final TreeSet<Key> byReads = new TreeSet<>(Comparator.<Key>comparingLong(k -> rates.get(k).reads)
            .thenComparingLong(k -> entries.get(k).fetchedAtNanos()).thenComparing(Comparator.naturalOrder()));
    private long bytes;
    private long readsSinceAging;

    private final LongAdder keysServed = new LongAdder();
    private final LongAdder zeroRoundReads = new LongAdder();
    private final LongAdder partialHits = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    /** Microseconds since served entries were fetched. */
    private final ConcurrentHistogram servedAge = new ConcurrentHistogram(3);

    /** @param maxStalenessNanos the longest lease; 0 turns the cache off */
    public ClientCache(long maxStalenessNanos, int maxEntries, long maxBytes, LongSupplier nanoClock) {
        if (maxStalenessNanos < 0) throw new IllegalArgumentException("negative staleness bound " + maxStalenessNanos);
        if (maxEntries < 1 || maxBytes < 1) throw new IllegalArgumentException("cache bounds " + maxEntries + " entries, " + maxBytes + " bytes");
        this.maxStalenessNanos = maxStalenessNanos;
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.nanoClock = nanoClock;
    }

    public boolean enabled() {
        return maxStalenessNanos > 0;
    }

    public long nowNanos() {
        return nanoClock.getAsLong();
    }

    /** The entries held for {@code keys} whose lease is on; counts the reads (rates and what eviction keeps). */
    public synchronized Map<Key, CachedVersion> lookup(Collection<Key> keys) {
        Map<Key, CachedVersion> found = new HashMap<>();
        if (!enabled()) return found;
        long now = nowNanos();
        for (Key k : keys) {
            boolean held = entries.containsKey(k);
            if (held) byReads.remove(k);
            rates.computeIfAbsent(k, x -> new KeyRates()).onRead(now);
            CachedVersion e = entries.get(k);
            if (e != null && !e.leaseActive(now)) {
                remove(k);
                held = false;
            } else if (e != null) {
                found.put(k, e);
            }
            if (held) byReads.add(k);
        }
        readsSinceAging += keys.size();
        // Also when many keys were read once each (a scan): their rates would otherwise pile up until the next aging.
        if (readsSinceAging >= (long) READS_PER_AGING_PER_ENTRY * maxEntries
                || rates.size() > (long) TRACKED_KEYS_PER_ENTRY * maxEntries) age();
        return found;
    }

    /**
     * Enters a version a read returned (see {@link CachedVersion} for the fields), with a lease from the key's rates.
     * Not kept: a typed key's fold (only plain values are argued in the note), a value too large for a quarter of the
     * byte bound, and an answer whose commit clock the known read clock does not cover (the client knows the
     * partition's own entry of that clock only from below).
     */
    public synchronized void put(ReadValue value, int partition, VectorClock commitClock, long commitTime,
                                 VectorClock newestUpTo, long partitionTime) {
        if (!enabled() || value.type() != KeyType.REGISTER || !commitClock.leq(newestUpTo)) return;
        long now = nowNanos();
        Key k = value.key();
        KeyRates r = rates.computeIfAbsent(k, x -> new KeyRates());
        r.onFetched(value.sequence(), now);
        long lease = LeaseModel.idealLease(r.readMeanNanos(), r.writeMeanNanos(), maxStalenessNanos);
        CachedVersion e = new CachedVersion(value, partition, commitClock, commitTime, newestUpTo, partitionTime, now, now + lease);
        if (entries.containsKey(k)) remove(k);
        if (lease <= 0 || e.bytes() > maxBytes / 4) return;
        entries.put(k, e);
        byReads.add(k);
        bytes += e.bytes();
        while (entries.size() > maxEntries || bytes > maxBytes) {
            remove(byReads.first());
            evictions.increment();
        }
    }

    /** Forgets every entry (the ring changed, or the client closes). */
    public synchronized void clear() {
        entries.clear();
        byReads.clear();
        bytes = 0;
    }

    /** Enters every plain value of a read's partition answers. */
    public void putAll(List<PartitionAnswer> answers) {
        for (PartitionAnswer a : answers)
            for (ReadValue v : a.values())
                put(v, a.partition(), a.maxCommitClock(), a.maxCommitTime(), a.readAt(), a.roundOneTime());
    }

    /** Records what a read was served, for the metrics. */
    public void recordServed(CachedSnapshot.Choice choice, long nowNanos) {
        if (choice.served().isEmpty()) return;
        keysServed.add(choice.served().size());
        if (choice.fullHit()) zeroRoundReads.increment();
        else partialHits.increment();
        for (CachedVersion e : choice.served().values())
            servedAge.recordValue(Math.max(0, (nowNanos - e.fetchedAtNanos()) / 1_000));
    }

    private void remove(Key k) {
        byReads.remove(k);
        CachedVersion e = entries.remove(k);
        if (e != null) bytes -= e.bytes();
    }

    /** Halves every read count; forgets the rates of keys no longer held and no longer read. */
    private void age() {
        readsSinceAging = 0;
        byReads.clear();
        rates.values().forEach(KeyRates::age);
        rates.entrySet().removeIf(x -> x.getValue().reads == 0 && !entries.containsKey(x.getKey()));
        byReads.addAll(entries.keySet());
    }

    public synchronized int size() {
        return entries.size();
    }

    public synchronized long bytes() {
        return bytes;
    }

    /** Keys whose read and write rates are kept. */
    synchronized int trackedKeys() {
        return rates.size();
    }

    /** Keys served from the cache. */
    public long keysServed() {
        return keysServed.sum();
    }

    public long zeroRoundReads() {
        return zeroRoundReads.sum();
    }

    /** Reads that served some keys and fetched others. */
    public long partialHits() {
        return partialHits.sum();
    }

    /** Entries removed to keep within the bounds. */
    public long evictions() {
        return evictions.sum();
    }

    /** A copy of the served entries' ages, in microseconds. */
    public Histogram servedAge() {
        return servedAge.copy();
    }
}
