package io.fastccs.baselines.eventual;

import static io.fastccs.core.messages.Payloads.*;

import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;

import java.util.List;

/** The eventual protocol's messages: one round each way, no causal metadata (a Lamport time for last-writer-wins). */
public final class EventualMessages {
    private EventualMessages() {
    }

    /** Read the newest value of each key. */
    public record Read(long requestId, List<Key> keys) implements ClientRequest {
        @Override
        public boolean onlyReads() {
            return true;
        }

        @Override
        public long payloadBytes() {
            return keysPayload(keys);
        }
    }

    /** The values, each with its stamp's time as the version; {@code time} is the partition's Lamport time. */
    public record ReadAnswer(long requestId, List<ReadValue> values, long time) implements ClientResponse {
        @Override
        public long payloadBytes() {
            return readValuesPayload(values);
        }
    }

    /** Apply these writes at once, unless a write with a later stamp is already there. */
    public record Write(long requestId, TxnId txnId, EventualStamp stamp, List<KeyValue> writes) implements ClientRequest {
        @Override
        public long payloadBytes() {
            return writesPayload(writes);
        }
    }

    /** The writes are applied; {@code time} is the partition's Lamport time. */
    public record WriteAnswer(long requestId, long time) implements ClientResponse {
    }
}
