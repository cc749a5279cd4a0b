package io.fastccs.protocol.wire;

import static io.fastccs.protocol.wire.WireMapping.checkNonNegative;
import static io.fastccs.protocol.wire.WireMapping.checkPartition;
import static io.fastccs.protocol.wire.WireMapping.checkTimeOrMinusOne;
import static io.fastccs.protocol.wire.WireMapping.copy;
import static io.fastccs.protocol.wire.WireMapping.keys;
import static io.fastccs.protocol.wire.WireMapping.keysToWire;
import static io.fastccs.protocol.wire.WireMapping.missing;
import static io.fastccs.protocol.wire.WireMapping.nonNegative;
import static io.fastccs.protocol.wire.WireMapping.outcome;
import static io.fastccs.protocol.wire.WireMapping.outcomeToWire;
import static io.fastccs.protocol.wire.WireMapping.partition;
import static io.fastccs.protocol.wire.WireMapping.partitions;
import static io.fastccs.protocol.wire.WireMapping.partitionsToWire;
import static io.fastccs.protocol.wire.WireMapping.requireSet;
import static io.fastccs.protocol.wire.WireMapping.timeOrMinusOne;
import static io.fastccs.protocol.wire.WireMapping.tooMany;
import static io.fastccs.protocol.wire.WireMapping.txnId;
import static io.fastccs.protocol.wire.WireMapping.txnIdToWire;
import static io.fastccs.protocol.wire.WireMapping.writes;
import static io.fastccs.protocol.wire.WireMapping.writesToWire;

import io.fastccs.protocol.eiger.EigerMessages;
import io.fastccs.protocol.eiger.EigerMessages.Dep;
import io.fastccs.protocol.eiger.EigerMessages.KeyVersion;
import io.fastccs.protocol.eiger.EigerMessages.TxnStatus;
import io.fastccs.protocol.messages.Message;
import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.wire.thrift.Body;
import io.fastccs.protocol.wire.thrift.EigerAbort;
import io.fastccs.protocol.wire.thrift.EigerAck;
import io.fastccs.protocol.wire.thrift.EigerCheckTxn;
import io.fastccs.protocol.wire.thrift.EigerCheckTxnReply;
import io.fastccs.protocol.wire.thrift.EigerCohortWrite;
import io.fastccs.protocol.wire.thrift.EigerCommit;
import io.fastccs.protocol.wire.thrift.EigerCoordWrite;
import io.fastccs.protocol.wire.thrift.EigerDep;
import io.fastccs.protocol.wire.thrift.EigerKeyVersion;
import io.fastccs.protocol.wire.thrift.EigerOutcomeQuery;
import io.fastccs.protocol.wire.thrift.EigerOutcomeReply;
import io.fastccs.protocol.wire.thrift.EigerRead1;
import io.fastccs.protocol.wire.thrift.EigerReadAt;
import io.fastccs.protocol.wire.thrift.EigerReadReply;
import io.fastccs.protocol.wire.thrift.EigerTxnStatus;
import io.fastccs.protocol.wire.thrift.EigerWriteAck;
import io.fastccs.protocol.wire.thrift.EigerWriteReply;
import io.fastccs.protocol.wire.thrift.EigerYesVote;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Eiger's messages ({@link EigerMessages}) to the {@code Eiger*} structs of the schema and back, with the checks of
 * {@link WireMapping}. Lamport clocks, times, versions and stamps are never negative, except a CheckTxn's time, which
 * is -1 for a timeout check.
 */
final class EigerWire {
    private EigerWire() {
    }

