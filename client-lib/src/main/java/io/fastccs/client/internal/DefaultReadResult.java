package io.fastccs.client.internal;

import io.fastccs.client.KeyType;
import io.fastccs.client.ReadResult;
import io.fastccs.client.ScoredItem;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.messages.ReadValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A finished read, wrapping the protocol's result (whichever protocol's), with typed keys' values decoded
 * ({@link TypedValue}).
 */
final class DefaultReadResult implements ReadResult {
    private final Map<Key, ReadValue> values;
    /** The typed keys that have a value in the snapshot, decoded. */
    private final Map<Key, TypedValue> typed = new HashMap<>();
    private final int rounds;
    private final int partitionsTouched;
    private final int secondRoundPartitions;

    DefaultReadResult(io.fastccs.core.spi.ReadResult result, int partitionsTouched) {
        this.values = result.values();
        this.rounds = result.rounds();
        this.partitionsTouched = partitionsTouched;
        this.secondRoundPartitions = result.secondRoundPartitions();
        for (ReadValue v : values.values()) {
            TypedValue t = TypedValue.of(v);
            if (t != null) typed.put(v.key(), t);
        }
    }

    private ReadValue entry(Key key) {
        if (!values.containsKey(key)) throw new IllegalArgumentException("key " + key + " was not read");
        return values.get(key);
    }

    /** A plain key's value, or null if it has none. */
    private byte[] value(Key key) {
        ReadValue v = entry(key);
        TypedValue t = typed.get(key);
        if (t != null) throw wrongType(key, t.type(), KeyType.REGISTER);
        return v == null || v.type() != io.fastccs.core.primitives.KeyType.REGISTER ? null : v.value();
    }

    /** A typed key's value if it is of type {@code asked}; null if the key has no value. */
    private TypedValue typedValue(Key key, KeyType asked) {
        ReadValue v = entry(key);
        TypedValue t = typed.get(key);
        if (t == null) {
            if (v != null && v.value() != null && v.type() == io.fastccs.core.primitives.KeyType.REGISTER)
                throw wrongType(key, KeyType.REGISTER, asked);
            return null;
        }
        if (t.type() != asked) throw wrongType(key, t.type(), asked);
        return t;
    }

    private static IllegalStateException wrongType(Key key, KeyType actual, KeyType asked) {
        return new IllegalStateException("key " + key + " is " + actual.description() + ", not " + asked.description()
                + ": read it with " + actual.accessor() + "(key)");
    }

    private KeyType typeOf(Key key) {
        ReadValue v = entry(key);
        TypedValue t = typed.get(key);
        if (t != null) return t.type();
        return v != null && v.value() != null && v.type() == io.fastccs.core.primitives.KeyType.REGISTER ? KeyType.REGISTER : null;
    }

    private long counterOf(Key key) {
        TypedValue t = typedValue(key, KeyType.COUNTER);
        return t == null ? 0 : t.number();
    }

    private OptionalLong maxOf(Key key) {
        TypedValue t = typedValue(key, KeyType.MAX);
        return t == null ? OptionalLong.empty() : OptionalLong.of(t.number());
    }

    private List<byte[]> membersOf(Key key) {
        TypedValue t = typedValue(key, KeyType.SET);
        return t == null ? List.of() : t.members();
    }

    private static List<String> strings(List<byte[]> members) {
        List<String> out = new ArrayList<>(members.size());
        for (byte[] m : members) out.add(new String(m, StandardCharsets.UTF_8));
        return List.copyOf(out);
    }

    private static List<byte[]> copies(List<byte[]> members) {
        List<byte[]> out = new ArrayList<>(members.size());
        for (byte[] m : members) out.add(m.clone());
        return java.util.Collections.unmodifiableList(out);
    }

    private List<ScoredItem> itemsOf(Key key) {
        TypedValue t = typedValue(key, KeyType.TOPK);
        return t == null ? List.of() : t.items();
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] v = value(Key.wrap(key));
        return v == null ? null : v.clone();
    }

    @Override
    public byte[] get(String key) {
        byte[] v = value(Key.of(key));
        return v == null ? null : v.clone();
    }

    @Override
    public String getString(String key) {
        byte[] v = value(Key.of(key));
        return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }

    @Override
    public String getString(byte[] key) {
        byte[] v = value(Key.wrap(key));
        return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }

    @Override
    public boolean exists(String key) {
        return typeOf(Key.of(key)) != null;
    }

    @Override
    public boolean exists(byte[] key) {
        return typeOf(Key.wrap(key)) != null;
    }

    @Override
    public KeyType type(String key) {
        return typeOf(Key.of(key));
    }

    @Override
    public KeyType type(byte[] key) {
        return typeOf(Key.wrap(key));
    }

    @Override
    public long counter(String key) {
        return counterOf(Key.of(key));
    }

    @Override
    public long counter(byte[] key) {
        return counterOf(Key.wrap(key));
    }

    @Override
    public OptionalLong max(String key) {
        return maxOf(Key.of(key));
    }

    @Override
    public OptionalLong max(byte[] key) {
        return maxOf(Key.wrap(key));
    }

    @Override
    public List<String> set(String key) {
        return strings(membersOf(Key.of(key)));
    }

    @Override
    public List<String> set(byte[] key) {
        return strings(membersOf(Key.wrap(key)));
    }

    @Override
    public List<byte[]> setBytes(String key) {
        return copies(membersOf(Key.of(key)));
    }

    @Override
    public List<byte[]> setBytes(byte[] key) {
        return copies(membersOf(Key.wrap(key)));
    }

    @Override
    public List<ScoredItem> topk(String key) {
        return itemsOf(Key.of(key));
    }

    @Override
    public List<ScoredItem> topk(byte[] key) {
        return itemsOf(Key.wrap(key));
    }

    @Override
    public List<byte[]> keys() {
        List<byte[]> keys = new ArrayList<>(values.size());
        for (Key k : values.keySet()) keys.add(k.toBytes());
        return keys;
    }

    @Override
    public int size() {
        return values.size();
    }

    @Override
    public boolean fromCache() {
        return rounds == 0;
    }

    @Override
    public int rounds() {
        return rounds;
    }

    @Override
    public int partitionsTouched() {
        return partitionsTouched;
    }

    @Override
    public int secondRoundPartitions() {
        return secondRoundPartitions;
    }

    @Override
    public String toString() {
        return "ReadResult" + values.values() + " in " + rounds + " round(s) over " + partitionsTouched + " partition(s)";
    }
}
