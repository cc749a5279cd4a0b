package io.fastccs.protocol.wire;

import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.core.wire.ProtocolWire;
import io.fastccs.core.wire.WireLimits;
import io.fastccs.core.wire.WireMember;
import static io.fastccs.core.wire.CoreStructs.outcome;
import static io.fastccs.core.wire.CoreStructs.outcomeToWire;
import static io.fastccs.core.wire.CoreStructs.readValues;
import static io.fastccs.core.wire.CoreStructs.readValuesToWire;
import static io.fastccs.core.wire.CoreStructs.txnId;
import static io.fastccs.core.wire.CoreStructs.txnIdToWire;
import static io.fastccs.core.wire.CoreStructs.writes;
import static io.fastccs.core.wire.CoreStructs.writesToWire;
import static io.fastccs.core.wire.WireChecks.checkPartition;
import static io.fastccs.core.wire.WireChecks.checkSequence;
import static io.fastccs.core.wire.WireChecks.copy;
import static io.fastccs.core.wire.WireChecks.invalid;
import static io.fastccs.core.wire.WireChecks.keys;
import static io.fastccs.core.wire.WireChecks.keysToWire;
import static io.fastccs.core.wire.WireChecks.missing;
import static io.fastccs.core.wire.WireChecks.nonNegative;
import static io.fastccs.core.wire.WireChecks.nonNegativeTime;
import static io.fastccs.core.wire.WireChecks.partition;
import static io.fastccs.core.wire.WireChecks.partitions;
import static io.fastccs.core.wire.WireChecks.partitionsToWire;
import static io.fastccs.core.wire.WireChecks.requireSet;
import static io.fastccs.core.wire.WireChecks.sequence;
import static io.fastccs.core.wire.WireChecks.tooMany;
import static io.fastccs.core.wire.WireChecks.writeKind;

import io.fastccs.protocol.messages.Abort;
import io.fastccs.protocol.messages.CheckCommit;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.protocol.messages.Refused;
import io.fastccs.protocol.messages.StatusQuery;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.Settled;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.protocol.messages.StabilizeDown;
import io.fastccs.protocol.messages.StabilizeUp;
import io.fastccs.protocol.messages.WaitingVersion;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.primitives.WriteKind;
import io.fastccs.protocol.wire.thrift.FastCcsBody;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * FastCCS's messages to the structs of {@code fastccs.thrift} and back ({@code FastCcsBody}: member ids 1-7, 9-19 and
 * 24-26), with the checks of {@link io.fastccs.core.wire.WireChecks}; the compact ones are {@link CompactWire}'s. The generated structs
 * share their simple names with the records, so they are written fully qualified.
 */
