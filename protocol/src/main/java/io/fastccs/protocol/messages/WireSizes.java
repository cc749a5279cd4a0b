package io.fastccs.protocol.messages;

import io.fastccs.protocol.primitives.Key;

import java.util.List;

/**
 * The compact binary encoding the other protocols' messages state their sizes in ({@link ProtocolMessage}): 8 bytes a
 * long, 4 an int or a list's length, 2 + length a key, 4 + length a value, 16 a transaction id, 4 for the frame. Null
 * fields (in refused requests) count as empty.
 */
public final class WireSizes {
    private WireSizes() {
    }

    public static final int FRAME = 4;
    public static final int LONG = 8;
    public static final int INT = 4;
    public static final int TXN = 16;

    public static int keySize(Key k) {
        return 2 + (k == null ? 0 : k.length());
    }

    public static int valueSize(byte[] v) {
        return INT + (v == null ? 0 : v.length);
    }

    /** A list of keys: its length, then each key. */
    public static int keysSize(List<Key> keys) {
        int n = INT;
        if (keys != null) for (Key k : keys) n += keySize(k);
        return n;
    }

    /** A list of writes: its length, then each key and value. */
    public static int writesSize(List<KeyValue> writes) {
        int n = INT;
        if (writes != null) for (KeyValue kv : writes) n += kv == null ? 0 : keySize(kv.key()) + valueSize(kv.value());
        return n;
    }

    /** A list of read values: its length, then each key, value and version. */
    public static int readValuesSize(List<ReadValue> values) {
        int n = INT;
        for (ReadValue v : values) n += keySize(v.key()) + valueSize(v.value()) + LONG;
        return n;
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
