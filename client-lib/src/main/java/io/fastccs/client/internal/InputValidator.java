package io.fastccs.client.internal;

import io.fastccs.client.InvalidRequestException;
import io.fastccs.core.primitives.Key;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Checks a transaction's keys and values against the client's limits before anything is sent, and turns them into
 * protocol keys. Every refusal is an {@link InvalidRequestException}; the messages name the offending key.
 */
final class InputValidator {
    private final int maxKeys;
    private final int maxKeyBytes;
    private final int maxValueBytes;

    InputValidator(int maxKeys, int maxKeyBytes, int maxValueBytes) {
        this.maxKeys = maxKeys;
        this.maxKeyBytes = maxKeyBytes;
        this.maxValueBytes = maxValueBytes;
    }

    static InputValidator of(ClientConfig config) {
        return new InputValidator(config.maxKeysPerTransaction(), config.maxKeySize(), config.maxValueSize());
    }

    List<Key> readKeys(Collection<String> keys) {
        return keys(keys, InputValidator::utf8);
    }

    List<Key> readKeyBytes(Collection<byte[]> keys) {
        return keys(keys, byte[]::clone);
    }

    Map<Key, byte[]> writes(Map<String, String> writes) {
        return writes(writes, InputValidator::utf8, InputValidator::utf8);
    }

    Map<Key, byte[]> writeBytes(Map<byte[], byte[]> writes) {
        return writes(writes, byte[]::clone, byte[]::clone);
    }

    private <K> List<Key> keys(Collection<K> keys, Function<K, byte[]> toBytes) {
        if (keys == null) throw new InvalidRequestException("the key collection is null");
        checkCount(keys.size(), "reads");
        List<Key> out = new ArrayList<>(keys.size());
        Set<Key> seen = new HashSet<>();
        for (K k : keys) {
            Key key = key(k, toBytes);
            if (!seen.add(key)) throw new InvalidRequestException("key " + key + " is read twice");
            out.add(key);
        }
        return out;
    }

    private <K, V> Map<Key, byte[]> writes(Map<K, V> writes, Function<K, byte[]> keyBytes, Function<V, byte[]> valueBytes) {
        if (writes == null) throw new InvalidRequestException("the write map is null");
        checkCount(writes.size(), "writes");
        Map<Key, byte[]> out = new LinkedHashMap<>();
        for (Map.Entry<K, V> e : writes.entrySet()) {
            Key key = key(e.getKey(), keyBytes);
            if (e.getValue() == null) throw new InvalidRequestException("the value for key " + key + " is null");
            byte[] value = valueBytes.apply(e.getValue());
            if (value.length == 0)
                throw new InvalidRequestException("the value for key " + key + " is empty; FastCCS stores non-empty values only");
            if (value.length > maxValueBytes)
                throw new InvalidRequestException("the value for key " + key + " is " + value.length
                        + " bytes, more than the maximum of " + maxValueBytes);
            if (out.put(key, value) != null) throw new InvalidRequestException("key " + key + " is written twice");
        }
        return out;
    }

    /** A key of a write's operation ({@link DefaultWriteBuilder}), not copied. */
    Key operationKey(byte[] key) {
        return key(key, k -> k);
    }

    /**
     * Checks what an operation on {@code key} sends, {@code what} naming it ("the value", "the element"): not null,
     * not empty, at most the maximum value size once {@code overhead} bytes are added to it.
     */
    void checkOperand(Key key, String what, byte[] bytes, int overhead) {
        if (bytes == null) throw new InvalidRequestException(what + " for key " + key + " is null");
        if (bytes.length == 0) throw new InvalidRequestException(what + " for key " + key + " is empty");
        if ((long) bytes.length + overhead > maxValueBytes)
            throw new InvalidRequestException(what + " for key " + key + " is " + bytes.length + " bytes"
                    + (overhead > 0 ? " (" + (bytes.length + overhead) + " as sent)" : "") + ", more than the maximum of "
                    + maxValueBytes);
    }

    /** Checks that a write of {@code n} keys is within the limit (at least one is checked when it runs). */
    void checkWriteCount(int n) {
        if (n > maxKeys)
            throw new InvalidRequestException(n + " writes in one transaction, more than the maximum of " + maxKeys);
    }

    private void checkCount(int n, String what) {
        if (n == 0) throw new InvalidRequestException("a transaction needs at least one key; no " + what + " given");
        if (n > maxKeys)
            throw new InvalidRequestException(n + " " + what + " in one transaction, more than the maximum of " + maxKeys);
    }

    private <K> Key key(K k, Function<K, byte[]> toBytes) {
        if (k == null) throw new InvalidRequestException("a key is null");
        byte[] bytes = toBytes.apply(k);
        if (bytes.length == 0) throw new InvalidRequestException("a key is empty");
        if (bytes.length > maxKeyBytes)
            throw new InvalidRequestException("a key of " + bytes.length + " bytes is longer than the maximum of " + maxKeyBytes);
        return Key.wrap(bytes);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