public final class FastCcsWire implements ProtocolWire {
    @Override
    public List<WireMember<?, ?>> members() {
        List<WireMember<?, ?>> out = new ArrayList<>(List.of(
                WireMember.of(FastCcsBody._Fields.FIRST_ROUND_READ, FirstRoundRead.class,
                        io.fastccs.protocol.wire.thrift.FirstRoundRead::new,
                        r -> new io.fastccs.protocol.wire.thrift.FirstRoundRead(
                                r.requestId(), keysToWire(r.keys()), clockToWire(r.clock())),
                        (w, limits) -> new FirstRoundRead(
                                requireSet(w.isSetRequestId(), "FirstRoundRead.requestId", w.getRequestId()),
                                keys(w.getKeys(), "FirstRoundRead.keys", limits),
                                clock(w.getClock(), "FirstRoundRead.clock", limits))),
                WireMember.of(FastCcsBody._Fields.SECOND_ROUND_READ, SecondRoundRead.class,
                        io.fastccs.protocol.wire.thrift.SecondRoundRead::new,
                        r -> new io.fastccs.protocol.wire.thrift.SecondRoundRead(
                                r.requestId(), keysToWire(r.keys()), clockToWire(r.clock()), r.firstRoundTime()),
                        (w, limits) -> new SecondRoundRead(
                                requireSet(w.isSetRequestId(), "SecondRoundRead.requestId", w.getRequestId()),
                                keys(w.getKeys(), "SecondRoundRead.keys", limits),
                                clock(w.getClock(), "SecondRoundRead.clock", limits),
                                requireSet(w.isSetFirstRoundTime(), "SecondRoundRead.firstRoundTime", w.getFirstRoundTime()))),
                WireMember.of(FastCcsBody._Fields.WRITE_REQUEST, WriteRequest.class,
                        io.fastccs.protocol.wire.thrift.WriteRequest::new,
                        r -> {
                            checkPartition(r.coordinator(), "WriteRequest.coordinator");
                            var writes = writesToWire(r.writes());
                            return new io.fastccs.protocol.wire.thrift.WriteRequest(r.requestId(),
                                    txnIdToWire(r.txnId()), r.coordinator(),
                                    partitionsToWire(r.participants(), "WriteRequest.participants"), writes, clockToWire(r.clock()),
                                    nonNegativeTime(r.dependencyTime(), "WriteRequest.dependencyTime"));
                        },
                        (w, limits) -> new WriteRequest(
                                requireSet(w.isSetRequestId(), "WriteRequest.requestId", w.getRequestId()),
                                txnId(w.getTxnId(), "WriteRequest.txnId"),
                                partition(w.isSetCoordinator(), w.getCoordinator(), "WriteRequest.coordinator"),
                                partitions(w.getParticipants(), "WriteRequest.participants", limits),
                                writes(w.getWrites(), "WriteRequest.writes", limits),
                                clock(w.getClock(), "WriteRequest.clock", limits),
                                nonNegative(w.isSetDependencyTime(), w.getDependencyTime(), "WriteRequest.dependencyTime"))),
                WireMember.of(FastCcsBody._Fields.OUTCOME_QUERY, OutcomeQuery.class,
                        io.fastccs.protocol.wire.thrift.OutcomeQuery::new,
                        q -> new io.fastccs.protocol.wire.thrift.OutcomeQuery(q.requestId(), txnIdToWire(q.txnId())),
                        (w, limits) -> new OutcomeQuery(
                                requireSet(w.isSetRequestId(), "OutcomeQuery.requestId", w.getRequestId()),
                                txnId(w.getTxnId(), "OutcomeQuery.txnId"))),
                WireMember.of(FastCcsBody._Fields.READ_REPLY, ReadReply.class,
                        io.fastccs.protocol.wire.thrift.ReadReply::new,
                        r -> {
                            var values = readValuesToWire(r.values(), "ReadValue.sequence");
                            var w = new io.fastccs.protocol.wire.thrift.ReadReply(r.requestId(), values,
                                    clockToWire(r.snapshot()), clockToWire(r.maxCommitClock()), r.serverTime(),
                                    nonNegativeTime(r.maxCommitTime(), "ReadReply.maxCommitTime"));
                            if (r.waitingComplete()) w.setWaitingComplete(true);
                            if (!r.waiting().isEmpty()) w.setWaiting(waitingToWire(r.waiting()));
                            if (r.stableEpoch() != 0) w.setStableEpoch(nonNegativeTime(r.stableEpoch(), "ReadReply.stableEpoch"));
                            return w;
                        },
                        (w, limits) -> new ReadReply(
                                requireSet(w.isSetRequestId(), "ReadReply.requestId", w.getRequestId()),
                                readValues(w.getValues(), "ReadReply.values", limits),
                                clock(w.getSnapshot(), "ReadReply.snapshot", limits),
                                clock(w.getMaxCommitClock(), "ReadReply.maxCommitClock", limits),
                                nonNegative(w.isSetMaxCommitTime(), w.getMaxCommitTime(), "ReadReply.maxCommitTime"),
                                requireSet(w.isSetServerTime(), "ReadReply.serverTime", w.getServerTime()),
                                w.isSetWaiting() ? waiting(w.getWaiting(), "ReadReply.waiting", limits) : List.of(),
                                w.isSetWaitingComplete() && w.isWaitingComplete(),
                                w.isSetStableEpoch() ? nonNegative(true, w.getStableEpoch(), "ReadReply.stableEpoch") : 0)),
                WireMember.of(FastCcsBody._Fields.WRITE_REPLY, WriteReply.class,
                        io.fastccs.protocol.wire.thrift.WriteReply::new,
                        r -> {
                            var w = new io.fastccs.protocol.wire.thrift.WriteReply(r.requestId(), txnIdToWire(r.txnId()),
                                    outcomeToWire(r.outcome()));
                            if (r.commitClock() != null) {
                                w.setCommitClock(clockToWire(r.commitClock()));
                                w.setCommitTime(nonNegativeTime(r.commitTime(), "WriteReply.commitTime"));
                            }
                            return w;
                        },
                        (w, limits) -> new WriteReply(
                                requireSet(w.isSetRequestId(), "WriteReply.requestId", w.getRequestId()),
                                txnId(w.getTxnId(), "WriteReply.txnId"),
                                outcome(w.getOutcome(), "WriteReply.outcome"),
                                w.isSetCommitClock() ? clock(w.getCommitClock(), "WriteReply.commitClock", limits) : null,
                                w.isSetCommitClock()
                                        ? nonNegative(w.isSetCommitTime(), w.getCommitTime(), "WriteReply.commitTime") : 0)),
                WireMember.of(FastCcsBody._Fields.OUTCOME_REPLY, OutcomeReply.class,
                        io.fastccs.protocol.wire.thrift.OutcomeReply::new,
                        r -> {
                            var w = new io.fastccs.protocol.wire.thrift.OutcomeReply(r.requestId(), txnIdToWire(r.txnId()),
                                    outcomeToWire(r.outcome()));
                            if (r.commitClock() != null) {
                                w.setCommitClock(clockToWire(r.commitClock()));
                                w.setCommitTime(nonNegativeTime(r.commitTime(), "OutcomeReply.commitTime"));
                            }
                            return w;
                        },
                        (w, limits) -> new OutcomeReply(
                                requireSet(w.isSetRequestId(), "OutcomeReply.requestId", w.getRequestId()),
                                txnId(w.getTxnId(), "OutcomeReply.txnId"),
                                outcome(w.getOutcome(), "OutcomeReply.outcome"),
                                w.isSetCommitClock() ? clock(w.getCommitClock(), "OutcomeReply.commitClock", limits) : null,
                                w.isSetCommitClock()
                                        ? nonNegative(w.isSetCommitTime(), w.getCommitTime(), "OutcomeReply.commitTime") : 0)),
                WireMember.of(FastCcsBody._Fields.PREPARED, Prepared.class,
                        io.fastccs.protocol.wire.thrift.Prepared::new,
                        p -> {
                            checkPartition(p.from(), "Prepared.from");
                            checkSequence(p.sequence(), "Prepared.sequence");
                            return new io.fastccs.protocol.wire.thrift.Prepared(txnIdToWire(p.txnId()), p.from(),
                                    p.sequence(), partitionsToWire(p.participants(), "Prepared.participants"),
                                    nonNegativeTime(p.proposedTime(), "Prepared.proposedTime"));
                        },
                        (w, limits) -> new Prepared(
                                txnId(w.getTxnId(), "Prepared.txnId"),
                                partition(w.isSetFromPartition(), w.getFromPartition(), "Prepared.fromPartition"),
                                sequence(w.isSetSequence(), w.getSequence(), "Prepared.sequence"),
                                partitions(w.getParticipants(), "Prepared.participants", limits),
                                nonNegative(w.isSetProposedTime(), w.getProposedTime(), "Prepared.proposedTime"))),
                WireMember.of(FastCcsBody._Fields.COMMIT, Commit.class, io.fastccs.protocol.wire.thrift.Commit::new,
                        c -> new io.fastccs.protocol.wire.thrift.Commit(txnIdToWire(c.txnId()),
                                clockToWire(c.commitClock()), nonNegativeTime(c.commitTime(), "Commit.commitTime")),
                        (w, limits) -> new Commit(txnId(w.getTxnId(), "Commit.txnId"),
                                clock(w.getCommitClock(), "Commit.commitClock", limits),
                                nonNegative(w.isSetCommitTime(), w.getCommitTime(), "Commit.commitTime"))),
                WireMember.of(FastCcsBody._Fields.ABORT, Abort.class, io.fastccs.protocol.wire.thrift.Abort::new,
                        a -> new io.fastccs.protocol.wire.thrift.Abort(txnIdToWire(a.txnId())),
                        (w, limits) -> new Abort(txnId(w.getTxnId(), "Abort.txnId"))),
                WireMember.of(FastCcsBody._Fields.CHECK_COMMIT, CheckCommit.class,
                        io.fastccs.protocol.wire.thrift.CheckCommit::new,
                        c -> {
                            checkPartition(c.from(), "CheckCommit.from");
                            return new io.fastccs.protocol.wire.thrift.CheckCommit(txnIdToWire(c.txnId()), c.from());
                        },
                        (w, limits) -> new CheckCommit(txnId(w.getTxnId(), "CheckCommit.txnId"),
                                partition(w.isSetFromPartition(), w.getFromPartition(), "CheckCommit.fromPartition"))),
                WireMember.of(FastCcsBody._Fields.STABILIZE, Stabilize.class, io.fastccs.protocol.wire.thrift.Stabilize::new,
                        s -> {
                            checkPartition(s.from(), "Stabilize.from");
                            checkSequence(s.settled(), "Stabilize.settled");
                            return new io.fastccs.protocol.wire.thrift.Stabilize(s.from(), s.settled());
                        },
                        (w, limits) -> new Stabilize(
                                partition(w.isSetFromPartition(), w.getFromPartition(), "Stabilize.fromPartition"),
                                sequence(w.isSetSettled(), w.getSettled(), "Stabilize.settled"))),
                WireMember.of(FastCcsBody._Fields.STABILIZE_UP, StabilizeUp.class,
                        io.fastccs.protocol.wire.thrift.SettledEntries::new,
                        u -> {
                            var w = settledToWire(u.from(), u.entries(), "StabilizeUp");
                            if (u.epoch() != 0) w.setEpoch(nonNegativeTime(u.epoch(), "StabilizeUp.epoch"));
                            return w;
                        },
                        (w, limits) -> new StabilizeUp(partition(w.isSetFromPartition(), w.getFromPartition(), "StabilizeUp.fromPartition"),
                                settled(w, "StabilizeUp", limits), w.isSetEpoch() ? nonNegative(true, w.getEpoch(), "StabilizeUp.epoch") : 0)),
                WireMember.of(FastCcsBody._Fields.STABILIZE_DOWN, StabilizeDown.class,
                        io.fastccs.protocol.wire.thrift.SettledEntries::new,
                        d -> {
                            var w = settledToWire(d.from(), d.entries(), "StabilizeDown");
                            if (d.epoch() != 0) w.setEpoch(nonNegativeTime(d.epoch(), "StabilizeDown.epoch"));
                            if (d.full()) w.setFull(true);
                            return w;
                        },
                        (w, limits) -> new StabilizeDown(partition(w.isSetFromPartition(), w.getFromPartition(), "StabilizeDown.fromPartition"),
                                settled(w, "StabilizeDown", limits),
                                w.isSetEpoch() ? nonNegative(true, w.getEpoch(), "StabilizeDown.epoch") : 0, w.isSetFull() && w.isFull())),
                WireMember.of(FastCcsBody._Fields.REFUSED, Refused.class, io.fastccs.protocol.wire.thrift.Refused::new,
                        r -> {
                            checkPartition(r.from(), "Refused.from");
                            return new io.fastccs.protocol.wire.thrift.Refused(txnIdToWire(r.txnId()), r.from(),
                                    partitionsToWire(r.participants(), "Refused.participants"));
                        },
                        (w, limits) -> new Refused(txnId(w.getTxnId(), "Refused.txnId"),
                                partition(w.isSetFromPartition(), w.getFromPartition(), "Refused.fromPartition"),
                                partitions(w.getParticipants(), "Refused.participants", limits))),
                WireMember.of(FastCcsBody._Fields.STATUS_QUERY, StatusQuery.class,
                        io.fastccs.protocol.wire.thrift.StatusQuery::new,
                        q -> {
                            checkPartition(q.from(), "StatusQuery.from");
                            return new io.fastccs.protocol.wire.thrift.StatusQuery(txnIdToWire(q.txnId()), q.from(),
                                    partitionsToWire(q.participants(), "StatusQuery.participants"));
                        },
                        (w, limits) -> new StatusQuery(txnId(w.getTxnId(), "StatusQuery.txnId"),
                                partition(w.isSetFromPartition(), w.getFromPartition(), "StatusQuery.fromPartition"),
                                partitions(w.getParticipants(), "StatusQuery.participants", limits)))));
        out.addAll(CompactWire.members());
        return out;
    }