    /** The body for {@code m}, or null if {@code m} is not an Eiger message. */
    static Body toWire(Message m) {
        if (m instanceof EigerMessages.Read1 r) {
            checkNonNegative(r.clock(), "EigerRead1.clock");
            return Body.eigerRead1(new EigerRead1(r.requestId(), r.clock(), keysToWire(r.keys())));
        } else if (m instanceof EigerMessages.ReadAt r) {
            checkNonNegative(r.clock(), "EigerReadAt.clock");
            checkNonNegative(r.time(), "EigerReadAt.time");
            return Body.eigerReadAt(new EigerReadAt(r.requestId(), r.clock(), keysToWire(r.keys()), r.time()));
        } else if (m instanceof EigerMessages.CohortWrite w) {
            checkNonNegative(w.clock(), "EigerCohortWrite.clock");
            checkPartition(w.coordinator(), "EigerCohortWrite.coordinator");
            return Body.eigerCohortWrite(new EigerCohortWrite(w.requestId(), w.clock(), txnIdToWire(w.txnId()),
                    w.coordinator(), keyToWire(w.coordKey()), writesToWire(w.writes())));
        } else if (m instanceof EigerMessages.CoordWrite w) {
            checkNonNegative(w.clock(), "EigerCoordWrite.clock");
            List<EigerDep> deps = new ArrayList<>(w.deps().size());
            for (Dep d : w.deps()) {
                checkNonNegative(d.version(), "EigerCoordWrite.deps[].version");
                deps.add(new EigerDep(keyToWire(d.key()), d.version()));
            }
            return Body.eigerCoordWrite(new EigerCoordWrite(w.requestId(), w.clock(), txnIdToWire(w.txnId()),
                    keyToWire(w.coordKey()), writesToWire(w.writes()),
                    partitionsToWire(w.participants(), "EigerCoordWrite.participants"), deps));
        } else if (m instanceof EigerMessages.OutcomeQuery q) {
            checkNonNegative(q.clock(), "EigerOutcomeQuery.clock");
            return Body.eigerOutcomeQuery(new EigerOutcomeQuery(q.requestId(), q.clock(), txnIdToWire(q.txnId())));
        } else if (m instanceof EigerMessages.ReadReply r) {
            checkNonNegative(r.clock(), "EigerReadReply.clock");
            List<EigerKeyVersion> values = new ArrayList<>(r.values().size());
            for (KeyVersion v : r.values()) values.add(keyVersionToWire(v));
            return Body.eigerReadReply(new EigerReadReply(r.requestId(), r.clock(), values, r.checkedCoordinator()));
        } else if (m instanceof EigerMessages.WriteAck a) {
            checkNonNegative(a.clock(), "EigerWriteAck.clock");
            return Body.eigerWriteAck(new EigerWriteAck(a.requestId(), a.clock()));
        } else if (m instanceof EigerMessages.WriteReply r) {
            checkNonNegative(r.clock(), "EigerWriteReply.clock");
            checkNonNegative(r.stamp(), "EigerWriteReply.stamp");
            return Body.eigerWriteReply(new EigerWriteReply(r.requestId(), r.clock(), outcomeToWire(r.outcome()),
                    r.stamp()));
        } else if (m instanceof EigerMessages.OutcomeReply r) {
            checkNonNegative(r.clock(), "EigerOutcomeReply.clock");
            checkNonNegative(r.stamp(), "EigerOutcomeReply.stamp");
            return Body.eigerOutcomeReply(new EigerOutcomeReply(r.requestId(), r.clock(), outcomeToWire(r.outcome()),
                    r.stamp()));
        } else if (m instanceof EigerMessages.YesVote v) {
            checkNonNegative(v.clock(), "EigerYesVote.clock");
            checkNonNegative(v.pendingTime(), "EigerYesVote.pendingTime");
            return Body.eigerYesVote(new EigerYesVote(v.clock(), txnIdToWire(v.txnId()), v.pendingTime()));
        } else if (m instanceof EigerMessages.Commit c) {
            checkNonNegative(c.clock(), "EigerCommit.clock");
            checkNonNegative(c.commitTime(), "EigerCommit.commitTime");
            return Body.eigerCommit(new EigerCommit(c.clock(), txnIdToWire(c.txnId()), c.commitTime()));
        } else if (m instanceof EigerMessages.Abort a) {
            checkNonNegative(a.clock(), "EigerAbort.clock");
            return Body.eigerAbort(new EigerAbort(a.clock(), txnIdToWire(a.txnId())));
        } else if (m instanceof EigerMessages.Ack a) {
            checkNonNegative(a.clock(), "EigerAck.clock");
            return Body.eigerAck(new EigerAck(a.clock(), txnIdToWire(a.txnId())));
        } else if (m instanceof EigerMessages.CheckTxn c) {
            checkNonNegative(c.clock(), "EigerCheckTxn.clock");
            checkTimeOrMinusOne(c.time(), "EigerCheckTxn.time");
            List<io.fastccs.protocol.wire.thrift.TxnId> ids = new ArrayList<>(c.txnIds().size());
            for (TxnId id : c.txnIds()) ids.add(txnIdToWire(id));
            return Body.eigerCheckTxn(new EigerCheckTxn(c.clock(), ids, c.time()));
        } else if (m instanceof EigerMessages.CheckTxnReply r) {
            checkNonNegative(r.clock(), "EigerCheckTxnReply.clock");
            List<EigerTxnStatus> statuses = new ArrayList<>(r.statuses().size());
            for (TxnStatus s : r.statuses()) {
                checkNonNegative(s.commitTime(), "EigerCheckTxnReply.statuses[].commitTime");
                statuses.add(new EigerTxnStatus(txnIdToWire(s.txnId()), outcomeToWire(s.outcome()), s.commitTime()));
            }
            return Body.eigerCheckTxnReply(new EigerCheckTxnReply(r.clock(), statuses));
        }
        return null;
    }

