package io.fastccs.protocol.messages;

import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.primitives.TxnId;

/**
 * {@link Commit} between partitions that stabilize up and down a tree: the commit clock relative to the coordinator's
 * stable base. A participant that does not know that base drops it and learns the outcome by asking
 * ({@link CheckCommit}), as when a commit is lost.
 */
public record CompactCommit(TxnId txnId, BasedClock commitClock, long commitTime) implements PeerMessage {
}
