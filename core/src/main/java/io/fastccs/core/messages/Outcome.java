package io.fastccs.core.messages;

/** What became of a write-only transaction. */
public enum Outcome {
    COMMITTED, ABORTED, UNDECIDED
}
