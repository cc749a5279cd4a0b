package io.fastccs.core.messages;

import io.fastccs.core.primitives.Key;

import java.util.List;

/** The bytes of keys and values messages carry ({@link Message#payloadBytes()}). */
public final class Payloads {
    private Payloads() {
    }

    public static long keysPayload(List<Key> keys) {
        long n = 0;
        if (keys != null) for (Key k : keys) n += k == null ? 0 : k.length();
        return n;
    }

    public static long writesPayload(List<KeyValue> writes) {
        long n = 0;
        if (writes != null)
            for (KeyValue kv : writes)
                if (kv != null) n += (kv.key() == null ? 0 : kv.key().length()) + (kv.value() == null ? 0 : kv.value().length);
        return n;
    }

    public static long readValuesPayload(List<ReadValue> values) {
        long n = 0;
        for (ReadValue v : values) n += v.key().length() + (v.value() == null ? 0 : v.value().length);
        return n;
    }
}
