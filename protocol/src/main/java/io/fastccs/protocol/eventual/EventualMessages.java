package io.fastccs.protocol.eventual;

import io.fastccs.protocol.messages.KeyValue;
import io.fastccs.protocol.messages.ProtocolRequest;
import io.fastccs.protocol.messages.ProtocolResponse;
import io.fastccs.protocol.messages.ReadValue;
import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.primitives.TxnId;

import java.util.List;

/** The eventual protocol's messages: one round each way, no causal metadata (a Lamport time for last-writer-wins). */
final class EventualMessages {
    private EventualMessages() {
    }

    private static final int FRAME = 4, LONG = 8, INT = 4;

    static int keyBytes(Key k) {
        return 2 + k.length();
    }

    /** Read the newest value of each key. */
    record Read(long requestId, List<Key> keys) implements ProtocolRequest {
        @Override
        public int encodedSize() {
            int size = FRAME + LONG + INT;
            for (Key k : keys) size += keyBytes(k);
            return size;
        }

        @Override
        public long payloadBytes() {
            long bytes = 0;
            for (Key k : keys) bytes += k.length();
            return bytes;
        }
    }

    /** The values, each with its stamp's time as the version; {@code time} is the partition's Lamport time. */
    record ReadAnswer(long requestId, List<ReadValue> values, long time) implements ProtocolResponse {
        @Override
        public int encodedSize() {
            int size = FRAME + LONG + LONG + INT;
            for (ReadValue v : values) size += keyBytes(v.key()) + LONG + INT + (v.value() == null ? 0 : v.value().length);
            return size;
        }

        @Override
        public long payloadBytes() {
            long bytes = 0;
            for (ReadValue v : values) bytes += v.key().length() + (v.value() == null ? 0 : v.value().length);
            return bytes;
        }
    }

    /** Apply these writes at once, unless a write with a later stamp is already there. */
    record Write(long requestId, TxnId txnId, EventualStamp stamp, List<KeyValue> writes) implements ProtocolRequest {
        @Override
        public int encodedSize() {
            int size = FRAME + LONG + 2 * LONG + EventualStamp.ENCODED_SIZE + INT;
            for (KeyValue kv : writes) size += keyBytes(kv.key()) + INT + kv.value().length;
            return size;
        }

        @Override
        public long payloadBytes() {
            long bytes = 0;
            for (KeyValue kv : writes) bytes += kv.key().length() + kv.value().length;
            return bytes;
        }
    }

    /** The writes are applied; {@code time} is the partition's Lamport time. */
    record WriteAnswer(long requestId, long time) implements ProtocolResponse {
        @Override
        public int encodedSize() {
            return FRAME + 2 * LONG;
        }
    }
}
