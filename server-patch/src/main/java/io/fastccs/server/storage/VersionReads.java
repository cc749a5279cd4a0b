package io.fastccs.server.storage;

import io.fastccs.core.primitives.Key;
import io.fastccs.protocol.primitives.Version;
import org.apache.cassandra.utils.JVMStabilityInspector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A store's version lists in memory: an LRU cache of whole lists ({@link VersionCache}), which the store keeps up to
 * date on every write, and the loading of missing lists off the protocol thread. A miss reads the key's rows and
 * replays the key's changes that are not applied yet ({@link PendingWrites}), so a read sees every write made through
 * the store (docs/design/cache-misses.md, "The loaded list equals what a synchronous read would give at install time").
 *
 * <p>Protocol thread only, but for the counters (read from any thread) and what the loader threads run.
 */
final class VersionReads {
    private static final Logger logger = LoggerFactory.getLogger(VersionReads.class);

    /** A key being read off the protocol thread, and every change to it issued since its unapplied ones were taken. */
    private static final class Loading {
        final List<VersionChange> changes;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Loading(List<VersionChange> unapplied) {
            this.changes = new ArrayList<>(unapplied);
        }
    }

    private final int self;
    private final StoreRows rows;
    private final PendingWrites pending;
    private final VersionCache cache;
    private final ThreadPoolExecutor loaders;
    /** Keys being loaded off the protocol thread (protocol thread only). */
    private final Map<Key, Loading> loading = new HashMap<>();
    /** Where loaded lists rejoin: the protocol thread, set by the host ({@link #rejoinOn}); null: load in place. */
    private volatile Executor protocolThread;

    // Written only by the protocol thread; opaque access keeps reads from other threads atomic without fences.
    private final AtomicInteger cachedKeys = new AtomicInteger();
    private final AtomicLong cacheHits = new AtomicLong();
    private final AtomicLong cacheMisses = new AtomicLong();
    private final AtomicLong keysLoaded = new AtomicLong();
    private final AtomicLong synchronousMisses = new AtomicLong();