    private static ByteBuffer keyToWire(Key k) {
        return ByteBuffer.wrap(k.unsafeBytes());
    }

    private static EigerKeyVersion keyVersionToWire(KeyVersion v) {
        checkNonNegative(v.version(), "EigerReadReply.values[].version");
        checkNonNegative(v.evt(), "EigerReadReply.values[].evt");
        checkNonNegative(v.lvt(), "EigerReadReply.values[].lvt");
        var w = new EigerKeyVersion(keyToWire(v.key()), v.version(), v.evt(), v.lvt());
        if (v.value() != null) w.setValue(v.value());
        if (v.coordKey() != null) w.setCoordKey(keyToWire(v.coordKey()));
        return w;
    }

    static Message fromWire(Body body, WireLimits limits) throws MalformedFrameException {
        return switch (body.getSetField()) {
            case EIGER_READ1 -> {
                var w = body.getEigerRead1();
                yield new EigerMessages.Read1(
                        requireSet(w.isSetRequestId(), "EigerRead1.requestId", w.getRequestId()),
                        nonNegative(w.isSetClock(), w.getClock(), "EigerRead1.clock"),
                        keys(w.getKeys(), "EigerRead1.keys", limits));
            }
            case EIGER_READ_AT -> {
                var w = body.getEigerReadAt();
                yield new EigerMessages.ReadAt(
                        requireSet(w.isSetRequestId(), "EigerReadAt.requestId", w.getRequestId()),
                        nonNegative(w.isSetClock(), w.getClock(), "EigerReadAt.clock"),
                        keys(w.getKeys(), "EigerReadAt.keys", limits),
                        nonNegative(w.isSetTime(), w.getTime(), "EigerReadAt.time"));
            }
            case EIGER_COHORT_WRITE -> {
                var w = body.getEigerCohortWrite();
                yield new EigerMessages.CohortWrite(
                        requireSet(w.isSetRequestId(), "EigerCohortWrite.requestId", w.getRequestId()),
                        nonNegative(w.isSetClock(), w.getClock(), "EigerCohortWrite.clock"),
                        txnId(w.getTxnId(), "EigerCohortWrite.txnId"),
                        partition(w.isSetCoordinator(), w.getCoordinator(), "EigerCohortWrite.coordinator"),
                        key(w.bufferForCoordKey(), "EigerCohortWrite.coordKey"),
                        writes(w.getWrites(), "EigerCohortWrite.writes", limits));
            }
            case EIGER_COORD_WRITE -> {
                var w = body.getEigerCoordWrite();
                yield new EigerMessages.CoordWrite(
                        requireSet(w.isSetRequestId(), "EigerCoordWrite.requestId", w.getRequestId()),
                        nonNegative(w.isSetClock(), w.getClock(), "EigerCoordWrite.clock"),
                        txnId(w.getTxnId(), "EigerCoordWrite.txnId"),
                        key(w.bufferForCoordKey(), "EigerCoordWrite.coordKey"),
                        writes(w.getWrites(), "EigerCoordWrite.writes", limits),
                        partitions(w.getParticipants(), "EigerCoordWrite.participants", limits),
                        deps(w.getDeps(), limits));
            }
            case EIGER_OUTCOME_QUERY -> {
                var w = body.getEigerOutcomeQuery();
                yield new EigerMessages.OutcomeQuery(
                        requireSet(w.isSetRequestId(), "EigerOutcomeQuery.requestId", w.getRequestId()),
                        nonNegative(w.isSetClock(), w.getClock(), "EigerOutcomeQuery.clock"),
                        txnId(w.getTxnId(), "EigerOutcomeQuery.txnId"));
            }
            case EIGER_READ_REPLY -> {
                var w = body.getEigerReadReply();
                if (!w.isSetCheckedCoordinator()) throw missing("EigerReadReply.checkedCoordinator");
                yield new EigerMessages.ReadReply(
                        requireSet(w.isSetRequestId(), "EigerReadReply.requestId", w.getRequestId()),
                        nonNegative(w.isSetClock(), w.getClock(), "EigerReadReply.clock"),
                        keyVersions(w.getValues(), limits),
                        w.isCheckedCoordinator());
            }
            case EIGER_WRITE_ACK -> {
                var w = body.getEigerWriteAck();
                yield new EigerMessages.WriteAck(
                        requireSet(w.isSetRequestId(), "EigerWriteAck.requestId", w.getRequestId()),
                        nonNegative(w.isSetClock(), w.getClock(), "EigerWriteAck.clock"));
            }
            case EIGER_WRITE_REPLY -> {
                var w = body.getEigerWriteReply();
                yield new EigerMessages.WriteReply(
                        requireSet(w.isSetRequestId(), "EigerWriteReply.requestId", w.getRequestId()),
                        nonNegative(w.isSetClock(), w.getClock(), "EigerWriteReply.clock"),
                        outcome(w.getOutcome(), "EigerWriteReply.outcome"),
                        nonNegative(w.isSetStamp(), w.getStamp(), "EigerWriteReply.stamp"));
            }
            case EIGER_OUTCOME_REPLY -> {
                var w = body.getEigerOutcomeReply();
                yield new EigerMessages.OutcomeReply(
                        requireSet(w.isSetRequestId(), "EigerOutcomeReply.requestId", w.getRequestId()),
                        nonNegative(w.isSetClock(), w.getClock(), "EigerOutcomeReply.clock"),
                        outcome(w.getOutcome(), "EigerOutcomeReply.outcome"),
                        nonNegative(w.isSetStamp(), w.getStamp(), "EigerOutcomeReply.stamp"));
            }
            case EIGER_YES_VOTE -> {
                var w = body.getEigerYesVote();
                yield new EigerMessages.YesVote(
                        nonNegative(w.isSetClock(), w.getClock(), "EigerYesVote.clock"),
                        txnId(w.getTxnId(), "EigerYesVote.txnId"),
                        nonNegative(w.isSetPendingTime(), w.getPendingTime(), "EigerYesVote.pendingTime"));
            }
            case EIGER_COMMIT -> {
                var w = body.getEigerCommit();
                yield new EigerMessages.Commit(
                        nonNegative(w.isSetClock(), w.getClock(), "EigerCommit.clock"),
                        txnId(w.getTxnId(), "EigerCommit.txnId"),
                        nonNegative(w.isSetCommitTime(), w.getCommitTime(), "EigerCommit.commitTime"));
            }
            case EIGER_ABORT -> {
                var w = body.getEigerAbort();
                yield new EigerMessages.Abort(
                        nonNegative(w.isSetClock(), w.getClock(), "EigerAbort.clock"),
                        txnId(w.getTxnId(), "EigerAbort.txnId"));
            }
            case EIGER_ACK -> {
                var w = body.getEigerAck();
                yield new EigerMessages.Ack(
                        nonNegative(w.isSetClock(), w.getClock(), "EigerAck.clock"),
                        txnId(w.getTxnId(), "EigerAck.txnId"));
            }
            case EIGER_CHECK_TXN -> {
                var w = body.getEigerCheckTxn();
                yield new EigerMessages.CheckTxn(
                        nonNegative(w.isSetClock(), w.getClock(), "EigerCheckTxn.clock"),
                        txnIds(w.getTxnIds(), limits),
                        timeOrMinusOne(w.isSetTime(), w.getTime(), "EigerCheckTxn.time"));
            }
            case EIGER_CHECK_TXN_REPLY -> {
                var w = body.getEigerCheckTxnReply();
                yield new EigerMessages.CheckTxnReply(
                        nonNegative(w.isSetClock(), w.getClock(), "EigerCheckTxnReply.clock"),
                        statuses(w.getStatuses(), limits));
            }
            default -> throw new IllegalStateException("not an Eiger message: " + body.getSetField());
        };
    }

