package io.fastccs.protocol.wire;

import static io.fastccs.protocol.wire.WireMapping.checkPartition;
import static io.fastccs.protocol.wire.WireMapping.checkSequence;
import static io.fastccs.protocol.wire.WireMapping.gapsToWire;
import static io.fastccs.protocol.wire.WireMapping.invalid;
import static io.fastccs.protocol.wire.WireMapping.keys;
import static io.fastccs.protocol.wire.WireMapping.keysToWire;
import static io.fastccs.protocol.wire.WireMapping.missing;
import static io.fastccs.protocol.wire.WireMapping.nonNegative;
import static io.fastccs.protocol.wire.WireMapping.nonNegativeTime;
import static io.fastccs.protocol.wire.WireMapping.outcome;
import static io.fastccs.protocol.wire.WireMapping.outcomeToWire;
import static io.fastccs.protocol.wire.WireMapping.partition;
import static io.fastccs.protocol.wire.WireMapping.partitions;
import static io.fastccs.protocol.wire.WireMapping.partitionsFromGaps;
import static io.fastccs.protocol.wire.WireMapping.partitionsToWire;
import static io.fastccs.protocol.wire.WireMapping.readValues;
import static io.fastccs.protocol.wire.WireMapping.readValuesToWire;
import static io.fastccs.protocol.wire.WireMapping.requireSet;
import static io.fastccs.protocol.wire.WireMapping.sequence;
import static io.fastccs.protocol.wire.WireMapping.tooMany;
import static io.fastccs.protocol.wire.WireMapping.txnId;
import static io.fastccs.protocol.wire.WireMapping.txnIdToWire;
import static io.fastccs.protocol.wire.WireMapping.writes;
import static io.fastccs.protocol.wire.WireMapping.writesToWire;

import io.fastccs.protocol.messages.BasedClock;
import io.fastccs.protocol.messages.ClockDiff;
import io.fastccs.protocol.messages.CompactCommit;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.protocol.messages.CompactReadReply;
import io.fastccs.protocol.messages.CompactSecondRoundRead;
import io.fastccs.protocol.messages.CompactWaitingVersion;
import io.fastccs.protocol.messages.CompactWriteReply;
import io.fastccs.protocol.messages.CompactWriteRequest;
import io.fastccs.protocol.messages.Message;
import io.fastccs.protocol.messages.Rebase;
import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.wire.thrift.Body;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * FastCCS's compact messages (clocks relative to a stable base or to the request's clock; docs/design/stable-bases.md,
 * "Clocks relative to a stable base") to the {@code Compact*} structs of the schema and back, with the checks of
 * {@link WireMapping}. Partition numbers go as ascending gaps, a byte each.
 */
final class CompactWire {
    private CompactWire() {
    }

    /** The body for {@code m}, or null if {@code m} is not a compact message. */
    static Body toWire(Message m) {
        if (m instanceof CompactFirstRoundRead r) {
            var w = new io.fastccs.protocol.wire.thrift.CompactFirstRoundRead(r.requestId(), keysToWire(r.keys()),
                    basedToWire(r.clock()));
            if (r.rebaseTo() != 0) w.setRebaseTo(nonNegativeTime(r.rebaseTo(), "CompactFirstRoundRead.rebaseTo"));
            return Body.compactFirstRoundRead(w);
        } else if (m instanceof CompactSecondRoundRead r) {
            return Body.compactSecondRoundRead(new io.fastccs.protocol.wire.thrift.CompactSecondRoundRead(r.requestId(),
                    keysToWire(r.keys()), basedToWire(r.clock()), r.firstRoundTime()));
        } else if (m instanceof CompactWriteRequest r) {
            checkPartition(r.coordinator(), "CompactWriteRequest.coordinator");
            return Body.compactWriteRequest(new io.fastccs.protocol.wire.thrift.CompactWriteRequest(r.requestId(),
                    txnIdToWire(r.txnId()), r.coordinator(), partitionsToWire(r.participants(), "CompactWriteRequest.participants"),
                    writesToWire(r.writes()), basedToWire(r.clock()),
                    nonNegativeTime(r.dependencyTime(), "CompactWriteRequest.dependencyTime")));
        } else if (m instanceof CompactReadReply r) {
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
                    if (v.kind() != io.fastccs.protocol.primitives.WriteKind.PUT) cw.setKind((byte) v.kind().ordinal());
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
            return Body.compactReadReply(w);
        } else if (m instanceof CompactWriteReply r) {
            var w = new io.fastccs.protocol.wire.thrift.CompactWriteReply(r.requestId(), txnIdToWire(r.txnId()),
                    outcomeToWire(r.outcome()));
            if (r.commitClock() != null) {
                w.setCommitClock(diffToWire(r.commitClock()));
                w.setCommitTime(nonNegativeTime(r.commitTime(), "CompactWriteReply.commitTime"));
            }
            return Body.compactWriteReply(w);
        } else if (m instanceof CompactCommit c) {
            return Body.compactCommit(new io.fastccs.protocol.wire.thrift.CompactCommit(txnIdToWire(c.txnId()),
                    basedToWire(c.commitClock()), nonNegativeTime(c.commitTime(), "CompactCommit.commitTime")));
        }
        return null;
    }

