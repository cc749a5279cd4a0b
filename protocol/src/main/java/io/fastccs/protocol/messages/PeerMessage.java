package io.fastccs.protocol.messages;

/** A message between partitions (algorithm 2 of the thesis, plus fault handling and stabilization). */
public sealed interface PeerMessage extends Message permits Prepared, Commit, Abort, CheckCommit, Stabilize, StabilizeUp, StabilizeDown,
        CompactCommit, Refused, ProtocolPeerMessage {
}
