package io.fastccs.core.api;

import io.fastccs.core.primitives.Key;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** The partitions and which one owns each key. Partition indexes are 0..partitions()-1 and stable. */
public interface Topology {
    int partitions();

    /** The partition that owns {@code key}. */
    int ownerOf(Key key);

    /** {@code keys} grouped by the partition that owns them: partitions in ascending order, keys in the order given. */
    default SortedMap<Integer, List<Key>> byOwner(Collection<Key> keys) {
        SortedMap<Integer, List<Key>> out = new TreeMap<>();
        for (Key k : keys) out.computeIfAbsent(ownerOf(k), p -> new ArrayList<>()).add(k);
        return out;
    }
}
