package io.fastccs.protocol.messages;

import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.primitives.TxnId;

import java.util.List;

/**
 * A participant's vote: the sequence number it assigned to the transaction (algorithm 2, line 26) and the commit time
 * it proposes, both saved durably in its prepare before the vote leaves. It repeats the participant list so a
 * coordinator that has not yet received its own {@link WriteRequest} knows whom to abort if it times out. Also the
 * answer to a {@link StatusQuery} by a participant that holds the transaction's prepare.
 */
public record Prepared(TxnId txnId, int from, long sequence, List<Integer> participants, long proposedTime)
        implements PeerMessage {
    public Prepared {
        participants = List.copyOf(participants);
    }
}
