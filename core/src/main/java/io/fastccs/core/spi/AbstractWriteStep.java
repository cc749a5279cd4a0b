package io.fastccs.core.spi;

import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.primitives.TxnId;

/**
 * What every protocol's write step keeps: its id, the outcome the client knows, the commit stamp and the last error.
 * It is finished once the outcome is known or an error ended it.
 */
public abstract class AbstractWriteStep implements WriteStep {
    private final TxnId txnId;
    private Outcome outcome = Outcome.UNDECIDED;
    private Object commitStamp;
    private ErrorReply failure;

    protected AbstractWriteStep(TxnId txnId) {
        this.txnId = txnId;
    }

    /** The client learnt that the write committed at {@code stamp}. */
    protected final void committed(Object stamp) {
        outcome = Outcome.COMMITTED;
        commitStamp = stamp;
    }

    /** The client learnt that the write aborted. */
    protected final void aborted() {
        outcome = Outcome.ABORTED;
    }

    /** Records an error (null forgets an earlier one, once a later answer settled the outcome). */
    protected final void failed(ErrorReply failure) {
        this.failure = failure;
    }

    @Override
    public final TxnId txnId() {
        return txnId;
    }

    @Override
    public final boolean isFinished() {
        return outcome != Outcome.UNDECIDED || failure != null;
    }

    @Override
    public final boolean isConfirmed() {
        return outcome == Outcome.COMMITTED;
    }

    @Override
    public final Outcome outcome() {
        return outcome;
    }

    @Override
    public final Object commitStamp() {
        return commitStamp;
    }

    @Override
    public final ErrorReply failure() {
        return failure;
    }
}
