package io.fastccs.protocol.messages;

/** What became of a write-only transaction. */
public enum Outcome {
    COMMITTED, ABORTED, UNDECIDED
}
