package io.fastccs.protocol.api;

import io.fastccs.protocol.primitives.Key;

/** The partitions and which one owns each key. Partition indexes are 0..partitions()-1 and stable. */
public interface Topology {
    int partitions();

    /** The partition that owns {@code key}. */
    int ownerOf(Key key);
}
