package io.fastccs.client;

import io.fastccs.client.internal.Blocking;

import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * One causal context: a sequence of transactions in which each sees everything the earlier ones wrote or read
 * (read your writes, monotonic reads, writes follow reads), and every read is an atomic, causally consistent
 * snapshot. Get one from {@link FastCcsClient#session()}; sessions are cheap, independent of each other, and
 * should be used one per logical user or request flow. A session holds no connection and needs no closing.
 *
 * <p><b>One transaction at a time.</b> A session runs its transactions one after the other, in the order the
 * calls were made. Calling it from several threads, or issuing several asynchronous calls without waiting, is
 * allowed: later calls are queued behind earlier ones (without a bound, so throttle if you issue many). A failed
 * transaction does not stop the ones queued behind it, except as described next.
 *
 * <p><b>Unconfirmed writes.</b> When a write fails with a {@link WriteTimeoutException} whose outcome is not
 * {@link WriteOutcome#ABORTED}, the write may take effect later, but the session cannot know when, so it cannot
 * promise that its next transactions see it. Rather than silently break read-your-writes, the session then refuses
 * every further transaction with {@link SessionInDoubtException} until {@link #continueWithoutUnconfirmedWrite()}
 * is called; from then on the session's guarantees cover what it confirmed, and the unconfirmed write may or may
 * not be visible to it. (A write known to be aborted leaves the session usable at once.)
 *
 * <p><b>Input.</b> Keys and values are byte strings; the {@code String} forms use UTF-8. Keys must be non-empty
 * and unique within a transaction, values non-empty (FastCCS has no deletes), and both within the limits set on
 * {@link FastCcsClientBuilder}. Invalid input fails with {@link InvalidRequestException} before anything is sent.
 * Besides plain values, {@link #newWrite()} writes counters, max registers, sets and top-k lists, whose concurrent
 * updates add up instead of replacing each other; {@link ReadResult} reads them.
 *
 * <p><b>Protocols.</b> The guarantees above are FastCCS's, the default. A client built
 * {@link FastCcsClientBuilder#withProtocol withProtocol} {@code EIGER} or {@code WREN} runs the same API over those
 * protocols (causally consistent too, with their own read rounds); {@code EVENTUAL} promises nothing beyond
 * convergence: no snapshot, no read-your-writes (it is the baseline of comparisons). Causal tokens
 * ({@link #exportToken()}) exist only with FastCCS.
 *
 * <p>Thread-safe.
 */
public interface CausalSession {
    /**
     * Reads {@code keys} in one read-only transaction.
     *
     * @param keys the keys to read, as UTF-8; non-empty, no duplicates
     * @return a stage completed with the values, or exceptionally with a {@link FastCcsException}
     */
    CompletionStage<ReadResult> readAsync(Collection<String> keys);

    /**
     * Reads binary {@code keys} (compared by content) in one read-only transaction.
     *
     * @param keys the keys to read; non-empty, no two with the same bytes
     * @return a stage completed with the values, or exceptionally with a {@link FastCcsException}
     */
    CompletionStage<ReadResult> readBytesAsync(Collection<byte[]> keys);

    /**
     * Writes every entry of {@code writes} in one write-only transaction: atomically, all or nothing.
     *
     * @param writes keys and values, as UTF-8; non-empty, no empty or null values
     * @return a stage completed once every participant confirmed the commit, or exceptionally with a
     *         {@link FastCcsException}
     */
    CompletionStage<WriteResult> writeAsync(Map<String, String> writes);

    /**
     * Writes binary keys and values in one write-only transaction. Keys are compared by content: two distinct
     * arrays with the same bytes are the same key, which is refused.
     *
     * @param writes keys and values; non-empty, no empty or null values
     * @return a stage completed once every participant confirmed the commit, or exceptionally with a
     *         {@link FastCcsException}
     */
    CompletionStage<WriteResult> writeBytesAsync(Map<byte[], byte[]> writes);

    /**
     * A builder for one write-only transaction of puts and commutative operations: counters, max registers, add-wins
     * sets and top-k ({@link WriteBuilder}); {@link WriteBuilder#execute()} runs it as one transaction of this session.
     *
     * <pre>{@code
     * session.newWrite().put("post:42", "hello").add("likes:42", 1).setAdd("tags:42", "java").execute();
     * }</pre>
     *
     * @return a new, empty builder
     */
    WriteBuilder newWrite();

    /**
     * Reads {@code keys}, waiting for the result.
     *
     * @param keys the keys to read, as UTF-8; non-empty, no duplicates
     * @return the values
     * @throws FastCcsException      if the read failed
     * @throws IllegalStateException if called from one of the client's I/O threads (a callback of an
     *                               asynchronous call), where waiting would deadlock
     */
    default ReadResult read(Collection<String> keys) {
        return Blocking.await(readAsync(keys));
    }

    /**
     * Reads {@code keys}, waiting for the result.
     *
     * @param keys the keys to read, as UTF-8; at least one, no duplicates
     * @return the values
     * @throws FastCcsException      if the read failed
     * @throws IllegalStateException if called from one of the client's I/O threads
     */
    default ReadResult read(String... keys) {
        return read(Arrays.asList(keys));
    }

    /**
     * Reads binary {@code keys}, waiting for the result.
     *
     * @param keys the keys to read; non-empty, no two with the same bytes
     * @return the values
     * @throws FastCcsException      if the read failed
     * @throws IllegalStateException if called from one of the client's I/O threads
     */
    default ReadResult readBytes(Collection<byte[]> keys) {
        return Blocking.await(readBytesAsync(keys));
    }

    /**
     * Writes {@code writes} atomically, waiting until every participant confirmed.
     *
     * @param writes keys and values, as UTF-8; non-empty, no empty or null values
     * @return the committed transaction
     * @throws FastCcsException      if the write failed; a {@link WriteTimeoutException} says whether it may
     *                               still take effect
     * @throws IllegalStateException if called from one of the client's I/O threads
     */
    default WriteResult write(Map<String, String> writes) {
        return Blocking.await(writeAsync(writes));
    }

    /**
     * Writes binary keys and values atomically, waiting until every participant confirmed.
     *
     * @param writes keys and values; non-empty, no empty or null values
     * @return the committed transaction
     * @throws FastCcsException      if the write failed; a {@link WriteTimeoutException} says whether it may
     *                               still take effect
     * @throws IllegalStateException if called from one of the client's I/O threads
     */
    default WriteResult writeBytes(Map<byte[], byte[]> writes) {
        return Blocking.await(writeBytesAsync(writes));
    }

    /**
     * The session's causal context now, to continue it elsewhere with {@link FastCcsClient#session(CausalToken)}.
     * It covers every transaction of this session that completed successfully before the call (queued or running
     * transactions may or may not be included) and never an unconfirmed write.
     *
     * @return the session's causal context
     * @throws UnsupportedOperationException if the client speaks another protocol than FastCCS
     *                                       ({@link FastCcsClientBuilder#withProtocol}): a token carries FastCCS's
     *                                       vector clock, and other protocols' sessions cannot be exported
     */
    CausalToken exportToken();

    /**
     * Whether the session holds an unconfirmed write and refuses transactions until
     * {@link #continueWithoutUnconfirmedWrite()} is called.
     */
    boolean hasUnconfirmedWrite();

    /**
     * Accepts that the session's unconfirmed write may or may not be visible to its later transactions, and lets
     * the session run transactions again. Does nothing if there is no unconfirmed write.
     */
    void continueWithoutUnconfirmedWrite();
}
