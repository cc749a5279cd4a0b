package io.fastccs.baselines.eventual;

import static io.fastccs.core.wire.CoreStructs.readValues;
import static io.fastccs.core.wire.CoreStructs.readValuesToWire;
import static io.fastccs.core.wire.CoreStructs.txnId;
import static io.fastccs.core.wire.CoreStructs.txnIdToWire;
import static io.fastccs.core.wire.CoreStructs.writes;
import static io.fastccs.core.wire.CoreStructs.writesToWire;
import static io.fastccs.core.wire.WireChecks.checkNonNegative;
import static io.fastccs.core.wire.WireChecks.keys;
import static io.fastccs.core.wire.WireChecks.keysToWire;
import static io.fastccs.core.wire.WireChecks.missing;
import static io.fastccs.core.wire.WireChecks.nonNegative;
import static io.fastccs.core.wire.WireChecks.requireSet;

import io.fastccs.baselines.eventual.wire.thrift.EventualBody;
import io.fastccs.baselines.eventual.wire.thrift.EventualRead;
import io.fastccs.baselines.eventual.wire.thrift.EventualReadAnswer;
import io.fastccs.baselines.eventual.wire.thrift.EventualWrite;
import io.fastccs.baselines.eventual.wire.thrift.EventualWriteAnswer;
import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.core.wire.ProtocolWire;
import io.fastccs.core.wire.WireMember;

import java.util.List;

/**
 * The eventual protocol's messages ({@link EventualMessages}) to the structs of {@code eventual.thrift} and back
 * ({@code EventualBody}: member ids 30-33), with the wire's shared checks. Times (Lamport) are never negative; request
 * ids and stamp tie-breakers may be anything.
 */
public final class EventualWire implements ProtocolWire {
    @Override
    public List<WireMember<?, ?>> members() {
        return List.of(
                WireMember.of(EventualBody._Fields.EVENTUAL_READ, EventualMessages.Read.class, EventualRead::new,
                        r -> new EventualRead(r.requestId(), keysToWire(r.keys())),
                        (w, limits) -> new EventualMessages.Read(
                                requireSet(w.isSetRequestId(), "EventualRead.requestId", w.getRequestId()),
                                keys(w.getKeys(), "EventualRead.keys", limits))),
                WireMember.of(EventualBody._Fields.EVENTUAL_READ_ANSWER, EventualMessages.ReadAnswer.class,
                        EventualReadAnswer::new,
                        r -> {
                            checkNonNegative(r.time(), "EventualReadAnswer.time");
                            return new EventualReadAnswer(r.requestId(),
                                    readValuesToWire(r.values(), "EventualReadAnswer.values[].sequence"), r.time());
                        },
                        (w, limits) -> new EventualMessages.ReadAnswer(
                                requireSet(w.isSetRequestId(), "EventualReadAnswer.requestId", w.getRequestId()),
                                readValues(w.getValues(), "EventualReadAnswer.values", limits),
                                nonNegative(w.isSetTime(), w.getTime(), "EventualReadAnswer.time"))),
                WireMember.of(EventualBody._Fields.EVENTUAL_WRITE, EventualMessages.Write.class, EventualWrite::new,
                        w -> {
                            EventualStamp s = w.stamp();
                            checkNonNegative(s.time(), "EventualWrite.stamp.time");
                            return new EventualWrite(w.requestId(), txnIdToWire(w.txnId()),
                                    new io.fastccs.baselines.eventual.wire.thrift.EventualStamp(s.time(), s.clientId(), s.txnSequence()),
                                    writesToWire(w.writes()));
                        },
                        (w, limits) -> new EventualMessages.Write(
                                requireSet(w.isSetRequestId(), "EventualWrite.requestId", w.getRequestId()),
                                txnId(w.getTxnId(), "EventualWrite.txnId"),
                                stamp(w.getStamp(), "EventualWrite.stamp"),
                                writes(w.getWrites(), "EventualWrite.writes", limits))),
                WireMember.of(EventualBody._Fields.EVENTUAL_WRITE_ANSWER, EventualMessages.WriteAnswer.class,
                        EventualWriteAnswer::new,
                        a -> {
                            checkNonNegative(a.time(), "EventualWriteAnswer.time");
                            return new EventualWriteAnswer(a.requestId(), a.time());
                        },
                        (w, limits) -> new EventualMessages.WriteAnswer(
                                requireSet(w.isSetRequestId(), "EventualWriteAnswer.requestId", w.getRequestId()),
                                nonNegative(w.isSetTime(), w.getTime(), "EventualWriteAnswer.time"))));
    }

    private static EventualStamp stamp(io.fastccs.baselines.eventual.wire.thrift.EventualStamp wire, String field)
            throws MalformedFrameException {
        if (wire == null) throw missing(field);
        return new EventualStamp(nonNegative(wire.isSetTime(), wire.getTime(), field + ".time"),
                requireSet(wire.isSetClientId(), field + ".clientId", wire.getClientId()),
                requireSet(wire.isSetTxnSequence(), field + ".txnSequence", wire.getTxnSequence()));
    }
}