    private static Key key(ByteBuffer wire, String field) throws MalformedFrameException {
        if (wire == null) throw missing(field);
        return Key.wrap(copy(wire));
    }

    private static List<Dep> deps(List<EigerDep> wire, WireLimits limits) throws MalformedFrameException {
        String field = "EigerCoordWrite.deps";
        if (wire == null) throw missing(field);
        if (wire.size() > limits.maxKeysPerMessage()) throw tooMany(field, wire.size(), limits.maxKeysPerMessage());
        List<Dep> out = new ArrayList<>(wire.size());
        for (EigerDep d : wire)
            out.add(new Dep(key(d.bufferForKey(), field + "[].key"),
                    nonNegative(d.isSetVersion(), d.getVersion(), field + "[].version")));
        return out;
    }

    private static List<KeyVersion> keyVersions(List<EigerKeyVersion> wire, WireLimits limits)
            throws MalformedFrameException {
        String field = "EigerReadReply.values";
        if (wire == null) throw missing(field);
        if (wire.size() > limits.maxKeysPerMessage()) throw tooMany(field, wire.size(), limits.maxKeysPerMessage());
        List<KeyVersion> out = new ArrayList<>(wire.size());
        for (EigerKeyVersion v : wire)
            out.add(new KeyVersion(key(v.bufferForKey(), field + "[].key"),
                    v.isSetValue() ? copy(v.bufferForValue()) : null,
                    nonNegative(v.isSetVersion(), v.getVersion(), field + "[].version"),
                    nonNegative(v.isSetEvt(), v.getEvt(), field + "[].evt"),
                    nonNegative(v.isSetLvt(), v.getLvt(), field + "[].lvt"),
                    v.isSetCoordKey() ? Key.wrap(copy(v.bufferForCoordKey())) : null));
        return out;
    }

