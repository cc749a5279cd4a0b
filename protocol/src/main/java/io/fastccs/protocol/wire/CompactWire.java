package io.fastccs.protocol.wire;

import io.fastccs.core.wire.MalformedFrameException;
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
import static io.fastccs.protocol.wire.FastCcsWire.gapsToWire;
import static io.fastccs.protocol.wire.FastCcsWire.partitionsFromGaps;
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

import io.fastccs.protocol.messages.BasedClock;
import io.fastccs.protocol.messages.ClockDiff;
import io.fastccs.protocol.messages.CompactCommit;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.protocol.messages.CompactReadReply;
import io.fastccs.protocol.messages.CompactSecondRoundRead;
import io.fastccs.protocol.messages.CompactWaitingVersion;
import io.fastccs.protocol.messages.CompactWriteReply;
import io.fastccs.protocol.messages.CompactWriteRequest;
import io.fastccs.protocol.messages.Rebase;
import io.fastccs.core.primitives.Key;
import io.fastccs.protocol.wire.thrift.FastCcsBody;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * FastCCS's compact messages (clocks relative to a stable base or to the request's clock; docs/design/stable-bases.md,
 * "Clocks relative to a stable base") to the {@code Compact*} structs of {@code fastccs.thrift} and back, with the
 * checks of {@link io.fastccs.core.wire.WireChecks}: members of {@link FastCcsWire}. Partition numbers go as ascending gaps, a byte each.
 */
final class CompactWire {
    private CompactWire() {
    }

    static List<WireMember<?, ?>> members() {
        return List.of(
                WireMember.of(FastCcsBody._Fields.COMPACT_FIRST_ROUND_READ, CompactFirstRoundRead.class,
                        io.fastccs.protocol.wire.thrift.CompactFirstRoundRead::new,
                        r -> {
                            var w = new io.fastccs.protocol.wire.thrift.CompactFirstRoundRead(r.requestId(), keysToWire(r.keys()),
                                    basedToWire(r.clock()));
                            if (r.rebaseTo() != 0) w.setRebaseTo(nonNegativeTime(r.rebaseTo(), "CompactFirstRoundRead.rebaseTo"));
                            return w;
                        },
                        (w, limits) -> new CompactFirstRoundRead(
                                requireSet(w.isSetRequestId(), "CompactFirstRoundRead.requestId", w.getRequestId()),
                                keys(w.getKeys(), "CompactFirstRoundRead.keys", limits),
                                based(w.getClock(), "CompactFirstRoundRead.clock", limits),
                                w.isSetRebaseTo() ? nonNegative(true, w.getRebaseTo(), "CompactFirstRoundRead.rebaseTo") : 0)),
                WireMember.of(FastCcsBody._Fields.COMPACT_SECOND_ROUND_READ, CompactSecondRoundRead.class,
                        io.fastccs.protocol.wire.thrift.CompactSecondRoundRead::new,
                        r -> new io.fastccs.protocol.wire.thrift.CompactSecondRoundRead(r.requestId(),
                                keysToWire(r.keys()), basedToWire(r.clock()), r.firstRoundTime()),
                        (w, limits) -> new CompactSecondRoundRead(
                                requireSet(w.isSetRequestId(), "CompactSecondRoundRead.requestId", w.getRequestId()),
                                keys(w.getKeys(), "CompactSecondRoundRead.keys", limits),
                                based(w.getClock(), "CompactSecondRoundRead.clock", limits),
                                requireSet(w.isSetFirstRoundTime(), "CompactSecondRoundRead.firstRoundTime", w.getFirstRoundTime()))),
                WireMember.of(FastCcsBody._Fields.COMPACT_WRITE_REQUEST, CompactWriteRequest.class,
                        io.fastccs.protocol.wire.thrift.CompactWriteRequest::new,
                        r -> {
                            checkPartition(r.coordinator(), "CompactWriteRequest.coordinator");
                            return new io.fastccs.protocol.wire.thrift.CompactWriteRequest(r.requestId(),
                                    txnIdToWire(r.txnId()), r.coordinator(), partitionsToWire(r.participants(), "CompactWriteRequest.participants"),
                                    writesToWire(r.writes()), basedToWire(r.clock()),
                                    nonNegativeTime(r.dependencyTime(), "CompactWriteRequest.dependencyTime"));
                        },
                        (w, limits) -> new CompactWriteRequest(
                                requireSet(w.isSetRequestId(), "CompactWriteRequest.requestId", w.getRequestId()),
                                txnId(w.getTxnId(), "CompactWriteRequest.txnId"),
                                partition(w.isSetCoordinator(), w.getCoordinator(), "CompactWriteRequest.coordinator"),
                                partitions(w.getParticipants(), "CompactWriteRequest.participants", limits),
                                writes(w.getWrites(), "CompactWriteRequest.writes", limits),
                                based(w.getClock(), "CompactWriteRequest.clock", limits),
                                nonNegative(w.isSetDependencyTime(), w.getDependencyTime(), "CompactWriteRequest.dependencyTime"))),
                WireMember.of(FastCcsBody._Fields.COMPACT_READ_REPLY, CompactReadReply.class,
                        io.fastccs.protocol.wire.thrift.CompactReadReply::new,
                        CompactWire::readReplyToWire, CompactWire::readReply),
                WireMember.of(FastCcsBody._Fields.COMPACT_WRITE_REPLY, CompactWriteReply.class,
                        io.fastccs.protocol.wire.thrift.CompactWriteReply::new,
                        r -> {
                            var w = new io.fastccs.protocol.wire.thrift.CompactWriteReply(r.requestId(), txnIdToWire(r.txnId()),
                                    outcomeToWire(r.outcome()));
                            if (r.commitClock() != null) {
                                w.setCommitClock(diffToWire(r.commitClock()));
                                w.setCommitTime(nonNegativeTime(r.commitTime(), "CompactWriteReply.commitTime"));
                            }
                            return w;
                        },
                        (w, limits) -> new CompactWriteReply(
                                requireSet(w.isSetRequestId(), "CompactWriteReply.requestId", w.getRequestId()),
                                txnId(w.getTxnId(), "CompactWriteReply.txnId"),
                                outcome(w.getOutcome(), "CompactWriteReply.outcome"),
                                w.isSetCommitClock() ? diff(w.getCommitClock(), "CompactWriteReply.commitClock", limits) : null,
                                w.isSetCommitClock()
                                        ? nonNegative(w.isSetCommitTime(), w.getCommitTime(), "CompactWriteReply.commitTime") : 0)),
                WireMember.of(FastCcsBody._Fields.COMPACT_COMMIT, CompactCommit.class,
                        io.fastccs.protocol.wire.thrift.CompactCommit::new,
                        c -> new io.fastccs.protocol.wire.thrift.CompactCommit(txnIdToWire(c.txnId()),
                                basedToWire(c.commitClock()), nonNegativeTime(c.commitTime(), "CompactCommit.commitTime")),
                        (w, limits) -> new CompactCommit(txnId(w.getTxnId(), "CompactCommit.txnId"),
                                based(w.getCommitClock(), "CompactCommit.commitClock", limits),
                                nonNegative(w.isSetCommitTime(), w.getCommitTime(), "CompactCommit.commitTime"))));
    }

