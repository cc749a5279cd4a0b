package io.fastccs.protocol.messages;

import io.fastccs.protocol.primitives.Key;

import java.util.Arrays;

/** One key and the value written to it. */
public record KeyValue(Key key, byte[] value) {
    @Override
    public boolean equals(Object o) {
        return o instanceof KeyValue kv && key.equals(kv.key) && Arrays.equals(value, kv.value);
    }

    @Override
    public int hashCode() {
        return 31 * key.hashCode() + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return key + "=" + value.length + "B";
    }
}
