package io.fastccs.baselines.eiger;

import static io.fastccs.core.wire.CoreStructs.outcome;
import static io.fastccs.core.wire.CoreStructs.outcomeToWire;
import static io.fastccs.core.wire.CoreStructs.txnId;
import static io.fastccs.core.wire.CoreStructs.txnIdToWire;
import static io.fastccs.core.wire.CoreStructs.writes;
import static io.fastccs.core.wire.CoreStructs.writesToWire;
import static io.fastccs.core.wire.WireChecks.checkNonNegative;
import static io.fastccs.core.wire.WireChecks.checkPartition;
import static io.fastccs.core.wire.WireChecks.checkTimeOrMinusOne;
import static io.fastccs.core.wire.WireChecks.copy;
import static io.fastccs.core.wire.WireChecks.keys;
import static io.fastccs.core.wire.WireChecks.keysToWire;
import static io.fastccs.core.wire.WireChecks.missing;
import static io.fastccs.core.wire.WireChecks.nonNegative;
import static io.fastccs.core.wire.WireChecks.partition;
import static io.fastccs.core.wire.WireChecks.partitions;
import static io.fastccs.core.wire.WireChecks.partitionsToWire;
import static io.fastccs.core.wire.WireChecks.requireSet;
import static io.fastccs.core.wire.WireChecks.timeOrMinusOne;
import static io.fastccs.core.wire.WireChecks.tooMany;

import io.fastccs.baselines.eiger.wire.thrift.EigerAbort;
import io.fastccs.baselines.eiger.wire.thrift.EigerAck;
import io.fastccs.baselines.eiger.wire.thrift.EigerBody;
import io.fastccs.baselines.eiger.wire.thrift.EigerCheckTxn;
import io.fastccs.baselines.eiger.wire.thrift.EigerCheckTxnReply;
import io.fastccs.baselines.eiger.wire.thrift.EigerCohortWrite;
import io.fastccs.baselines.eiger.wire.thrift.EigerCommit;
import io.fastccs.baselines.eiger.wire.thrift.EigerCoordWrite;
import io.fastccs.baselines.eiger.wire.thrift.EigerDep;
import io.fastccs.baselines.eiger.wire.thrift.EigerKeyVersion;
import io.fastccs.baselines.eiger.wire.thrift.EigerOutcomeQuery;
import io.fastccs.baselines.eiger.wire.thrift.EigerOutcomeReply;
import io.fastccs.baselines.eiger.wire.thrift.EigerRead1;
import io.fastccs.baselines.eiger.wire.thrift.EigerReadAt;
import io.fastccs.baselines.eiger.wire.thrift.EigerReadReply;
import io.fastccs.baselines.eiger.wire.thrift.EigerTxnStatus;
import io.fastccs.baselines.eiger.wire.thrift.EigerWriteAck;
import io.fastccs.baselines.eiger.wire.thrift.EigerWriteReply;
import io.fastccs.baselines.eiger.wire.thrift.EigerYesVote;
import io.fastccs.baselines.eiger.EigerMessages.Dep;
import io.fastccs.baselines.eiger.EigerMessages.KeyVersion;
import io.fastccs.baselines.eiger.EigerMessages.TxnStatus;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.core.wire.ProtocolWire;
import io.fastccs.core.wire.WireLimits;
import io.fastccs.core.wire.WireMember;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Eiger's messages ({@link EigerMessages}) to the structs of {@code eiger.thrift} and back ({@code EigerBody}: member
 * ids 40-54), with the wire's shared checks. Lamport clocks, times, versions and stamps are never negative, except a
 * CheckTxn's time, which is -1 for a timeout check.
 */