    private static io.fastccs.protocol.wire.thrift.CompactReadReply readReplyToWire(CompactReadReply r) {
        var w = new io.fastccs.protocol.wire.thrift.CompactReadReply(r.requestId(),
                readValuesToWire(r.values(), "ReadValue.sequence"), diffToWire(r.snapshot()), diffToWire(r.maxCommitClock()),
                r.serverTime(), nonNegativeTime(r.maxCommitTime(), "CompactReadReply.maxCommitTime"),
                nonNegativeTime(r.shows(), "CompactReadReply.shows"));
        if (r.waitingComplete()) w.setWaitingComplete(true);
        if (!r.waiting().isEmpty()) {
            List<io.fastccs.protocol.wire.thrift.CompactWaitingVersion> waiting = new ArrayList<>(r.waiting().size());
            for (CompactWaitingVersion v : r.waiting()) {
                checkSequence(v.sequence(), "CompactWaitingVersion.sequence");
                var cw = new io.fastccs.protocol.wire.thrift.CompactWaitingVersion(
                        ByteBuffer.wrap(v.key().unsafeBytes()), ByteBuffer.wrap(v.value()), v.sequence(),
                        diffToWire(v.commitClock()), nonNegativeTime(v.commitTime(), "CompactWaitingVersion.commitTime"));
                if (v.kind() != io.fastccs.core.primitives.WriteKind.PUT) cw.setKind((byte) v.kind().ordinal());
                waiting.add(cw);
            }
            w.setWaiting(waiting);
        }
        if (r.stableEpoch() != 0) w.setStableEpoch(nonNegativeTime(r.stableEpoch(), "CompactReadReply.stableEpoch"));
        if (r.rebase() != null) {
            Rebase b = r.rebase();
            int[] explicit = b.explicit().stream().mapToInt(Integer::intValue).toArray();
            w.setRebase(new io.fastccs.protocol.wire.thrift.Rebase(nonNegativeTime(b.epoch(), "Rebase.epoch"),
                    diffToWire(b.lift()), gapsToWire(explicit, "Rebase.explicit")));
        }
        return w;
    }

