package io.fastccs.protocol.messages;

import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.primitives.TxnId;

import java.util.List;

/**
 * A coordinator that restarted (or a new leader of its group) with a prepare of its own and no decision asks a
 * participant what it holds of the transaction: the participant answers with its vote ({@link Prepared}) if it holds
 * the prepare, else with {@link Refused}, after writing a fence that keeps it from preparing the transaction later
 * (docs/design/one-round-writes.md, "Recovery is status resolution").
 */
public record StatusQuery(TxnId txnId, int from, List<Integer> participants) implements PeerMessage {
    public StatusQuery {
        participants = List.copyOf(participants);
    }
}
