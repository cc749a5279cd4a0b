package io.fastccs.protocol.messages;

import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.primitives.TxnId;

import java.util.List;

/**
 * A participant's vote against a write it refused before preparing it (an operation of the wrong type for its key),
 * or its answer to a {@link StatusQuery} about a transaction it holds nothing of, once its fence is durable:
 * the coordinator aborts the transaction at once instead of waiting out the transaction timeout while the other
 * participants hold their prepared records.
 */
public record Refused(TxnId txnId, int from, List<Integer> participants) implements PeerMessage {
    public Refused {
        participants = List.copyOf(participants);
    }
}
