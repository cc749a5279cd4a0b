package io.fastccs.protocol.messages;

import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.Payloads;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.VectorClock;

import java.util.List;

/**
 * A partition's answer to either read round.
 *
 * @param snapshot the partition's snapshot vector clock {@code svc} after merging the client's clock
 * @param maxCommitClock {@code ctm}: the component-wise maximum of the returned versions' commit clocks
 * @param maxCommitTime the largest commit time of the returned versions (0 if none): the client's next commit is
 *                      stamped above it
 * @param serverTime the partition's time when it served the read, echoed back by a round two
 * @param waiting the versions of the keys read, newer than the ones returned, that the answer left out although their
 *                sequence numbers are within the snapshot's own entry (they wait for another partition's entry of their
 *                commit clocks), newest first per key
 * @param waitingComplete {@code waiting} lists every such version (a partition lists up to about 64 KiB of them): the
 *                        client can then work out what a round two at a clock whose entry for this partition is at most the
 *                        snapshot's would return, and need not ask
 * @param stableEpoch the newest stable base the partition names to clients (0: none, its partitions stabilize
 *                    all-to-all): the client then sends its clock relative to it (docs/design/stable-bases.md, "Stable
 *                    bases")
 */
public record ReadReply(long requestId, List<ReadValue> values, VectorClock snapshot, VectorClock maxCommitClock,
                        long maxCommitTime, long serverTime, List<WaitingVersion> waiting, boolean waitingComplete,
                        long stableEpoch)
        implements ClientResponse {
    public ReadReply {
        values = List.copyOf(values);
        waiting = List.copyOf(waiting);
    }

    /** An answer that names no stable base. */
    public ReadReply(long requestId, List<ReadValue> values, VectorClock snapshot, VectorClock maxCommitClock,
                     long maxCommitTime, long serverTime, List<WaitingVersion> waiting, boolean waitingComplete) {
        this(requestId, values, snapshot, maxCommitClock, maxCommitTime, serverTime, waiting, waitingComplete, 0);
    }

    @Override
    public long payloadBytes() {
        return Payloads.readValuesPayload(values);
    }
}
