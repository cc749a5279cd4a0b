package io.fastccs.core.spi;

import io.fastccs.core.Outgoing;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;

import java.util.Collection;
import java.util.List;

/** A write-only transaction as a step machine, like {@link ReadStep}. */
public interface WriteStep {
    TxnId txnId();

    List<Outgoing> start();

    /** Feeds one response; returns the requests to send next (often none). */
    List<Outgoing> onResponse(ClientResponse response);

    boolean isFinished();

    /** Finished and known committed: the client may count the write as acknowledged. */
    boolean isConfirmed();

    /** What the client knows of the outcome so far ({@link Outcome#UNDECIDED} until it knows). */
    Outcome outcome();

    /**
     * Where the write sits in the protocol's arbitration order once committed (a FastCCS {@code CommitOrder}, an Eiger or
     * Wren timestamp), compared with {@link ProtocolFactory#arbitration()}; null while unknown.
     */
    Object commitStamp();

    /** The partition that decides the outcome, if the protocol names one from the start (a coordinator); else -1. */
    default int coordinator() {
        return -1;
    }

    /** The partitions the write touches, if the protocol names them from the start; else empty. */
    default List<Integer> participants() {
        return List.of();
    }

    /** The commit's vector clock once committed, for protocols whose commits carry one; else null. */
    default VectorClock commitClock() {
        return null;
    }

    /** The commit's time once committed, for protocols whose commits carry a vector clock; else 0. */
    default long commitTime() {
        return 0;
    }

    /** Why it failed, or null. */
    ErrorReply failure();

    /**
     * A request that asks for the outcome when the client lost track of it (its reply was lost), or null when the
     * protocol cannot be asked; its response goes to {@link #onResponse}.
     */
    Outgoing queryOutcome();

    /**
     * Feeds {@code answer}, the response to a request of {@link #queryOutcome()}, and returns what it says of the
     * outcome: {@link Outcome#COMMITTED} or {@link Outcome#ABORTED} once the coordinator decided, {@link Outcome#UNDECIDED}
     * while it has not, or null when the response is no answer to the query (a refusal, another transaction's reply),
     * which is then not fed. Unlike {@link #outcome()} it reports this answer alone, not what earlier responses said.
     *
     * <p>The default feeds any response but an {@link ErrorReply} (a refused query says nothing of the outcome) to
     * {@link #onResponse} and reports {@link #outcome()}: right for protocols whose outcome stays undecided until the
     * coordinator's answer.
     */
    default Outcome onOutcomeAnswer(ClientResponse answer) {
        if (answer instanceof ErrorReply) return null;
        onResponse(answer);
        return outcome();
    }

    /**
     * How many rounds of requests the write sends before the one that carries its writes (Wren's START round: 1; 0 when
     * {@link #start()} already sends the writes). A host that simulates a client dying in the middle of a write lets
     * it live through these rounds, so that it dies while the writes are on their way.
     */
    default int roundsBeforeWrites() {
        return 0;
    }

    /**
     * For a protocol without atomic commit, whose outcomes nobody can be asked ({@link #queryOutcome()} is null): settles
     * the outcome of a write whose client lost track of it from the answers its participants gave to its requests, as
     * an observer outside the system saw them, whether or not they reached the client. Returns whether it settled it
     * ({@link #outcome()} and {@link #commitStamp()} then tell how); protocols that settle their outcomes themselves
     * return false.
     */
    default boolean settleFromAnswers(Collection<ClientResponse> participantAnswers) {
        return false;
    }
}