    // FastCCS's clocks and partition lists; the gaps are package-private for CompactWire.

    private static List<Long> clockToWire(VectorClock clock) {
        List<Long> out = new ArrayList<>(clock.size());
        for (int i = 0; i < clock.size(); i++) out.add(clock.get(i));
        return out;
    }

    private static VectorClock clock(List<Long> wire, String field, WireLimits limits) throws MalformedFrameException {
        if (wire == null) throw missing(field);
        int n = wire.size();
        if (n == 0) throw invalid(field + " is empty; a vector clock has one entry per partition");
        if (n > limits.maxClockEntries()) throw tooMany(field, n, limits.maxClockEntries());
        long[] entries = new long[n];
        for (int i = 0; i < n; i++) {
            long e = wire.get(i);
            if (e < 0) throw invalid(field + "[" + i + "] is negative: " + e);
            entries[i] = e;
        }
        return VectorClock.of(entries);
    }

    private static io.fastccs.protocol.wire.thrift.SettledEntries settledToWire(int from, List<Settled> entries, String what) {
        checkPartition(from, what + ".from");
        int[] partitions = new int[entries.size()];
        List<Long> settled = new ArrayList<>(entries.size());
        for (int i = 0; i < partitions.length; i++) {
            partitions[i] = entries.get(i).partition();
            checkSequence(entries.get(i).settled(), what + ".entries.settled");
            settled.add(entries.get(i).settled());
        }
        return new io.fastccs.protocol.wire.thrift.SettledEntries(from, gapsToWire(partitions, what + ".entries"), settled);
    }

