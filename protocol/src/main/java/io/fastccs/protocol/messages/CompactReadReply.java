package io.fastccs.protocol.messages;

import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.Payloads;
import io.fastccs.core.messages.ReadValue;
import java.util.List;

/**
 * {@link ReadReply} on the wire, its clocks as differences from the request's clock (which the client has), and the
 * maximum commit clock and the waiting versions' commit clocks raised to it (docs/design/stable-bases.md,
 * "Answers").
 *
 * @param shows the highest sequence number of the answering partition the answer shows (its snapshot's or returned
 *              versions' own entry): what a host holds the answer back for until it is durable
 */
public record CompactReadReply(long requestId, List<ReadValue> values, ClockDiff snapshot, ClockDiff maxCommitClock,
                               long maxCommitTime, long serverTime, List<CompactWaitingVersion> waiting,
                               boolean waitingComplete, long shows, long stableEpoch, Rebase rebase)
        implements ClientResponse {
    public CompactReadReply {
        values = List.copyOf(values);
        waiting = List.copyOf(waiting);
    }

    @Override
    public long payloadBytes() {
        return Payloads.readValuesPayload(values);
    }
}
