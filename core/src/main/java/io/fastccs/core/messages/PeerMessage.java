package io.fastccs.core.messages;

/** A message between partitions of one protocol (FastCCS's: algorithm 2 of the thesis, fault handling, stabilization). */
public interface PeerMessage extends Message {
}
