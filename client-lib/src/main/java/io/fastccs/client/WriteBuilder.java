package io.fastccs.client;

import io.fastccs.client.internal.Blocking;

import java.util.concurrent.CompletionStage;

/**
 * One write-only transaction, built operation by operation, then run by {@link #execute()} or {@link #executeAsync()}:
 * atomically, all or nothing, in its session's causal order, exactly as {@link CausalSession#write}. Get one from
 * {@link CausalSession#newWrite()}.
 *
 * <pre>{@code
 * session.newWrite()
 *         .put("post:42", "hello")
 *         .add("likes:42", 1)
 *         .max("best:alice", 17)
 *         .setAdd("followers:7", "alice")
 *         .setRemove("followers:7", "bob")
 *         .topkInsert("leaders", 10, "alice", 950)
 *         .execute();
 * ReadResult r = session.read("likes:42", "followers:7", "leaders");
 * long likes = r.counter("likes:42");
 * List<String> followers = r.set("followers:7");
 * }</pre>
 *
 * <p><b>Operations.</b> Besides {@link #put put}s, whose value replaces the key's, FastCCS has commutative operations,
 * whose effects add up instead of replacing each other, so that concurrent sessions never lose each other's updates:
 * <ul>
 *   <li>{@link #add add}: a counter, the sum of every delta (wrapping around on overflow, as {@code long} arithmetic
 *       does);</li>
 *   <li>{@link #max max}: the largest value ever written;</li>
 *   <li>{@link #setAdd setAdd}, {@link #setRemove setRemove}: an add-wins set of byte strings. A remove removes the adds
 *       of the element that its session had seen (read, or written, or seen through a {@link CausalToken}) when it
 *       wrote; an add it had not seen, such as a concurrent one, survives it;</li>
 *   <li>{@link #topkInsert topkInsert}: per item its best score; a read returns the k items with the highest scores,
 *       ties going to the smaller item (bytes compared unsigned). The key's first insert fixes k; an insert with
 *       another k is refused as a wrong-typed operation is.</li>
 * </ul>
 * A key's {@link KeyType} is fixed by the first operation ever applied to it. An operation of another type (a put on a
 * counter, an add on a set) makes the node that owns the key refuse the transaction: it fails with
 * {@link InvalidRequestException} carrying the node's message, which names the key and its type, and none of it takes
 * effect. Read typed keys with {@link ReadResult#counter}, {@link ReadResult#max}, {@link ReadResult#set} and
 * {@link ReadResult#topk}.
 *
 * <p><b>One operation per key.</b> A transaction applies one operation to each key. A second operation on a key the
 * builder already has is refused at once with {@link InvalidRequestException}, leaving the builder as it was, with one
 * exception: {@link #add add}s to the same key merge into one add of their sum (wrapping), which the counter counts
 * exactly as it would count them apart. A merged add whose sum is 0 is still sent: it fixes the key's type, and is
 * refused on a key of another type.
 *
 * <p><b>Checks.</b> Every call checks its input at once, against the limits set on {@link FastCcsClientBuilder}: a
 * key non-empty and at most {@link FastCcsClientBuilder#withMaxKeySize maxKeySize} bytes; a value, set element or
 * top-k item non-empty and, as sent, at most {@link FastCcsClientBuilder#withMaxValueSize maxValueSize} bytes (a top-k
 * insert sends 12 bytes more than its item); k from 1 to {@value #MAX_TOPK}; at most
 * {@link FastCcsClientBuilder#withMaxKeysPerTransaction maxKeysPerTransaction} keys. A refused call throws
 * {@link InvalidRequestException} and leaves the builder as it was. A builder without operations fails when executed,
 * as {@link CausalSession#write} of an empty map does.
 *
 * <p><b>Protocols.</b> The commutative operations are FastCCS's: on a client built
 * {@link FastCcsClientBuilder#withProtocol withProtocol} Eiger, Wren or eventual, {@code add}, {@code max},
 * {@code setAdd}, {@code setRemove} and {@code topkInsert} throw {@link UnsupportedOperationException} at once, before
 * anything is sent. Puts work with every protocol.
 *
 * <p><b>Once.</b> A builder runs one transaction: after {@link #execute()} or {@link #executeAsync()} every method
 * throws {@link IllegalStateException}; start the next transaction with {@link CausalSession#newWrite()}. Builders are
 * not thread-safe: build each on one thread (the transaction then runs like any other of its session, queued behind
 * the ones called before it). The byte arrays given are copied.
 */
public interface WriteBuilder {
    /** The largest k of a top-k key: a read of it returns at most this many items. */
    int MAX_TOPK = 1024;

    /**
     * Writes {@code value} to {@code key}, replacing its value.
     *
     * @param key   the key, as UTF-8; a plain key ({@link KeyType#REGISTER}) or never written
     * @param value the value, as UTF-8; non-empty
     * @return this builder
     * @throws InvalidRequestException if the key or value is invalid, or the key already has an operation here
     */
    WriteBuilder put(String key, String value);

    /**
     * Writes binary {@code value} to binary {@code key}, replacing its value.
     *
     * @param key   the key, compared by content; a plain key ({@link KeyType#REGISTER}) or never written
     * @param value the value; non-empty
     * @return this builder
     * @throws InvalidRequestException if the key or value is invalid, or the key already has an operation here
     */
    WriteBuilder put(byte[] key, byte[] value);

    /**
     * Adds {@code delta} to the counter {@code key}. Adds to a key the builder already adds to merge into one.
     *
     * @param key   the key, as UTF-8; a counter ({@link KeyType#COUNTER}) or never written
     * @param delta the amount to add; negative to subtract
     * @return this builder
     * @throws InvalidRequestException       if the key is invalid, or has another operation here than an add
     * @throws UnsupportedOperationException if the client speaks another protocol than FastCCS
     */
    WriteBuilder add(String key, long delta);