    private static List<TxnId> txnIds(List<io.fastccs.protocol.wire.thrift.TxnId> wire, WireLimits limits)
            throws MalformedFrameException {
        String field = "EigerCheckTxn.txnIds";
        if (wire == null) throw missing(field);
        if (wire.size() > limits.maxKeysPerMessage()) throw tooMany(field, wire.size(), limits.maxKeysPerMessage());
        List<TxnId> out = new ArrayList<>(wire.size());
        for (var id : wire) out.add(txnId(id, field + "[]"));
        return out;
    }

    private static List<TxnStatus> statuses(List<EigerTxnStatus> wire, WireLimits limits)
            throws MalformedFrameException {
        String field = "EigerCheckTxnReply.statuses";
        if (wire == null) throw missing(field);
        if (wire.size() > limits.maxKeysPerMessage()) throw tooMany(field, wire.size(), limits.maxKeysPerMessage());
        List<TxnStatus> out = new ArrayList<>(wire.size());
        for (EigerTxnStatus s : wire)
            out.add(new TxnStatus(txnId(s.getTxnId(), field + "[].txnId"),
                    outcome(s.getOutcome(), field + "[].outcome"),
                    nonNegative(s.isSetCommitTime(), s.getCommitTime(), field + "[].commitTime")));
        return out;
    }
}
