package io.fastccs.sim;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.messages.ReadValue;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/** Keys are numbers, values carry their id: a read names the write it saw. */
final class SimKeys {
    private final Map<Long, Key> keyObjects = new HashMap<>();
    private final int valueSize;

    SimKeys(int valueSize) {
        this.valueSize = valueSize;
    }

    Key key(long k) {
        return keyObjects.computeIfAbsent(k, x -> Key.of(Long.toString(x)));
    }

    static long keyIndex(Key key) {
        return Long.parseLong(key.toString());
    }

    /** The id in the first 8 bytes; shorter values grow to 8 bytes. */
    byte[] value(long id) {
        return ByteBuffer.allocate(Math.max(8, valueSize)).putLong(0, id).array();
    }

    static long valueId(ReadValue v) {
        return v == null || v.value() == null ? 0 : ByteBuffer.wrap(v.value()).getLong(0);
    }
}