    /**
     * Adds {@code delta} to the counter at binary {@code key}. Adds to a key the builder already adds to merge into one.
     *
     * @param key   the key, compared by content; a counter ({@link KeyType#COUNTER}) or never written
     * @param delta the amount to add; negative to subtract
     * @return this builder
     * @throws InvalidRequestException       if the key is invalid, or has another operation here than an add
     * @throws UnsupportedOperationException if the client speaks another protocol than FastCCS
     */
    WriteBuilder add(byte[] key, long delta);

    /**
     * Raises the max register {@code key} to {@code value}, if that is larger than every value written to it.
     *
     * @param key   the key, as UTF-8; a max register ({@link KeyType#MAX}) or never written
     * @param value the value
     * @return this builder
     * @throws InvalidRequestException       if the key is invalid, or already has an operation here
     * @throws UnsupportedOperationException if the client speaks another protocol than FastCCS
     */
    WriteBuilder max(String key, long value);

    /**
     * Raises the max register at binary {@code key} to {@code value}, if that is larger than every value written to it.
     *
     * @param key   the key, compared by content; a max register ({@link KeyType#MAX}) or never written
     * @param value the value
     * @return this builder
     * @throws InvalidRequestException       if the key is invalid, or already has an operation here
     * @throws UnsupportedOperationException if the client speaks another protocol than FastCCS
     */
    WriteBuilder max(byte[] key, long value);

    /**
     * Adds {@code element} to the set {@code key}.
     *
     * @param key     the key, as UTF-8; a set ({@link KeyType#SET}) or never written
     * @param element the element, as UTF-8; non-empty
     * @return this builder
     * @throws InvalidRequestException       if the key or element is invalid, or the key already has an operation here
     * @throws UnsupportedOperationException if the client speaks another protocol than FastCCS
     */
    WriteBuilder setAdd(String key, String element);

    /**
     * Adds binary {@code element} to the set at binary {@code key}.
     *
     * @param key     the key, compared by content; a set ({@link KeyType#SET}) or never written
     * @param element the element; non-empty
     * @return this builder
     * @throws InvalidRequestException       if the key or element is invalid, or the key already has an operation here
     * @throws UnsupportedOperationException if the client speaks another protocol than FastCCS
     */
    WriteBuilder setAdd(byte[] key, byte[] element);

    /**
     * Removes {@code element} from the set {@code key}: the adds of it this session has seen; a concurrent add wins.
     *
     * @param key     the key, as UTF-8; a set ({@link KeyType#SET}) or never written
     * @param element the element, as UTF-8; non-empty
     * @return this builder
     * @throws InvalidRequestException       if the key or element is invalid, or the key already has an operation here
     * @throws UnsupportedOperationException if the client speaks another protocol than FastCCS
     */
    WriteBuilder setRemove(String key, String element);

    /**
     * Removes binary {@code element} from the set at binary {@code key}: the adds of it this session has seen; a
     * concurrent add wins.
     *
     * @param key     the key, compared by content; a set ({@link KeyType#SET}) or never written
     * @param element the element; non-empty
     * @return this builder
     * @throws InvalidRequestException       if the key or element is invalid, or the key already has an operation here
     * @throws UnsupportedOperationException if the client speaks another protocol than FastCCS
     */
    WriteBuilder setRemove(byte[] key, byte[] element);

    /**
     * Offers {@code item} with {@code score} to the top-k {@code key}: the item keeps its best score.
     *
     * @param key   the key, as UTF-8; a top-k ({@link KeyType#TOPK}) of this {@code k}, or never written
     * @param k     how many items the key keeps, 1 to {@value #MAX_TOPK}; fixed by the key's first insert
     * @param item  the item, as UTF-8; non-empty
     * @param score its score; higher is better
     * @return this builder
     * @throws InvalidRequestException       if the key, k or item is invalid, or the key already has an operation here
     * @throws UnsupportedOperationException if the client speaks another protocol than FastCCS
     */
    WriteBuilder topkInsert(String key, int k, String item, long score);

    /**
     * Offers binary {@code item} with {@code score} to the top-k at binary {@code key}: the item keeps its best score.
     *
     * @param key   the key, compared by content; a top-k ({@link KeyType#TOPK}) of this {@code k}, or never written
     * @param k     how many items the key keeps, 1 to {@value #MAX_TOPK}; fixed by the key's first insert
     * @param item  the item; non-empty
     * @param score its score; higher is better
     * @return this builder
     * @throws InvalidRequestException       if the key, k or item is invalid, or the key already has an operation here
     * @throws UnsupportedOperationException if the client speaks another protocol than FastCCS
     */
    WriteBuilder topkInsert(byte[] key, int k, byte[] item, long score);

    /** How many keys the transaction writes so far (merged adds count once). */
    int size();

    /**
     * Runs the transaction.
     *
     * @return a stage completed once every participant confirmed the commit, or exceptionally with a
     *         {@link FastCcsException}: an {@link InvalidRequestException} if the builder is empty or a node refused an
     *         operation (a wrong-typed one, say), in both cases without effect
     * @throws IllegalStateException if the builder was executed already
     */
    CompletionStage<WriteResult> executeAsync();

    /**
     * Runs the transaction, waiting until every participant confirmed.
     *
     * @return the committed transaction
     * @throws FastCcsException      if the write failed; an {@link InvalidRequestException} if the builder is empty or a
     *                               node refused an operation (without effect); a {@link WriteTimeoutException} says
     *                               whether it may still take effect
     * @throws IllegalStateException if the builder was executed already, or if called from one of the client's I/O
     *                               threads
     */
    default WriteResult execute() {
        return Blocking.await(executeAsync());
    }
}