    private static CompactReadReply readReply(io.fastccs.protocol.wire.thrift.CompactReadReply w, WireLimits limits)
            throws MalformedFrameException {
        List<CompactWaitingVersion> waiting = List.of();
        if (w.isSetWaiting()) {
            if (w.getWaiting().size() > limits.maxKeysPerMessage())
                throw tooMany("CompactReadReply.waiting", w.getWaiting().size(), limits.maxKeysPerMessage());
            waiting = new ArrayList<>(w.getWaiting().size());
            for (var v : w.getWaiting()) {
                String field = "CompactReadReply.waiting";
                if (v.bufferForKey() == null) throw missing(field + "[].key");
                if (v.bufferForValue() == null) throw missing(field + "[].value");
                waiting.add(new CompactWaitingVersion(Key.wrap(copy(v.bufferForKey())),
                        copy(v.bufferForValue()), sequence(v.isSetSequence(), v.getSequence(), field + "[].sequence"),
                        diff(v.getCommitClock(), field + "[].commitClock", limits),
                        nonNegative(v.isSetCommitTime(), v.getCommitTime(), field + "[].commitTime"),
                        writeKind(v.isSetKind(), v.getKind(), field + "[].kind")));
            }
        }
        Rebase rebase = null;
        if (w.isSetRebase()) {
            var b = w.getRebase();
            List<Integer> explicit = new ArrayList<>();
            for (int p : partitionsFromGaps(b.getExplicitGaps(), "Rebase.explicitGaps", limits)) explicit.add(p);
            rebase = new Rebase(nonNegative(b.isSetEpoch(), b.getEpoch(), "Rebase.epoch"),
                    diff(b.getLift(), "Rebase.lift", limits), explicit);
        }
        return new CompactReadReply(
                requireSet(w.isSetRequestId(), "CompactReadReply.requestId", w.getRequestId()),
                readValues(w.getValues(), "CompactReadReply.values", limits),
                diff(w.getSnapshot(), "CompactReadReply.snapshot", limits),
                diff(w.getMaxCommitClock(), "CompactReadReply.maxCommitClock", limits),
                nonNegative(w.isSetMaxCommitTime(), w.getMaxCommitTime(), "CompactReadReply.maxCommitTime"),
                requireSet(w.isSetServerTime(), "CompactReadReply.serverTime", w.getServerTime()),
                waiting, w.isSetWaitingComplete() && w.isWaitingComplete(),
                nonNegative(w.isSetShows(), w.getShows(), "CompactReadReply.shows"),
                w.isSetStableEpoch() ? nonNegative(true, w.getStableEpoch(), "CompactReadReply.stableEpoch") : 0,
                rebase);
    }

    private static io.fastccs.protocol.wire.thrift.BasedClock basedToWire(BasedClock c) {
        int[] ps = new int[c.size()];
        List<Long> values = new ArrayList<>(c.size());
        for (int i = 0; i < c.size(); i++) {
            ps[i] = c.partition(i);
            values.add(c.value(i));
        }
        return new io.fastccs.protocol.wire.thrift.BasedClock(c.epoch(), gapsToWire(ps, "BasedClock.partitions"), values);
    }

    private static io.fastccs.protocol.wire.thrift.ClockDiff diffToWire(ClockDiff d) {
        int[] ps = new int[d.size()];
        List<Long> deltas = new ArrayList<>(d.size());
        for (int i = 0; i < d.size(); i++) {
            ps[i] = d.partition(i);
            deltas.add(d.delta(i));
        }
        return new io.fastccs.protocol.wire.thrift.ClockDiff(gapsToWire(ps, "ClockDiff.partitions"), deltas);
    }

    private static BasedClock based(io.fastccs.protocol.wire.thrift.BasedClock w, String field, WireLimits limits)
            throws MalformedFrameException {
        if (w == null) throw missing(field);
        int[] ps = partitionsFromGaps(w.getPartitionGaps(), field + ".partitionGaps", limits);
        List<Long> values = w.getValues();
        if (values == null) throw missing(field + ".values");
        if (values.size() != ps.length) throw invalid(field + " has " + ps.length + " partitions but " + values.size() + " values");
        long[] vs = new long[ps.length];
        for (int i = 0; i < vs.length; i++) {
            vs[i] = values.get(i);
            if (vs[i] < 0) throw invalid(field + ".values[" + i + "] is negative: " + vs[i]);
        }
        return BasedClock.of(nonNegative(w.isSetEpoch(), w.getEpoch(), field + ".epoch"), ps, vs);
    }

    private static ClockDiff diff(io.fastccs.protocol.wire.thrift.ClockDiff w, String field, WireLimits limits)
            throws MalformedFrameException {
        if (w == null) throw missing(field);
        int[] ps = partitionsFromGaps(w.getPartitionGaps(), field + ".partitionGaps", limits);
        List<Long> deltas = w.getDeltas();
        if (deltas == null) throw missing(field + ".deltas");
        if (deltas.size() != ps.length) throw invalid(field + " has " + ps.length + " partitions but " + deltas.size() + " deltas");
        long[] ds = new long[ps.length];
        for (int i = 0; i < ds.length; i++) ds[i] = deltas.get(i);
        return ClockDiff.of(ps, ds);
    }
}