    static Message fromWire(Body body, WireLimits limits) throws MalformedFrameException {
        return switch (body.getSetField()) {
            case COMPACT_FIRST_ROUND_READ -> {
                var w = body.getCompactFirstRoundRead();
                yield new CompactFirstRoundRead(
                        requireSet(w.isSetRequestId(), "CompactFirstRoundRead.requestId", w.getRequestId()),
                        keys(w.getKeys(), "CompactFirstRoundRead.keys", limits),
                        based(w.getClock(), "CompactFirstRoundRead.clock", limits),
                        w.isSetRebaseTo() ? nonNegative(true, w.getRebaseTo(), "CompactFirstRoundRead.rebaseTo") : 0);
            }
            case COMPACT_SECOND_ROUND_READ -> {
                var w = body.getCompactSecondRoundRead();
                yield new CompactSecondRoundRead(
                        requireSet(w.isSetRequestId(), "CompactSecondRoundRead.requestId", w.getRequestId()),
                        keys(w.getKeys(), "CompactSecondRoundRead.keys", limits),
                        based(w.getClock(), "CompactSecondRoundRead.clock", limits),
                        requireSet(w.isSetFirstRoundTime(), "CompactSecondRoundRead.firstRoundTime", w.getFirstRoundTime()));
            }
            case COMPACT_WRITE_REQUEST -> {
                var w = body.getCompactWriteRequest();
                yield new CompactWriteRequest(
                        requireSet(w.isSetRequestId(), "CompactWriteRequest.requestId", w.getRequestId()),
                        txnId(w.getTxnId(), "CompactWriteRequest.txnId"),
                        partition(w.isSetCoordinator(), w.getCoordinator(), "CompactWriteRequest.coordinator"),
                        partitions(w.getParticipants(), "CompactWriteRequest.participants", limits),
                        writes(w.getWrites(), "CompactWriteRequest.writes", limits),
                        based(w.getClock(), "CompactWriteRequest.clock", limits),
                        nonNegative(w.isSetDependencyTime(), w.getDependencyTime(), "CompactWriteRequest.dependencyTime"));
            }
            case COMPACT_READ_REPLY -> {
                var w = body.getCompactReadReply();
                List<CompactWaitingVersion> waiting = List.of();
                if (w.isSetWaiting()) {
                    if (w.getWaiting().size() > limits.maxKeysPerMessage())
                        throw tooMany("CompactReadReply.waiting", w.getWaiting().size(), limits.maxKeysPerMessage());
                    waiting = new ArrayList<>(w.getWaiting().size());
                    for (var v : w.getWaiting()) {
                        String field = "CompactReadReply.waiting";
                        if (v.bufferForKey() == null) throw missing(field + "[].key");
                        if (v.bufferForValue() == null) throw missing(field + "[].value");
                        waiting.add(new CompactWaitingVersion(Key.wrap(WireMapping.copy(v.bufferForKey())),
                                WireMapping.copy(v.bufferForValue()), sequence(v.isSetSequence(), v.getSequence(), field + "[].sequence"),
                                diff(v.getCommitClock(), field + "[].commitClock", limits),
                                nonNegative(v.isSetCommitTime(), v.getCommitTime(), field + "[].commitTime"),
                                WireMapping.writeKind(v.isSetKind(), v.getKind(), field + "[].kind")));
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
                yield new CompactReadReply(
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
            case COMPACT_WRITE_REPLY -> {
                var w = body.getCompactWriteReply();
                yield new CompactWriteReply(
                        requireSet(w.isSetRequestId(), "CompactWriteReply.requestId", w.getRequestId()),
                        txnId(w.getTxnId(), "CompactWriteReply.txnId"),
                        outcome(w.getOutcome(), "CompactWriteReply.outcome"),
                        w.isSetCommitClock() ? diff(w.getCommitClock(), "CompactWriteReply.commitClock", limits) : null,
                        w.isSetCommitClock()
                                ? nonNegative(w.isSetCommitTime(), w.getCommitTime(), "CompactWriteReply.commitTime") : 0);
            }
            case COMPACT_COMMIT -> {
                var w = body.getCompactCommit();
                yield new CompactCommit(txnId(w.getTxnId(), "CompactCommit.txnId"),
                        based(w.getCommitClock(), "CompactCommit.commitClock", limits),
                        nonNegative(w.isSetCommitTime(), w.getCommitTime(), "CompactCommit.commitTime"));
            }
            default -> throw new IllegalStateException("not a compact message: " + body.getSetField());
        };
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
