package io.fastccs.core.spi;

import io.fastccs.core.messages.ErrorReply;

/** What every protocol's read step keeps once it ends: its values or its error. The protocol adds its rounds. */
public abstract class AbstractReadStep implements ReadStep {
    private ReadResult result;
    private ErrorReply failure;

    /** Ends the read with these values. */
    protected final void succeed(ReadResult result) {
        this.result = result;
    }

    /** Ends the read with this error. */
    protected final void fail(ErrorReply failure) {
        this.failure = failure;
    }

    @Override
    public final boolean isFinished() {
        return result != null || failure != null;
    }

    @Override
    public final boolean succeeded() {
        return result != null;
    }

    @Override
    public final ReadResult result() {
        if (result == null) throw new IllegalStateException("the read has not ended with values");
        return result;
    }

    @Override
    public final ErrorReply failure() {
        return failure;
    }
}