    private static List<Settled> settled(io.fastccs.protocol.wire.thrift.SettledEntries wire, String what, WireLimits limits)
            throws MalformedFrameException {
        int[] partitions = partitionsFromGaps(wire.getPartitionGaps(), what + ".partitionGaps", limits);
        List<Long> settled = wire.getSettled();
        if (settled == null) throw missing(what + ".settled");
        if (partitions.length != settled.size())
            throw invalid(what + " has " + partitions.length + " partition gaps but " + settled.size() + " settled prefixes");
        List<Settled> out = new ArrayList<>(partitions.length);
        for (int i = 0; i < partitions.length; i++) {
            if (settled.get(i) < 0) throw invalid(what + ".settled[" + i + "] is a negative sequence number: " + settled.get(i));
            out.add(new Settled(partitions[i], settled.get(i)));
        }
        return out;
    }

    private static List<io.fastccs.protocol.wire.thrift.WaitingVersion> waitingToWire(List<WaitingVersion> waiting) {
        List<io.fastccs.protocol.wire.thrift.WaitingVersion> out = new ArrayList<>(waiting.size());
        for (WaitingVersion v : waiting) {
            checkSequence(v.sequence(), "WaitingVersion.sequence");
            var w = new io.fastccs.protocol.wire.thrift.WaitingVersion(ByteBuffer.wrap(v.key().unsafeBytes()),
                    ByteBuffer.wrap(v.value()), v.sequence(), clockToWire(v.commitClock()),
                    nonNegativeTime(v.commitTime(), "WaitingVersion.commitTime"));
            if (v.kind() != WriteKind.PUT) w.setKind((byte) v.kind().ordinal());
            out.add(w);
        }
        return out;
    }

