package io.fastccs.protocol.messages;

import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.primitives.TxnId;

/**
 * A participant that prepared long ago asks the coordinator for the outcome (section 3.8). The coordinator
 * answers with {@link Commit} or {@link Abort}, or stays silent while it is still collecting votes.
 */
public record CheckCommit(TxnId txnId, int from) implements PeerMessage {
}
