package io.fastccs.client.internal;

import io.fastccs.client.InvalidRequestException;
import io.fastccs.client.WriteBuilder;
import io.fastccs.client.WriteResult;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.typed.Operands;
import io.fastccs.core.primitives.WriteKind;
import io.fastccs.core.spi.Capability;
import io.fastccs.core.spi.ProtocolFactory;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Collects a write's operations, one per key in the order given, each checked as it comes (see {@link WriteBuilder}),
 * and hands them to its session to run once.
 */
final class DefaultWriteBuilder implements WriteBuilder {
    /** The bytes a top-k insert sends besides its item: k and the score ({@link Operands#topk}). */
    private static final int TOPK_OVERHEAD = 12;

    private final InputValidator validator;
    private final Protocol protocol;
    private final boolean commutativeOperations;
    private final Function<List<KeyValue>, CompletionStage<WriteResult>> run;
    private final Map<Key, KeyValue> operations = new LinkedHashMap<>();
    private boolean executed;

    /**
     * @param protocol the protocol the client speaks: commutative operations only if it has them
     * @param run      runs the operations as one transaction of the session
     */
    DefaultWriteBuilder(InputValidator validator, ProtocolFactory protocol, Function<List<KeyValue>, CompletionStage<WriteResult>> run) {
        this.validator = validator;
        this.protocol = protocol.protocol();
        this.commutativeOperations = protocol.has(Capability.COMMUTATIVE_OPERATIONS);
        this.run = run;
    }

    @Override
    public WriteBuilder put(String key, String value) {
        return put(utf8(key), utf8(value));
    }

    @Override
    public WriteBuilder put(byte[] key, byte[] value) {
        checkNotExecuted();
        Key k = validator.operationKey(copy(key));
        validator.checkOperand(k, "the value", value, 0);
        return operation(new KeyValue(k, value.clone(), WriteKind.PUT));
    }

    @Override
    public WriteBuilder add(String key, long delta) {
        return add(utf8(key), delta);
    }

    @Override
    public WriteBuilder add(byte[] key, long delta) {
        Key k = typedKey(key, WriteKind.ADD);
        KeyValue earlier = operations.get(k);
        if (earlier != null && earlier.kind() == WriteKind.ADD) {
            // Adds to one key merge: the counter sums them (wrapping) either way.
            operations.put(k, new KeyValue(k, Operands.number(Operands.number(earlier.value()) + delta), WriteKind.ADD));
            return this;
        }
        return operation(new KeyValue(k, Operands.number(delta), WriteKind.ADD));
    }

    @Override
    public WriteBuilder max(String key, long value) {
        return max(utf8(key), value);
    }

    @Override
    public WriteBuilder max(byte[] key, long value) {
        return operation(new KeyValue(typedKey(key, WriteKind.MAX), Operands.number(value), WriteKind.MAX));
    }

    @Override
    public WriteBuilder setAdd(String key, String element) {
        return setAdd(utf8(key), utf8(element));
    }

    @Override
    public WriteBuilder setAdd(byte[] key, byte[] element) {
        return setOperation(key, element, WriteKind.SET_ADD);
    }

    @Override
    public WriteBuilder setRemove(String key, String element) {
        return setRemove(utf8(key), utf8(element));
    }

    @Override
    public WriteBuilder setRemove(byte[] key, byte[] element) {
        return setOperation(key, element, WriteKind.SET_REMOVE);
    }

    private WriteBuilder setOperation(byte[] key, byte[] element, WriteKind kind) {
        Key k = typedKey(key, kind);
        validator.checkOperand(k, "the element", element, 0);
        return operation(new KeyValue(k, element.clone(), kind));
    }

    @Override
    public WriteBuilder topkInsert(String key, int k, String item, long score) {
        return topkInsert(utf8(key), k, utf8(item), score);
    }

    @Override
    public WriteBuilder topkInsert(byte[] key, int k, byte[] item, long score) {
        Key topk = typedKey(key, WriteKind.TOPK_INSERT);
        if (k < 1 || k > MAX_TOPK)
            throw new InvalidRequestException("k is " + k + " for the top-k key " + topk + "; it must be 1 to " + MAX_TOPK);
        validator.checkOperand(topk, "the item", item, TOPK_OVERHEAD);
        return operation(new KeyValue(topk, Operands.topk(k, score, item), WriteKind.TOPK_INSERT));
    }

    @Override
    public int size() {
        return operations.size();
    }

    @Override
    public CompletionStage<WriteResult> executeAsync() {
        checkNotExecuted();
        executed = true;
        return run.apply(List.copyOf(operations.values()));
    }

    /** The key of a commutative operation, once the client may send one. */
    private Key typedKey(byte[] key, WriteKind kind) {
        checkNotExecuted();
        if (!commutativeOperations)
            throw new UnsupportedOperationException(word(kind) + " is a commutative operation, and those are FastCCS's; "
                    + "this client speaks " + protocol.word() + ", which has puts only");
        return validator.operationKey(copy(key));
    }

    /** Adds {@code kv} unless its key has an operation already; the key count is checked for a new key. */
    private WriteBuilder operation(KeyValue kv) {
        KeyValue earlier = operations.get(kv.key());
        if (earlier != null)
            throw new InvalidRequestException("key " + kv.key() + " already has an operation in this write ("
                    + word(earlier.kind()) + "), so " + word(kv.kind()) + " is refused: a transaction applies one operation "
                    + "per key (only adds to one key merge)");
        validator.checkWriteCount(operations.size() + 1);
        String problem = Operands.problem(kv.kind(), kv.value());
        if (problem != null) throw new InvalidRequestException(word(kv.kind()) + " on key " + kv.key() + " " + problem);
        operations.put(kv.key(), kv);
        return this;
    }

    private void checkNotExecuted() {
        if (executed)
            throw new IllegalStateException("this write was executed already; start the next one with session.newWrite()");
    }

    /** The builder method that makes an operation of {@code kind}, for messages. */
    static String word(WriteKind kind) {
        return switch (kind) {
            case PUT -> "put";
            case ADD -> "add";
            case MAX -> "max";
            case SET_ADD -> "setAdd";
            case SET_REMOVE -> "setRemove";
            case TOPK_INSERT -> "topkInsert";
            case FOLDED -> "a folded value";
        };
    }

    /** The UTF-8 bytes of {@code s}; null stays null, for the validator to name. */
    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] copy(byte[] bytes) {
        return bytes == null ? null : bytes.clone();
    }
}