    private static List<WaitingVersion> waiting(List<io.fastccs.protocol.wire.thrift.WaitingVersion> wire, String field,
                                                WireLimits limits) throws MalformedFrameException {
        if (wire.size() > limits.maxKeysPerMessage())
            throw tooMany(field, wire.size(), limits.maxKeysPerMessage());
        List<WaitingVersion> out = new ArrayList<>(wire.size());
        for (var v : wire) {
            if (v.bufferForKey() == null) throw missing(field + "[].key");
            if (v.bufferForValue() == null) throw missing(field + "[].value");
            out.add(new WaitingVersion(Key.wrap(copy(v.bufferForKey())), copy(v.bufferForValue()),
                    sequence(v.isSetSequence(), v.getSequence(), field + "[].sequence"),
                    clock(v.getCommitClock(), field + "[].commitClock", limits),
                    nonNegative(v.isSetCommitTime(), v.getCommitTime(), field + "[].commitTime"),
                    writeKind(v.isSetKind(), v.getKind(), field + "[].kind")));
        }
        return out;
    }

    /** Ascending partition numbers as gaps: each minus the one before (the first: itself), a byte each. */
    static List<Integer> gapsToWire(int[] ascending, String field) {
        List<Integer> gaps = new ArrayList<>(ascending.length);
        int previous = 0;
        for (int i = 0; i < ascending.length; i++) {
            checkPartition(ascending[i], field);
            if (i > 0 && ascending[i] <= previous)
                throw new IllegalArgumentException(field + " must ascend, got " + java.util.Arrays.toString(ascending));
            gaps.add(ascending[i] - previous);
            previous = ascending[i];
        }
        return gaps;
    }

    /** The partition numbers {@link #gapsToWire} made, checked: ascending, within the limit. */
    static int[] partitionsFromGaps(List<Integer> gaps, String field, WireLimits limits) throws MalformedFrameException {
        if (gaps == null) throw missing(field);
        if (gaps.size() > limits.maxClockEntries()) throw tooMany(field, gaps.size(), limits.maxClockEntries());
        int[] out = new int[gaps.size()];
        long partition = 0;
        for (int i = 0; i < out.length; i++) {
            int gap = gaps.get(i);
            if (i == 0 ? gap < 0 : gap < 1) throw invalid(field + "[" + i + "] is " + gap + "; partitions ascend");
            partition += gap;
            if (partition >= limits.maxClockEntries())
                throw invalid(field + " names partition " + partition + ", beyond the limit of " + limits.maxClockEntries());
            out[i] = (int) partition;
        }
        return out;
    }
}
