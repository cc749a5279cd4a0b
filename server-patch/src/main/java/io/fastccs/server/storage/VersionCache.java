package io.fastccs.server.storage;

import io.fastccs.core.primitives.Key;
import io.fastccs.protocol.primitives.Version;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The full, newest-first version lists of the most recently used keys, evicting the least recently used key
 * beyond {@code capacity}. Lists are immutable, so a list handed out stays valid while the cache moves on.
 * Not thread safe: only the protocol thread uses it.
 */
final class VersionCache {
    private final LinkedHashMap<Key, List<Version>> lists;

    VersionCache(int capacity) {
        if (capacity < 1) throw new IllegalArgumentException("version cache capacity must be at least 1, got " + capacity);
        // Access order: get() moves the entry to the tail, which allocates nothing.
        this.lists = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, List<Version>> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The key's cached list, or null when the key is not cached. */
    List<Version> get(Key key) {
        return lists.get(key);
    }

    void put(Key key, List<Version> versions) {
        lists.put(key, versions);
    }

    int size() {
        return lists.size();
    }
}