public final class EigerWire implements ProtocolWire {
    @Override
    public List<WireMember<?, ?>> members() {
        return List.of(
                WireMember.of(EigerBody._Fields.EIGER_READ1, EigerMessages.Read1.class, EigerRead1::new,
                        r -> {
                            checkNonNegative(r.clock(), "EigerRead1.clock");
                            return new EigerRead1(r.requestId(), r.clock(), keysToWire(r.keys()));
                        },
                        (w, limits) -> new EigerMessages.Read1(
                                requireSet(w.isSetRequestId(), "EigerRead1.requestId", w.getRequestId()),
                                nonNegative(w.isSetClock(), w.getClock(), "EigerRead1.clock"),
                                keys(w.getKeys(), "EigerRead1.keys", limits))),
                WireMember.of(EigerBody._Fields.EIGER_READ_AT, EigerMessages.ReadAt.class, EigerReadAt::new,
                        r -> {
                            checkNonNegative(r.clock(), "EigerReadAt.clock");
                            checkNonNegative(r.time(), "EigerReadAt.time");
                            return new EigerReadAt(r.requestId(), r.clock(), keysToWire(r.keys()), r.time());
                        },
                        (w, limits) -> new EigerMessages.ReadAt(
                                requireSet(w.isSetRequestId(), "EigerReadAt.requestId", w.getRequestId()),
                                nonNegative(w.isSetClock(), w.getClock(), "EigerReadAt.clock"),
                                keys(w.getKeys(), "EigerReadAt.keys", limits),
                                nonNegative(w.isSetTime(), w.getTime(), "EigerReadAt.time"))),
                WireMember.of(EigerBody._Fields.EIGER_COHORT_WRITE, EigerMessages.CohortWrite.class, EigerCohortWrite::new,
                        w -> {
                            checkNonNegative(w.clock(), "EigerCohortWrite.clock");
                            checkPartition(w.coordinator(), "EigerCohortWrite.coordinator");
                            return new EigerCohortWrite(w.requestId(), w.clock(), txnIdToWire(w.txnId()),
                                    w.coordinator(), keyToWire(w.coordKey()), writesToWire(w.writes()));
                        },
                        (w, limits) -> new EigerMessages.CohortWrite(
                                requireSet(w.isSetRequestId(), "EigerCohortWrite.requestId", w.getRequestId()),
                                nonNegative(w.isSetClock(), w.getClock(), "EigerCohortWrite.clock"),
                                txnId(w.getTxnId(), "EigerCohortWrite.txnId"),
                                partition(w.isSetCoordinator(), w.getCoordinator(), "EigerCohortWrite.coordinator"),
                                key(w.bufferForCoordKey(), "EigerCohortWrite.coordKey"),
                                writes(w.getWrites(), "EigerCohortWrite.writes", limits))),
                WireMember.of(EigerBody._Fields.EIGER_COORD_WRITE, EigerMessages.CoordWrite.class, EigerCoordWrite::new,
                        w -> {
                            checkNonNegative(w.clock(), "EigerCoordWrite.clock");
                            List<EigerDep> deps = new ArrayList<>(w.deps().size());
                            for (Dep d : w.deps()) {
                                checkNonNegative(d.version(), "EigerCoordWrite.deps[].version");
                                deps.add(new EigerDep(keyToWire(d.key()), d.version()));
                            }
                            return new EigerCoordWrite(w.requestId(), w.clock(), txnIdToWire(w.txnId()),
                                    keyToWire(w.coordKey()), writesToWire(w.writes()),
                                    partitionsToWire(w.participants(), "EigerCoordWrite.participants"), deps);
                        },
                        (w, limits) -> new EigerMessages.CoordWrite(
                                requireSet(w.isSetRequestId(), "EigerCoordWrite.requestId", w.getRequestId()),
                                nonNegative(w.isSetClock(), w.getClock(), "EigerCoordWrite.clock"),
                                txnId(w.getTxnId(), "EigerCoordWrite.txnId"),
                                key(w.bufferForCoordKey(), "EigerCoordWrite.coordKey"),
                                writes(w.getWrites(), "EigerCoordWrite.writes", limits),
                                partitions(w.getParticipants(), "EigerCoordWrite.participants", limits),
                                deps(w.getDeps(), limits))),
                WireMember.of(EigerBody._Fields.EIGER_OUTCOME_QUERY, EigerMessages.OutcomeQuery.class, EigerOutcomeQuery::new,
                        q -> {
                            checkNonNegative(q.clock(), "EigerOutcomeQuery.clock");
                            return new EigerOutcomeQuery(q.requestId(), q.clock(), txnIdToWire(q.txnId()));
                        },
                        (w, limits) -> new EigerMessages.OutcomeQuery(
                                requireSet(w.isSetRequestId(), "EigerOutcomeQuery.requestId", w.getRequestId()),
                                nonNegative(w.isSetClock(), w.getClock(), "EigerOutcomeQuery.clock"),
                                txnId(w.getTxnId(), "EigerOutcomeQuery.txnId"))),
                WireMember.of(EigerBody._Fields.EIGER_READ_REPLY, EigerMessages.ReadReply.class, EigerReadReply::new,
                        r -> {
                            checkNonNegative(r.clock(), "EigerReadReply.clock");
                            List<EigerKeyVersion> values = new ArrayList<>(r.values().size());
                            for (KeyVersion v : r.values()) values.add(keyVersionToWire(v));
                            return new EigerReadReply(r.requestId(), r.clock(), values, r.checkedCoordinator());
                        },
                        (w, limits) -> {
                            if (!w.isSetCheckedCoordinator()) throw missing("EigerReadReply.checkedCoordinator");
                            return new EigerMessages.ReadReply(
                                    requireSet(w.isSetRequestId(), "EigerReadReply.requestId", w.getRequestId()),
                                    nonNegative(w.isSetClock(), w.getClock(), "EigerReadReply.clock"),
                                    keyVersions(w.getValues(), limits),
                                    w.isCheckedCoordinator());
                        }),
                WireMember.of(EigerBody._Fields.EIGER_WRITE_ACK, EigerMessages.WriteAck.class, EigerWriteAck::new,
                        a -> {
                            checkNonNegative(a.clock(), "EigerWriteAck.clock");
                            return new EigerWriteAck(a.requestId(), a.clock());
                        },
                        (w, limits) -> new EigerMessages.WriteAck(
                                requireSet(w.isSetRequestId(), "EigerWriteAck.requestId", w.getRequestId()),
                                nonNegative(w.isSetClock(), w.getClock(), "EigerWriteAck.clock"))),
                WireMember.of(EigerBody._Fields.EIGER_WRITE_REPLY, EigerMessages.WriteReply.class, EigerWriteReply::new,
                        r -> {
                            checkNonNegative(r.clock(), "EigerWriteReply.clock");
                            checkNonNegative(r.stamp(), "EigerWriteReply.stamp");
                            return new EigerWriteReply(r.requestId(), r.clock(), outcomeToWire(r.outcome()), r.stamp());
                        },
                        (w, limits) -> new EigerMessages.WriteReply(
                                requireSet(w.isSetRequestId(), "EigerWriteReply.requestId", w.getRequestId()),
                                nonNegative(w.isSetClock(), w.getClock(), "EigerWriteReply.clock"),
                                outcome(w.getOutcome(), "EigerWriteReply.outcome"),
                                nonNegative(w.isSetStamp(), w.getStamp(), "EigerWriteReply.stamp"))),
                WireMember.of(EigerBody._Fields.EIGER_OUTCOME_REPLY, EigerMessages.OutcomeReply.class, EigerOutcomeReply::new,
                        r -> {
                            checkNonNegative(r.clock(), "EigerOutcomeReply.clock");
                            checkNonNegative(r.stamp(), "EigerOutcomeReply.stamp");
                            return new EigerOutcomeReply(r.requestId(), r.clock(), outcomeToWire(r.outcome()), r.stamp());
                        },
                        (w, limits) -> new EigerMessages.OutcomeReply(
                                requireSet(w.isSetRequestId(), "EigerOutcomeReply.requestId", w.getRequestId()),
                                nonNegative(w.isSetClock(), w.getClock(), "EigerOutcomeReply.clock"),
                                outcome(w.getOutcome(), "EigerOutcomeReply.outcome"),
                                nonNegative(w.isSetStamp(), w.getStamp(), "EigerOutcomeReply.stamp"))),
                WireMember.of(EigerBody._Fields.EIGER_YES_VOTE, EigerMessages.YesVote.class, EigerYesVote::new,
                        v -> {
                            checkNonNegative(v.clock(), "EigerYesVote.clock");
                            checkNonNegative(v.pendingTime(), "EigerYesVote.pendingTime");
                            return new EigerYesVote(v.clock(), txnIdToWire(v.txnId()), v.pendingTime());
                        },
                        (w, limits) -> new EigerMessages.YesVote(
                                nonNegative(w.isSetClock(), w.getClock(), "EigerYesVote.clock"),
                                txnId(w.getTxnId(), "EigerYesVote.txnId"),
                                nonNegative(w.isSetPendingTime(), w.getPendingTime(), "EigerYesVote.pendingTime"))),
                WireMember.of(EigerBody._Fields.EIGER_COMMIT, EigerMessages.Commit.class, EigerCommit::new,
                        c -> {
                            checkNonNegative(c.clock(), "EigerCommit.clock");
                            checkNonNegative(c.commitTime(), "EigerCommit.commitTime");
                            return new EigerCommit(c.clock(), txnIdToWire(c.txnId()), c.commitTime());
                        },
                        (w, limits) -> new EigerMessages.Commit(
                                nonNegative(w.isSetClock(), w.getClock(), "EigerCommit.clock"),
                                txnId(w.getTxnId(), "EigerCommit.txnId"),
                                nonNegative(w.isSetCommitTime(), w.getCommitTime(), "EigerCommit.commitTime"))),
                WireMember.of(EigerBody._Fields.EIGER_ABORT, EigerMessages.Abort.class, EigerAbort::new,
                        a -> {
                            checkNonNegative(a.clock(), "EigerAbort.clock");
                            return new EigerAbort(a.clock(), txnIdToWire(a.txnId()));
                        },
                        (w, limits) -> new EigerMessages.Abort(
                                nonNegative(w.isSetClock(), w.getClock(), "EigerAbort.clock"),
                                txnId(w.getTxnId(), "EigerAbort.txnId"))),
                WireMember.of(EigerBody._Fields.EIGER_ACK, EigerMessages.Ack.class, EigerAck::new,
                        a -> {
                            checkNonNegative(a.clock(), "EigerAck.clock");
                            return new EigerAck(a.clock(), txnIdToWire(a.txnId()));
                        },
                        (w, limits) -> new EigerMessages.Ack(
                                nonNegative(w.isSetClock(), w.getClock(), "EigerAck.clock"),
                                txnId(w.getTxnId(), "EigerAck.txnId"))),
                WireMember.of(EigerBody._Fields.EIGER_CHECK_TXN, EigerMessages.CheckTxn.class, EigerCheckTxn::new,
                        c -> {
                            checkNonNegative(c.clock(), "EigerCheckTxn.clock");
                            checkTimeOrMinusOne(c.time(), "EigerCheckTxn.time");
                            List<io.fastccs.core.wire.thrift.TxnId> ids = new ArrayList<>(c.txnIds().size());
                            for (TxnId id : c.txnIds()) ids.add(txnIdToWire(id));
                            return new EigerCheckTxn(c.clock(), ids, c.time());
                        },
                        (w, limits) -> new EigerMessages.CheckTxn(
                                nonNegative(w.isSetClock(), w.getClock(), "EigerCheckTxn.clock"),
                                txnIds(w.getTxnIds(), limits),
                                timeOrMinusOne(w.isSetTime(), w.getTime(), "EigerCheckTxn.time"))),
                WireMember.of(EigerBody._Fields.EIGER_CHECK_TXN_REPLY, EigerMessages.CheckTxnReply.class,
                        EigerCheckTxnReply::new,
                        r -> {
                            checkNonNegative(r.clock(), "EigerCheckTxnReply.clock");
                            List<EigerTxnStatus> statuses = new ArrayList<>(r.statuses().size());
                            for (TxnStatus s : r.statuses()) {
                                checkNonNegative(s.commitTime(), "EigerCheckTxnReply.statuses[].commitTime");
                                statuses.add(new EigerTxnStatus(txnIdToWire(s.txnId()), outcomeToWire(s.outcome()), s.commitTime()));
                            }
                            return new EigerCheckTxnReply(r.clock(), statuses);
                        },
                        (w, limits) -> new EigerMessages.CheckTxnReply(
                                nonNegative(w.isSetClock(), w.getClock(), "EigerCheckTxnReply.clock"),
                                statuses(w.getStatuses(), limits))));
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

    private static List<TxnId> txnIds(List<io.fastccs.core.wire.thrift.TxnId> wire, WireLimits limits)
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
