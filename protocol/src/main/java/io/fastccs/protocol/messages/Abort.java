package io.fastccs.protocol.messages;

import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.primitives.TxnId;

/** The coordinator's abort decision (section 3.8): the transaction is invisible everywhere, for ever. */
public record Abort(TxnId txnId) implements PeerMessage {
}
