package io.fastccs.client.internal;

import io.fastccs.client.FastCcsException;
import io.fastccs.client.InvalidRequestException;
import io.fastccs.client.PartitionUnavailableException;
import io.fastccs.client.ProtocolException;
import io.fastccs.client.WriteOutcome;
import io.fastccs.client.WriteResult;
import io.fastccs.client.WriteTimeoutException;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.Outgoing;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.spi.WriteStep;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one write-only transaction of a session, whatever its protocol: sends the {@link WriteStep}'s requests (for
 * FastCCS one to every participant; for Wren a start round, then the commit request) and feeds the replies back,
 * sending what a reply calls for next. It succeeds once the step is confirmed (FastCCS: every participant confirmed
 * the commit, and the session has adopted the commit clock). A write the nodes aborted fails once every participant
 * has answered (or its request timed out): a participant that refused it, as one refuses an operation of another type
 * than its key's, answers with the reason, which the failure then carries ({@link InvalidRequestException}), while
 * the abort that refusal caused may reach the client first, from another participant. A write the nodes aborted for no
 * reason they gave had no effect: {@link #run} runs it again, as a new transaction, until the request timeout.
 *
 * <p>Nothing is sent until every partition of the first requests has a connection; while one has none, the execution
 * checks again after a short backoff until the request timeout from its start, then fails with
 * {@link PartitionUnavailableException} (nothing was sent). A request that was not taken, because it could not be
 * sent or was refused with {@code NOT_LEADER} (a replicated partition's failover; nothing was done), is sent to that
 * partition again in the same way ({@link RetryingSender.Retry#WHEN_NOTHING_DONE}); if it never is taken, that
 * participant never votes, the write is aborted for sure and fails with {@link PartitionUnavailableException}.
 *
 * <p>A request that may have been taken is never sent again. If a reply does not come in time, or its connection
 * breaks after the request was sent, the execution stops waiting and asks the coordinator for the outcome
 * ({@link WriteStep#queryOutcome()}); that query is idempotent, so it is retried like a read until a request timeout
 * from when it was first sent, and follows the coordinator's group to its new leader after a failover. The write then
 * fails with a {@link WriteTimeoutException} carrying the coordinator's answer (UNKNOWN at once for a protocol that
 * cannot be asked, as eventual), and unless that answer is "aborted" the session is marked in doubt. All state
 * changes happen under the session's lock; the result is completed outside.
 */
final class WriteExecution extends TransactionExecution<WriteResult> {
    private enum Phase { CONNECTING, WAITING, QUERYING, DONE }

    /** The puts and commutative operations, one per key. */
    private final List<KeyValue> writes;
    /** 1 for the write's first transaction, 2 for the one run after the nodes aborted that, and so on. */
    private final int attempt;
    private WriteStep txn;
    /** The step's first requests, made before checking their partitions are connected. */
    private List<Outgoing> first;
    private Phase phase = Phase.WAITING;
    /** Why the execution stopped waiting for the participants. */
    private FastCcsException lostTrackCause;
    /** The partition asked for the outcome, once asked. */
    private int queried = -1;
    /**
     * The nodes aborted the write and said nothing about why yet: the replies still outstanding are awaited, since a
     * participant that refused the write (a wrong-typed operation, say) answers with the reason, and the abort its
     * refusal caused may reach the client first, from another participant.
     */
    private boolean abortedAwaitingReason;

    private WriteExecution(DefaultCausalSession session, Cluster cluster, RetryingSender sender, DefaultClientMetrics metrics,
                           List<KeyValue> writes, long startNanos, long deadlineNanos, int attempt) {
        super(session, cluster, sender, metrics, startNanos, deadlineNanos);
        this.writes = writes;
        this.attempt = attempt;
    }

    /**
     * Runs the write, as a new transaction again each time the nodes aborted it with no effect (a participant did not
     * vote in time, as while a replicated partition's leader moves, or its coordinator restarted), until the request
     * timeout from now; reported only when that runs out (docs/design/one-round-writes.md, "Writes a moving leader
     * aborted"). What may have had an effect, or was refused for a reason, is never run again.
     */
    static CompletableFuture<WriteResult> run(DefaultCausalSession session, Cluster cluster, RetryingSender sender,
                                              DefaultClientMetrics metrics, List<KeyValue> writes, long startNanos) {
        long deadlineNanos = MonotonicClock.nanoTime() + session.requestTimeout().toNanos();
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<WriteResult> done = sender.runAgainWhile(
                () -> new WriteExecution(session, cluster, sender, metrics, writes, startNanos, deadlineNanos,
                        attempts.incrementAndGet()).start(),
                deadlineNanos, WriteExecution::abortedWithNoEffect, metrics::writeRunAgain);
        return done.whenComplete((w, failure) -> {
            if (failure == null) metrics.writes().succeeded(startNanos);
            else metrics.writes().failed(Failures.unwrap(failure));
        });
    }

    /** The nodes aborted the write and no participant refused it: it had no effect and may run again. */
    private static boolean abortedWithNoEffect(Throwable failure) {
        return failure instanceof WriteTimeoutException e && e.outcome() == WriteOutcome.ABORTED;
    }

    private CompletableFuture<WriteResult> start() {
        synchronized (session.lock()) {
            send();
        }
        publishIfDone();
        return result;
    }

    private void send() {
        txn = session.protocol().write(writes, ThreadLocalRandom.current());
        first = txn.start();
        // Refuse up front what would be refused half-way: nothing is sent unless every target is connected.
        TreeSet<Integer> targets = new TreeSet<>();
        for (Outgoing o : first) targets.add(o.partition());
        for (int p : targets) {
            if (!cluster.isConnected(p)) {
                phase = Phase.CONNECTING;
                sender.awaitConnected(targets, deadlineNanos).whenComplete(this::onConnected);
                return;
            }
        }
        sendRequests();
    }

    private void onConnected(Void ignored, Throwable error) {
        synchronized (session.lock()) {
            if (phase == Phase.CONNECTING) {
                if (error == null) {
                    sendRequests();
                } else if (Failures.unwrap(error) instanceof PartitionUnavailableException e) {
                    finish(new PartitionUnavailableException(e.partition(), "no connection to partition " + e.partition()
                            + " within " + session.requestTimeout() + "; the write was not sent"));
                } else {
                    finish(Failures.asFastCcs(error));
                }
            }
        }
        publishIfDone();
    }

    private void sendRequests() {
        phase = Phase.WAITING;
        sendMore(first);
    }

    private void sendMore(List<Outgoing> requests) {
        sendAll(requests, () -> phase == Phase.WAITING, RetryingSender.Retry.WHEN_NOTHING_DONE, this::onParticipantReply);
    }

    private void onParticipantReply(long id, int partition, Message m, Throwable error) {
        synchronized (session.lock()) {
            if (phase == Phase.WAITING && outstanding.remove(id) != null) handleParticipantReply(partition, m, error);
        }
        publishIfDone();
    }

    private void handleParticipantReply(int partition, Message m, Throwable error) {
        if (abortedAwaitingReason) {
            if (error == null && m instanceof ErrorReply refusal) finishRefused(refusal, partition);
            else if (outstanding.isEmpty()) finishAborted();
            return;
        }
        if (error != null && Failures.unwrap(error) instanceof NotSentException) {
            // Never taken by this participant, so it never votes: the coordinator cannot commit.
            finish(new PartitionUnavailableException(partition, "no connection to partition " + partition + " within "
                    + session.requestTimeout() + "; the write was not sent there and cannot commit"));
            return;
        }
        if (error != null) {
            lostTrack(failure(error, partition));
            return;
        }
        if (!(m instanceof ClientResponse response)) {
            lostTrack(new ProtocolException("partition " + partition + " answered a write with " + m));
            return;
        }
        List<Outgoing> next;
        try {
            next = txn.onResponse(response);
        } catch (RuntimeException e) {
            // A reply the state machine could not digest (say, a clock of the wrong size): ask, never hang.
            lostTrack(new ProtocolException("partition " + partition + " sent a reply the write could not use: " + e, e));
            return;
        }
        if (txn.isFinished()) settle(partition);
        else if (!next.isEmpty()) sendMore(next);
    }

    private void settle(int lastPartition) {
        if (txn.isConfirmed()) {
            long[] clock = clockArray(txn);
            finish(new DefaultWriteResult(txn.txnId().toString(), writes.size(),
                    partitionsOwning(keys()), clock != null ? clock : new long[0], txn.commitTime()));
            return;
        }
        ErrorReply refusal = txn.failure();
        if (txn.outcome() == Outcome.ABORTED) {
            if (refusal != null) finishRefused(refusal, lastPartition);
            else if (!outstanding.isEmpty()) abortedAwaitingReason = true; // a refusal may still say why
            else finishAborted();
            return;
        }
        // Someone said committed, yet the transaction ended without every confirmation: ask for the outcome.
        lostTrack(refusal != null ? Failures.fromErrorReply(refusal, lastPartition)
                : new ProtocolException("write " + txn.txnId() + " ended without an outcome"));
    }

    private List<Key> keys() {
        List<Key> keys = new ArrayList<>(writes.size());
        for (KeyValue kv : writes) keys.add(kv.key());
        return keys;
    }

    /** A participant refused the write before it prepared, so it never voted: the coordinator aborted it. */
    private void finishRefused(ErrorReply refusal, int partition) {
        if (refusal.code() == ErrorCode.NOT_OWNER) cluster.requestRingRefresh();
        finish(Failures.fromErrorReply(refusal, partition));
    }

    /** The nodes aborted the write and no participant said why. */
    private void finishAborted() {
        finish(new WriteTimeoutException("the nodes aborted write " + txn.txnId() + " (a participant did not "
                + "vote in time, or its coordinator restarted); it had no effect"
                + (attempt > 1 ? " (attempt " + attempt + ", each earlier one aborted too)" : ""), WriteOutcome.ABORTED,
                txn.txnId().toString(), coordinator(), null, 0, null));
    }

    private FastCcsException failure(Throwable error, int partition) {
        Throwable t = Failures.unwrap(error);
        if (t instanceof RequestTimedOutException)
            return new PartitionUnavailableException(partition, "partition " + partition + " did not confirm within "
                    + session.requestTimeout());
        return Failures.asFastCcs(t);
    }

    /** Stops waiting for the participants and asks the coordinator what became of the transaction. */
    private void lostTrack(FastCcsException cause) {
        cancelOutstanding();
        phase = Phase.QUERYING;
        lostTrackCause = cause;
        Outgoing query = txn.queryOutcome();
        if (query == null) {
            // The protocol has nobody to ask (eventual: a write is applied wherever it arrived).
            concludeUnconfirmed(WriteOutcome.UNKNOWN, session.protocolWord() + " has no coordinator to ask for the outcome");
            return;
        }
        queried = query.partition();
        long id = query.request().requestId();
        long queryDeadline = MonotonicClock.nanoTime() + session.requestTimeout().toNanos();
        sender.send(query.partition(), id, Frames.encode(query.request()), queryDeadline,
                RetryingSender.Retry.WHEN_UNAVAILABLE, this::isQuerying).whenComplete((m, e) -> onOutcome(m, e));
    }

    private boolean isQuerying() {
        synchronized (session.lock()) {
            return phase == Phase.QUERYING;
        }
    }

    private void onOutcome(Message m, Throwable error) {
        synchronized (session.lock()) {
            if (phase == Phase.QUERYING) {
                if (error != null) {
                    concludeUnconfirmed(WriteOutcome.UNKNOWN, coordinatorSays("could not be asked (" + Failures.unwrap(error).getMessage() + ")"));
                } else {
                    // Only an answer to the query is fed to the transaction: a refused query says nothing about the outcome.
                    Outcome said = m instanceof ClientResponse r ? txn.onOutcomeAnswer(r) : null;
                    if (said == null) {
                        concludeUnconfirmed(WriteOutcome.UNKNOWN, coordinatorSays("answered " + m));
                    } else {
                        WriteOutcome known = switch (said) {
                            case COMMITTED -> WriteOutcome.COMMITTED_UNCONFIRMED;
                            case ABORTED -> WriteOutcome.ABORTED;
                            case UNDECIDED -> WriteOutcome.UNKNOWN;
                        };
                        concludeUnconfirmed(known, coordinatorSays("says " + said));
                    }
                }
            }
        }
        publishIfDone();
    }

    /** "its coordinator, partition P, {@code answer}". */
    private String coordinatorSays(String answer) {
        int coordinator = coordinator();
        return "its coordinator" + (coordinator >= 0 ? ", partition " + coordinator + "," : "") + " " + answer;
    }

    /** Fails the write with what is known of its outcome; {@code answer} says who said so. */
    private void concludeUnconfirmed(WriteOutcome known, String answer) {
        String id = txn.txnId().toString();
        WriteTimeoutException e = new WriteTimeoutException("write " + id + " was not confirmed by every participant ("
                + lostTrackCause.getMessage() + "); " + answer, known, id, coordinator(),
                known == WriteOutcome.COMMITTED_UNCONFIRMED ? clockArray(txn) : null,
                known == WriteOutcome.COMMITTED_UNCONFIRMED ? txn.commitTime() : 0, lostTrackCause);
        if (known != WriteOutcome.ABORTED) {
            metrics.writeUnconfirmed();
            session.markInDoubt(e);
        }
        finish(e);
    }

    /** The partition that decides the outcome: the write's coordinator if it names one, else the one asked; -1 if unknown. */
    private int coordinator() {
        return txn.coordinator() >= 0 ? txn.coordinator() : queried;
    }

    /** The write's commit clock as an array; null for none or for a protocol whose commits carry none. */
    private static long[] clockArray(WriteStep txn) {
        return txn.commitClock() == null ? null : txn.commitClock().toArray();
    }


    @Override
    void finish(Object writeResultOrFailure) {
        phase = Phase.DONE;
        super.finish(writeResultOrFailure);
    }

    /** Recorded once per write by {@link #run}, not per attempt. */
    @Override
    void recordSuccess(WriteResult w) {
    }

    @Override
    void recordFailure(Throwable failure) {
    }
}
