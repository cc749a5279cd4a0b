package io.fastccs.core.wire;

/**
 * Bounds {@link WireCodec#decode(byte[], WireLimits)} enforces, so a hostile or broken peer cannot make a node
 * allocate much more than the frame it sent. Every length a frame claims is also checked against the bytes it
 * actually has before anything is allocated.
 *
 * @param maxFrameBytes     the largest frame accepted
 * @param maxKeysPerMessage the most keys (or writes, or read values) one message may carry
 * @param maxClockEntries   the most entries a vector clock may have, which is also the most partitions a
 *                          participant list may name
 */
public record WireLimits(int maxFrameBytes, int maxKeysPerMessage, int maxClockEntries) {
    /** 16 MiB frames, 65536 keys per message, 65536 clock entries. */
    public static final WireLimits DEFAULT = new WireLimits(16 << 20, 65_536, 65_536);

    public WireLimits {
        if (maxFrameBytes < 1 || maxKeysPerMessage < 0 || maxClockEntries < 1)
            throw new IllegalArgumentException("invalid wire limits: frame " + maxFrameBytes + " B, "
                    + maxKeysPerMessage + " keys, " + maxClockEntries + " clock entries");
    }

    /** The longest list the decoder lets Thrift allocate for; field-specific limits are checked after. */
    int maxContainerLength() {
        return Math.max(maxKeysPerMessage, maxClockEntries);
    }
}
