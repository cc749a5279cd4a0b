package io.fastccs.protocol.wire;

import static io.fastccs.protocol.wire.WireMapping.checkNonNegative;
import static io.fastccs.protocol.wire.WireMapping.keys;
import static io.fastccs.protocol.wire.WireMapping.keysToWire;
import static io.fastccs.protocol.wire.WireMapping.missing;
import static io.fastccs.protocol.wire.WireMapping.nonNegative;
import static io.fastccs.protocol.wire.WireMapping.readValues;
import static io.fastccs.protocol.wire.WireMapping.readValuesToWire;
import static io.fastccs.protocol.wire.WireMapping.requireSet;
import static io.fastccs.protocol.wire.WireMapping.txnId;
import static io.fastccs.protocol.wire.WireMapping.txnIdToWire;
import static io.fastccs.protocol.wire.WireMapping.writes;
import static io.fastccs.protocol.wire.WireMapping.writesToWire;

import io.fastccs.protocol.eventual.EventualMessages;
import io.fastccs.protocol.eventual.EventualStamp;
import io.fastccs.protocol.messages.Message;
import io.fastccs.protocol.wire.thrift.Body;
import io.fastccs.protocol.wire.thrift.EventualRead;
import io.fastccs.protocol.wire.thrift.EventualReadAnswer;
import io.fastccs.protocol.wire.thrift.EventualWrite;
import io.fastccs.protocol.wire.thrift.EventualWriteAnswer;

/**
 * The eventual protocol's messages ({@link EventualMessages}) to the {@code Eventual*} structs of the schema and back,
 * with the checks of {@link WireMapping}. Times (Lamport) are never negative; request ids and stamp tie-breakers may
 * be anything.
 */
final class EventualWire {
    private EventualWire() {
    }

    /** The body for {@code m}, or null if {@code m} is not an eventual message. */
    static Body toWire(Message m) {
        if (m instanceof EventualMessages.Read r) {
            return Body.eventualRead(new EventualRead(r.requestId(), keysToWire(r.keys())));
        } else if (m instanceof EventualMessages.ReadAnswer r) {
            checkNonNegative(r.time(), "EventualReadAnswer.time");
            return Body.eventualReadAnswer(new EventualReadAnswer(r.requestId(),
                    readValuesToWire(r.values(), "EventualReadAnswer.values[].sequence"), r.time()));
        } else if (m instanceof EventualMessages.Write w) {
            EventualStamp s = w.stamp();
            checkNonNegative(s.time(), "EventualWrite.stamp.time");
            return Body.eventualWrite(new EventualWrite(w.requestId(), txnIdToWire(w.txnId()),
                    new io.fastccs.protocol.wire.thrift.EventualStamp(s.time(), s.clientId(), s.txnSequence()),
                    writesToWire(w.writes())));
        } else if (m instanceof EventualMessages.WriteAnswer a) {
            checkNonNegative(a.time(), "EventualWriteAnswer.time");
            return Body.eventualWriteAnswer(new EventualWriteAnswer(a.requestId(), a.time()));
        }
        return null;
    }

    static Message fromWire(Body body, WireLimits limits) throws MalformedFrameException {
        return switch (body.getSetField()) {
            case EVENTUAL_READ -> {
                var w = body.getEventualRead();
                yield new EventualMessages.Read(
                        requireSet(w.isSetRequestId(), "EventualRead.requestId", w.getRequestId()),
                        keys(w.getKeys(), "EventualRead.keys", limits));
            }
            case EVENTUAL_READ_ANSWER -> {
                var w = body.getEventualReadAnswer();
                yield new EventualMessages.ReadAnswer(
                        requireSet(w.isSetRequestId(), "EventualReadAnswer.requestId", w.getRequestId()),
                        readValues(w.getValues(), "EventualReadAnswer.values", limits),
                        nonNegative(w.isSetTime(), w.getTime(), "EventualReadAnswer.time"));
            }
            case EVENTUAL_WRITE -> {
                var w = body.getEventualWrite();
                yield new EventualMessages.Write(
                        requireSet(w.isSetRequestId(), "EventualWrite.requestId", w.getRequestId()),
                        txnId(w.getTxnId(), "EventualWrite.txnId"),
                        stamp(w.getStamp(), "EventualWrite.stamp"),
                        writes(w.getWrites(), "EventualWrite.writes", limits));
            }
            case EVENTUAL_WRITE_ANSWER -> {
                var w = body.getEventualWriteAnswer();
                yield new EventualMessages.WriteAnswer(
                        requireSet(w.isSetRequestId(), "EventualWriteAnswer.requestId", w.getRequestId()),
                        nonNegative(w.isSetTime(), w.getTime(), "EventualWriteAnswer.time"));
            }
            default -> throw new IllegalStateException("not an eventual message: " + body.getSetField());
        };
    }

    private static EventualStamp stamp(io.fastccs.protocol.wire.thrift.EventualStamp wire, String field)
            throws MalformedFrameException {
        if (wire == null) throw missing(field);
        return new EventualStamp(nonNegative(wire.isSetTime(), wire.getTime(), field + ".time"),
                requireSet(wire.isSetClientId(), field + ".clientId", wire.getClientId()),
                requireSet(wire.isSetTxnSequence(), field + ".txnSequence", wire.getTxnSequence()));
    }
}
