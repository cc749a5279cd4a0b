package io.fastccs.core.wire;

import static io.fastccs.core.wire.WireChecks.checkSequence;
import static io.fastccs.core.wire.WireChecks.copy;
import static io.fastccs.core.wire.WireChecks.invalid;
import static io.fastccs.core.wire.WireChecks.keyType;
import static io.fastccs.core.wire.WireChecks.missing;
import static io.fastccs.core.wire.WireChecks.requireSet;
import static io.fastccs.core.wire.WireChecks.sequence;
import static io.fastccs.core.wire.WireChecks.tooMany;
import static io.fastccs.core.wire.WireChecks.writeKind;

import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.KeyType;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.WriteKind;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The structs of {@code core.thrift} that more than one protocol carries (TxnId, KeyValue, ReadValue, Outcome), to
 * their records and back, with the checks of {@link WireChecks}. The generated structs share their simple names with
 * the records, so they are written fully qualified.
 */
public final class CoreStructs {
    private CoreStructs() {
    }

    public static io.fastccs.core.wire.thrift.TxnId txnIdToWire(TxnId id) {
        return new io.fastccs.core.wire.thrift.TxnId(id.client(), id.sequence());
    }

    public static TxnId txnId(io.fastccs.core.wire.thrift.TxnId wire, String field) throws MalformedFrameException {
        if (wire == null) throw missing(field);
        return new TxnId(requireSet(wire.isSetClient(), field + ".client", wire.getClient()),
                requireSet(wire.isSetSequence(), field + ".sequence", wire.getSequence()));
    }

    public static List<io.fastccs.core.wire.thrift.KeyValue> writesToWire(List<KeyValue> writes) {
        List<io.fastccs.core.wire.thrift.KeyValue> out = new ArrayList<>(writes.size());
        for (KeyValue kv : writes) {
            var w = new io.fastccs.core.wire.thrift.KeyValue(ByteBuffer.wrap(kv.key().unsafeBytes()), ByteBuffer.wrap(kv.value()));
            if (kv.kind() != WriteKind.PUT) w.setKind((byte) kv.kind().ordinal());
            out.add(w);
        }
        return out;
    }

    public static List<KeyValue> writes(List<io.fastccs.core.wire.thrift.KeyValue> wire, String field, WireLimits limits)
            throws MalformedFrameException {
        if (wire == null) throw missing(field);
        if (wire.size() > limits.maxKeysPerMessage())
            throw tooMany(field, wire.size(), limits.maxKeysPerMessage());
        List<KeyValue> out = new ArrayList<>(wire.size());
        for (var kv : wire) {
            if (kv.bufferForKey() == null) throw missing(field + "[].key");
            if (kv.bufferForValue() == null) throw missing(field + "[].value");
            out.add(new KeyValue(Key.wrap(copy(kv.bufferForKey())), copy(kv.bufferForValue()),
                    writeKind(kv.isSetKind(), kv.getKind(), field + "[].kind")));
        }
        return out;
    }

    /**
     * @param sequenceField what to call a value's sequence in an error: its meaning differs by protocol
     */
    public static List<io.fastccs.core.wire.thrift.ReadValue> readValuesToWire(List<ReadValue> values, String sequenceField) {
        List<io.fastccs.core.wire.thrift.ReadValue> out = new ArrayList<>(values.size());
        for (ReadValue v : values) {
            checkSequence(v.sequence(), sequenceField);
            var w = new io.fastccs.core.wire.thrift.ReadValue(ByteBuffer.wrap(v.key().unsafeBytes()), v.sequence());
            if (v.value() != null) w.setValue(v.value());
            if (v.type() != KeyType.REGISTER) w.setType((byte) v.type().ordinal());
            out.add(w);
        }
        return out;
    }

    public static List<ReadValue> readValues(List<io.fastccs.core.wire.thrift.ReadValue> wire, String field,
                                             WireLimits limits) throws MalformedFrameException {
        if (wire == null) throw missing(field);
        if (wire.size() > limits.maxKeysPerMessage())
            throw tooMany(field, wire.size(), limits.maxKeysPerMessage());
        List<ReadValue> out = new ArrayList<>(wire.size());
        for (var v : wire) {
            if (v.bufferForKey() == null) throw missing(field + "[].key");
            out.add(new ReadValue(Key.wrap(copy(v.bufferForKey())),
                    v.isSetValue() ? copy(v.bufferForValue()) : null,
                    sequence(v.isSetSequence(), v.getSequence(), field + "[].sequence"),
                    keyType(v.isSetType(), v.getType(), field + "[].type")));
        }
        return out;
    }

    public static io.fastccs.core.wire.thrift.Outcome outcomeToWire(Outcome o) {
        return switch (o) {
            case COMMITTED -> io.fastccs.core.wire.thrift.Outcome.COMMITTED;
            case ABORTED -> io.fastccs.core.wire.thrift.Outcome.ABORTED;
            case UNDECIDED -> io.fastccs.core.wire.thrift.Outcome.UNDECIDED;
        };
    }

    public static Outcome outcome(io.fastccs.core.wire.thrift.Outcome wire, String field)
            throws MalformedFrameException {
        // Thrift decodes an enum value it does not know as null, so absent and unknown look the same here.
        if (wire == null) throw invalid(field + " is absent or not a known outcome");
        return switch (wire) {
            case COMMITTED -> Outcome.COMMITTED;
            case ABORTED -> Outcome.ABORTED;
            case UNDECIDED -> Outcome.UNDECIDED;
        };
    }
}