    VersionReads(int self, StoreRows rows, PendingWrites pending, int cacheCapacity, int loaderThreads, ThreadFactory threads) {
        this.self = self;
        this.rows = rows;
        this.pending = pending;
        this.cache = new VersionCache(cacheCapacity);
        this.loaders = new ThreadPoolExecutor(loaderThreads, loaderThreads, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), threads);
    }

    /** The key's versions, newest first; read synchronously if they are not in memory (counted as a synchronous miss). */
    List<Version> versions(Key key) {
        List<Version> cached = cache.get(key);
        if (cached != null) {
            cacheHits.setOpaque(cacheHits.getPlain() + 1);
            return cached;
        }
        cacheMisses.setOpaque(cacheMisses.getPlain() + 1);
        synchronousMisses.setOpaque(synchronousMisses.getPlain() + 1);
        Loading inFlight = loading.get(key);
        if (inFlight != null) {
            // Read it here after all (the loaded list will find the key cached and step aside).
            List<Version> versions = rows.readVersions(key);
            for (VersionChange change : inFlight.changes) versions = change.applyTo(versions);
            cache(key, versions);
            return versions;
        }
        // Take the unapplied changes before reading: a change missing from that list was applied before the read.
        List<VersionChange> unapplied = pending.unappliedChanges(key);
        List<Version> versions = rows.readVersions(key);
        for (VersionChange change : unapplied) versions = change.applyTo(versions);
        cache(key, versions);
        return versions;
    }

    /** The key's cached list, or null. */
    List<Version> cached(Key key) {
        return cache.get(key);
    }

    void cache(Key key, List<Version> versions) {
        cache.put(key, versions);
        cachedKeys.setOpaque(cache.size());
    }

    /** A change to {@code key} just issued: a list being loaded gets it replayed when it rejoins. */
    void changedWhileLoading(Key key, VersionChange change) {
        Loading inFlight = loading.get(key);
        if (inFlight != null) inFlight.changes.add(change);
    }

    // ---- loading off the protocol thread ----

    void rejoinOn(Executor protocolThread) {
        this.protocolThread = protocolThread;
    }

    boolean versionsInMemory(Key key) {
        if (cache.get(key) != null) return true;
        load(List.of(key)); // for a later pass
        return false;
    }

    List<Key> notInMemory(Collection<Key> keys) {
        List<Key> out = null;
        for (Key key : keys) {
            if (cache.get(key) != null) continue;
            if (out == null) out = new ArrayList<>(keys.size());
            out.add(key);
        }
        return out == null ? List.of() : out;
    }

    /**
     * Reads the keys' version lists on a loader thread and caches them on the protocol thread. The changes not yet
     * applied are taken now, before the read; changes issued while it runs are added as they are issued; on the
     * protocol thread they are all replayed on what was read, in issue order (see {@link VersionChange}). The
     * future completes on the protocol thread, right after the last of these keys is cached, so a task chained on
     * it finds them all in memory. It never completes exceptionally: a key that could not be read is left out,
     * and {@link #versions} reads it again (and reports the error to the request).
     */
    CompletableFuture<Void> load(Collection<Key> keys) {
        if (protocolThread == null) { // no protocol thread to rejoin: read here, as versions() would
            for (Key key : keys) versions(key);
            return CompletableFuture.completedFuture(null);
        }
        List<Key> toRead = new ArrayList<>();
        List<CompletableFuture<Void>> waits = new ArrayList<>();
        for (Key key : keys) {
            if (cache.get(key) != null) continue;
            Loading inFlight = loading.get(key);
            if (inFlight == null) {
                inFlight = new Loading(pending.unappliedChanges(key)); // before the read: see the class comment
                loading.put(key, inFlight);
                toRead.add(key);
            }
            waits.add(inFlight.done);
        }
        if (!toRead.isEmpty()) {
            try {
                loaders.execute(() -> readAndRejoin(toRead));
            } catch (RejectedExecutionException e) {
                for (Key key : toRead) loading.remove(key).done.complete(null); // closing: versions() reads if asked
            }
        }
        if (waits.isEmpty()) return CompletableFuture.completedFuture(null);
        return waits.size() == 1 ? waits.get(0) : CompletableFuture.allOf(waits.toArray(new CompletableFuture[0]));
    }

    private void readAndRejoin(List<Key> keys) {
        Map<Key, List<Version>> read = new HashMap<>();
        for (Key key : keys) {
            try {
                read.put(key, rows.readVersions(key));
            } catch (Throwable t) {
                logger.warn("FastCCS store {}: reading the versions of {} failed; the request will read it again", self, key, t);
                JVMStabilityInspector.inspectThrowable(t);
            }
        }
        protocolThread.execute(() -> install(keys, read));
    }

    private void install(List<Key> keys, Map<Key, List<Version>> read) {
        List<Loading> finished = new ArrayList<>(keys.size());
        for (Key key : keys) {
            Loading l = loading.remove(key);
            if (l == null) continue;
            finished.add(l);
            List<Version> versions = read.get(key);
            if (versions == null || cache.get(key) != null) continue; // failed, or read synchronously meanwhile
            for (VersionChange change : l.changes) versions = change.applyTo(versions);
            cache(key, versions);
            keysLoaded.setOpaque(keysLoaded.getPlain() + 1);
        }
        for (Loading l : finished) l.done.complete(null);
    }

    /** No more loads start: one asked for later completes at once, and {@link #versions} reads the keys if asked. */
    void close() {
        loaders.shutdown();
    }

    // ---- monitoring (any thread) ----

    int cachedKeys() {
        return cachedKeys.getOpaque();
    }

    long cacheHits() {
        return cacheHits.getOpaque();
    }

    long cacheMisses() {
        return cacheMisses.getOpaque();
    }

    long keysLoaded() {
        return keysLoaded.getOpaque();
    }

    long synchronousMisses() {
        return synchronousMisses.getOpaque();
    }
}
