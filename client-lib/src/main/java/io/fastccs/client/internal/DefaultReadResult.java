package io.fastccs.client.internal;

import io.fastccs.client.ReadResult;
import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.messages.ReadValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A finished read, wrapping the protocol's result (whichever protocol's). */
final class DefaultReadResult implements ReadResult {
    private final Map<Key, ReadValue> values;
    private final int rounds;
    private final int partitionsTouched;
    private final int secondRoundPartitions;

    DefaultReadResult(io.fastccs.protocol.spi.ReadResult result, int partitionsTouched) {
        this.values = result.values();
        this.rounds = result.rounds();
        this.partitionsTouched = partitionsTouched;
        this.secondRoundPartitions = result.secondRoundPartitions();
    }

    private byte[] value(Key key) {
        if (!values.containsKey(key)) throw new IllegalArgumentException("key " + key + " was not read");
        ReadValue v = values.get(key);
        return v == null ? null : v.value();
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
        return value(Key.of(key)) != null;
    }

    @Override
    public boolean exists(byte[] key) {
        return value(Key.wrap(key)) != null;
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
