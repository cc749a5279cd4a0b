package io.fastccs.protocol.messages;

import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.primitives.TxnId;

import java.util.List;

/**
 * A participant tells the coordinator the sequence number it assigned to the transaction (algorithm 2, line 26).
 * It repeats the participant list so a coordinator that has not yet received its own {@link WriteRequest}
 * knows whom to abort if it times out.
 */
public record Prepared(TxnId txnId, int from, long sequence, List<Integer> participants) implements PeerMessage {
    public Prepared {
        participants = List.copyOf(participants);
    }
}
