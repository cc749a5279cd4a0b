package io.fastccs.protocol.wire;

import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.primitives.VectorClock;
import io.fastccs.protocol.messages.Hello;
import io.fastccs.protocol.messages.HelloReply;
import io.fastccs.protocol.primitives.Protocol;
import io.fastccs.protocol.messages.RingMember;
import io.fastccs.protocol.messages.RingReply;
import io.fastccs.protocol.messages.RingRequest;
import io.fastccs.protocol.messages.Abort;
import io.fastccs.protocol.messages.CheckCommit;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.protocol.messages.ErrorCode;
import io.fastccs.protocol.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.KeyValue;
import io.fastccs.protocol.messages.Message;
import io.fastccs.protocol.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.Refused;
import io.fastccs.protocol.primitives.KeyType;
import io.fastccs.protocol.primitives.WriteKind;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.protocol.messages.ReadValue;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.Settled;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.protocol.messages.StabilizeDown;
import io.fastccs.protocol.messages.StabilizeUp;
import io.fastccs.protocol.messages.WaitingVersion;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.protocol.wire.MalformedFrameException.Kind;
import io.fastccs.protocol.wire.thrift.Body;
import io.fastccs.protocol.wire.thrift.Frame;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps the records in {@code messages} to the generated Thrift structs and back, checking on the way in
 * everything Thrift itself does not: presence of every non-optional field, value ranges and per-field limits.
 *
 * <p>The generated structs share their simple names with the records, so they are written fully qualified.
 *
 * <p>The other protocols' messages are mapped by {@link EventualWire}, {@link EigerWire} and {@link WrenWire}, with the
 * package-private helpers here, so the same value gets the same checks whatever the protocol.
 */
final class WireMapping {
    private WireMapping() {
    }

    // ------------------------------------------------------------------------------------------------------------
    // Records to wire. The sender checks what the receiver would refuse, so a bad message fails where it is made.
    // ------------------------------------------------------------------------------------------------------------

    static Frame toWire(Message m) {
        // An instanceof chain because pattern matching for switch is still a preview in Java 17.
        Body body;
        if (m instanceof FirstRoundRead r) {
            body = Body.firstRoundRead(new io.fastccs.protocol.wire.thrift.FirstRoundRead(
                    r.requestId(), keysToWire(r.keys()), clockToWire(r.clock())));
        } else if (m instanceof ReadReply r) {
            var values = readValuesToWire(r.values(), "ReadValue.sequence");
            var w = new io.fastccs.protocol.wire.thrift.ReadReply(r.requestId(), values,
                    clockToWire(r.snapshot()), clockToWire(r.maxCommitClock()), r.serverTime(),
                    nonNegativeTime(r.maxCommitTime(), "ReadReply.maxCommitTime"));
            if (r.waitingComplete()) w.setWaitingComplete(true);
            if (!r.waiting().isEmpty()) w.setWaiting(waitingToWire(r.waiting()));
            if (r.stableEpoch() != 0) w.setStableEpoch(nonNegativeTime(r.stableEpoch(), "ReadReply.stableEpoch"));
            body = Body.readReply(w);
        } else if (m instanceof SecondRoundRead r) {
            body = Body.secondRoundRead(new io.fastccs.protocol.wire.thrift.SecondRoundRead(
                    r.requestId(), keysToWire(r.keys()), clockToWire(r.clock()), r.firstRoundTime()));
        } else if (m instanceof WriteRequest r) {
            checkPartition(r.coordinator(), "WriteRequest.coordinator");
            var writes = writesToWire(r.writes());
            body = Body.writeRequest(new io.fastccs.protocol.wire.thrift.WriteRequest(r.requestId(),
                    txnIdToWire(r.txnId()), r.coordinator(),
                    partitionsToWire(r.participants(), "WriteRequest.participants"), writes, clockToWire(r.clock()),
                    nonNegativeTime(r.dependencyTime(), "WriteRequest.dependencyTime")));
        } else if (m instanceof WriteReply r) {
            var w = new io.fastccs.protocol.wire.thrift.WriteReply(r.requestId(), txnIdToWire(r.txnId()),
                    outcomeToWire(r.outcome()));
            if (r.commitClock() != null) {
                w.setCommitClock(clockToWire(r.commitClock()));
                w.setCommitTime(nonNegativeTime(r.commitTime(), "WriteReply.commitTime"));
            }
            body = Body.writeReply(w);
        } else if (m instanceof Prepared p) {
            checkPartition(p.from(), "Prepared.from");
            checkSequence(p.sequence(), "Prepared.sequence");
            body = Body.prepared(new io.fastccs.protocol.wire.thrift.Prepared(txnIdToWire(p.txnId()), p.from(),
                    p.sequence(), partitionsToWire(p.participants(), "Prepared.participants")));
        } else if (m instanceof Commit c) {
            body = Body.commit(new io.fastccs.protocol.wire.thrift.Commit(txnIdToWire(c.txnId()),
                    clockToWire(c.commitClock()), nonNegativeTime(c.commitTime(), "Commit.commitTime")));
        } else if (m instanceof Stabilize s) {
            checkPartition(s.from(), "Stabilize.from");
            checkSequence(s.settled(), "Stabilize.settled");
            body = Body.stabilize(new io.fastccs.protocol.wire.thrift.Stabilize(s.from(), s.settled()));
        } else if (m instanceof StabilizeUp u) {
            var w = settledToWire(u.from(), u.entries(), "StabilizeUp");
            if (u.epoch() != 0) w.setEpoch(nonNegativeTime(u.epoch(), "StabilizeUp.epoch"));
            body = Body.stabilizeUp(w);
        } else if (m instanceof StabilizeDown d) {
            var w = settledToWire(d.from(), d.entries(), "StabilizeDown");
            if (d.epoch() != 0) w.setEpoch(nonNegativeTime(d.epoch(), "StabilizeDown.epoch"));
            if (d.full()) w.setFull(true);
            body = Body.stabilizeDown(w);
        } else if (m instanceof Abort a) {
            body = Body.abort(new io.fastccs.protocol.wire.thrift.Abort(txnIdToWire(a.txnId())));
        } else if (m instanceof Refused r) {
            checkPartition(r.from(), "Refused.from");
            body = Body.refused(new io.fastccs.protocol.wire.thrift.Refused(txnIdToWire(r.txnId()), r.from(),
                    partitionsToWire(r.participants(), "Refused.participants")));
        } else if (m instanceof CheckCommit c) {
            checkPartition(c.from(), "CheckCommit.from");
            body = Body.checkCommit(new io.fastccs.protocol.wire.thrift.CheckCommit(txnIdToWire(c.txnId()), c.from()));
        } else if (m instanceof OutcomeQuery q) {
            body = Body.outcomeQuery(new io.fastccs.protocol.wire.thrift.OutcomeQuery(q.requestId(),
                    txnIdToWire(q.txnId())));
        } else if (m instanceof OutcomeReply r) {
            var w = new io.fastccs.protocol.wire.thrift.OutcomeReply(r.requestId(), txnIdToWire(r.txnId()),
                    outcomeToWire(r.outcome()));
            if (r.commitClock() != null) {
                w.setCommitClock(clockToWire(r.commitClock()));
                w.setCommitTime(nonNegativeTime(r.commitTime(), "OutcomeReply.commitTime"));
            }
            body = Body.outcomeReply(w);
        } else if (m instanceof ErrorReply e) {
            if (e.owner() < -1)
                throw new IllegalArgumentException("ErrorReply.owner is a partition or -1, got " + e.owner());
            var w = new io.fastccs.protocol.wire.thrift.ErrorReply(
                    e.requestId(), errorCodeToWire(e.code()), e.owner());
            if (e.message() != null) w.setMessage(e.message());
            body = Body.errorReply(w);
        } else if (m instanceof Hello h) {
            var w = new io.fastccs.protocol.wire.thrift.Hello(h.version());
            if (h.partition() >= 0) w.setPartition(h.partition());
            if (h.user() != null) w.setUser(h.user());
            if (h.password() != null) w.setPassword(h.password());
            if (h.target() >= 0) w.setTarget(h.target());
            if (h.protocol() != Protocol.FASTCCS) w.setProtocol(h.protocol().word());
            body = Body.hello(w);
        } else if (m instanceof HelloReply h) {
            checkPartition(h.partition(), "HelloReply.partition");
            var w = new io.fastccs.protocol.wire.thrift.HelloReply(h.version());
            w.setPartition(h.partition());
            w.setPartitions(h.partitions());
            if (h.protocol() != Protocol.FASTCCS) w.setProtocol(h.protocol().word());
            body = Body.helloReply(w);
        } else if (m instanceof RingRequest r) {
            body = Body.ringRequest(new io.fastccs.protocol.wire.thrift.RingRequest(r.requestId()));
        } else if (m instanceof RingReply r) {
            List<io.fastccs.protocol.wire.thrift.RingMember> members = new ArrayList<>(r.members().size());
            for (RingMember rm : r.members()) {
                checkPartition(rm.partition(), "RingMember.partition");
                var w = new io.fastccs.protocol.wire.thrift.RingMember(rm.partition(), rm.host(), rm.port(), rm.token(), rm.alive());
                if (!rm.replicas().isEmpty()) w.setReplicas(new ArrayList<>(rm.replicas()));
                members.add(w);
            }
            body = Body.ringReply(new io.fastccs.protocol.wire.thrift.RingReply(r.requestId(), members));
        } else {
            // The other protocols' messages, each protocol in its own class.
            body = CompactWire.toWire(m);
            if (body == null) body = EventualWire.toWire(m);
            if (body == null) body = EigerWire.toWire(m);
            if (body == null) body = WrenWire.toWire(m);
            if (body == null) throw new IllegalArgumentException("no wire form for " + m);
        }
        return new Frame(body);
    }

    // Helpers, package-private for the other protocols' mappings (EventualWire, EigerWire, WrenWire).

    static List<ByteBuffer> keysToWire(List<Key> keys) {
        List<ByteBuffer> out = new ArrayList<>(keys.size());
        // unsafeBytes: the buffers only live until the frame is written, and writing never modifies them.
        for (Key k : keys) out.add(ByteBuffer.wrap(k.unsafeBytes()));
        return out;
    }

    private static List<Long> clockToWire(VectorClock clock) {
        List<Long> out = new ArrayList<>(clock.size());
        for (int i = 0; i < clock.size(); i++) out.add(clock.get(i));
        return out;
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

    static List<Integer> partitionsToWire(List<Integer> partitions, String field) {
        for (int p : partitions) checkPartition(p, field);
        return partitions;
    }

    static List<io.fastccs.protocol.wire.thrift.KeyValue> writesToWire(List<KeyValue> writes) {
        List<io.fastccs.protocol.wire.thrift.KeyValue> out = new ArrayList<>(writes.size());
        for (KeyValue kv : writes) {
            var w = new io.fastccs.protocol.wire.thrift.KeyValue(ByteBuffer.wrap(kv.key().unsafeBytes()), ByteBuffer.wrap(kv.value()));
            if (kv.kind() != WriteKind.PUT) w.setKind((byte) kv.kind().ordinal());
            out.add(w);
        }
        return out;
    }

    static List<io.fastccs.protocol.wire.thrift.ReadValue> readValuesToWire(List<ReadValue> values, String sequenceField) {
        List<io.fastccs.protocol.wire.thrift.ReadValue> out = new ArrayList<>(values.size());
        for (ReadValue v : values) {
            checkSequence(v.sequence(), sequenceField);
            var w = new io.fastccs.protocol.wire.thrift.ReadValue(ByteBuffer.wrap(v.key().unsafeBytes()), v.sequence());
            if (v.value() != null) w.setValue(v.value());
            if (v.type() != KeyType.REGISTER) w.setType((byte) v.type().ordinal());
            out.add(w);
        }
        return out;
    }

    static List<io.fastccs.protocol.wire.thrift.WaitingVersion> waitingToWire(List<WaitingVersion> waiting) {
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

    static io.fastccs.protocol.wire.thrift.TxnId txnIdToWire(TxnId id) {
        return new io.fastccs.protocol.wire.thrift.TxnId(id.client(), id.sequence());
    }

    static io.fastccs.protocol.wire.thrift.Outcome outcomeToWire(Outcome o) {
        return switch (o) {
            case COMMITTED -> io.fastccs.protocol.wire.thrift.Outcome.COMMITTED;
            case ABORTED -> io.fastccs.protocol.wire.thrift.Outcome.ABORTED;
            case UNDECIDED -> io.fastccs.protocol.wire.thrift.Outcome.UNDECIDED;
        };
    }

    private static io.fastccs.protocol.wire.thrift.ErrorCode errorCodeToWire(ErrorCode c) {
        return switch (c) {
            case NOT_OWNER -> io.fastccs.protocol.wire.thrift.ErrorCode.NOT_OWNER;
            case INVALID_REQUEST -> io.fastccs.protocol.wire.thrift.ErrorCode.INVALID_REQUEST;
            case SNAPSHOT_EXPIRED -> io.fastccs.protocol.wire.thrift.ErrorCode.SNAPSHOT_EXPIRED;
            case MALFORMED_FRAME -> io.fastccs.protocol.wire.thrift.ErrorCode.MALFORMED_FRAME;
            case UNKNOWN_MESSAGE -> io.fastccs.protocol.wire.thrift.ErrorCode.UNKNOWN_MESSAGE;
            case UNAUTHORIZED -> io.fastccs.protocol.wire.thrift.ErrorCode.UNAUTHORIZED;
            case OVERLOADED -> io.fastccs.protocol.wire.thrift.ErrorCode.OVERLOADED;
            case INTERNAL -> io.fastccs.protocol.wire.thrift.ErrorCode.INTERNAL;
            case NOT_LEADER -> io.fastccs.protocol.wire.thrift.ErrorCode.NOT_LEADER;
            case BASE_UNKNOWN -> io.fastccs.protocol.wire.thrift.ErrorCode.BASE_UNKNOWN;
        };
    }

    static void checkPartition(int p, String field) {
        if (p < 0) throw new IllegalArgumentException(field + " must be a partition index >= 0, got " + p);
    }

    static void checkSequence(long s, String field) {
        if (s < 0) throw new IllegalArgumentException(field + " must be a sequence number >= 0, got " + s);
    }

    /** For a time, clock or version that is never negative. */
    static void checkNonNegative(long v, String field) {
        if (v < 0) throw new IllegalArgumentException(field + " must be >= 0, got " + v);
    }

    static long nonNegativeTime(long v, String field) {
        checkNonNegative(v, field);
        return v;
    }

    /** For a time that is -1 where there is none. */
    static void checkTimeOrMinusOne(long v, String field) {
        if (v < -1) throw new IllegalArgumentException(field + " must be a time >= 0 or -1, got " + v);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Wire to records.
    // ------------------------------------------------------------------------------------------------------------

    /**
     * @param bodyFieldId the union field id the protocol saw, to explain an empty body
     */
    static Message fromWire(Frame frame, short bodyFieldId, WireLimits limits) throws MalformedFrameException {
        Body body = frame.getBody();
        if (body == null) throw missing("Frame.body");
        Body._Fields type = body.getSetField();
        if (type == null) throw emptyBody(bodyFieldId);
        return switch (type) {
            case FIRST_ROUND_READ -> {
                var w = body.getFirstRoundRead();
                yield new FirstRoundRead(
                        requireSet(w.isSetRequestId(), "FirstRoundRead.requestId", w.getRequestId()),
                        keys(w.getKeys(), "FirstRoundRead.keys", limits),
                        clock(w.getClock(), "FirstRoundRead.clock", limits));
            }
            case SECOND_ROUND_READ -> {
                var w = body.getSecondRoundRead();
                yield new SecondRoundRead(
                        requireSet(w.isSetRequestId(), "SecondRoundRead.requestId", w.getRequestId()),
                        keys(w.getKeys(), "SecondRoundRead.keys", limits),
                        clock(w.getClock(), "SecondRoundRead.clock", limits),
                        requireSet(w.isSetFirstRoundTime(), "SecondRoundRead.firstRoundTime", w.getFirstRoundTime()));
            }
            case WRITE_REQUEST -> {
                var w = body.getWriteRequest();
                yield new WriteRequest(
                        requireSet(w.isSetRequestId(), "WriteRequest.requestId", w.getRequestId()),
                        txnId(w.getTxnId(), "WriteRequest.txnId"),
                        partition(w.isSetCoordinator(), w.getCoordinator(), "WriteRequest.coordinator"),
                        partitions(w.getParticipants(), "WriteRequest.participants", limits),
                        writes(w.getWrites(), "WriteRequest.writes", limits),
                        clock(w.getClock(), "WriteRequest.clock", limits),
                        nonNegative(w.isSetDependencyTime(), w.getDependencyTime(), "WriteRequest.dependencyTime"));
            }
            case OUTCOME_QUERY -> {
                var w = body.getOutcomeQuery();
                yield new OutcomeQuery(
                        requireSet(w.isSetRequestId(), "OutcomeQuery.requestId", w.getRequestId()),
                        txnId(w.getTxnId(), "OutcomeQuery.txnId"));
            }
            case READ_REPLY -> {
                var w = body.getReadReply();
                yield new ReadReply(
                        requireSet(w.isSetRequestId(), "ReadReply.requestId", w.getRequestId()),
                        readValues(w.getValues(), "ReadReply.values", limits),
                        clock(w.getSnapshot(), "ReadReply.snapshot", limits),
                        clock(w.getMaxCommitClock(), "ReadReply.maxCommitClock", limits),
                        nonNegative(w.isSetMaxCommitTime(), w.getMaxCommitTime(), "ReadReply.maxCommitTime"),
                        requireSet(w.isSetServerTime(), "ReadReply.serverTime", w.getServerTime()),
                        w.isSetWaiting() ? waiting(w.getWaiting(), "ReadReply.waiting", limits) : List.of(),
                        w.isSetWaitingComplete() && w.isWaitingComplete(),
                        w.isSetStableEpoch() ? nonNegative(true, w.getStableEpoch(), "ReadReply.stableEpoch") : 0);
            }
            case WRITE_REPLY -> {
                var w = body.getWriteReply();
                yield new WriteReply(
                        requireSet(w.isSetRequestId(), "WriteReply.requestId", w.getRequestId()),
                        txnId(w.getTxnId(), "WriteReply.txnId"),
                        outcome(w.getOutcome(), "WriteReply.outcome"),
                        w.isSetCommitClock() ? clock(w.getCommitClock(), "WriteReply.commitClock", limits) : null,
                        w.isSetCommitClock()
                                ? nonNegative(w.isSetCommitTime(), w.getCommitTime(), "WriteReply.commitTime") : 0);
            }
            case OUTCOME_REPLY -> {
                var w = body.getOutcomeReply();
                yield new OutcomeReply(
                        requireSet(w.isSetRequestId(), "OutcomeReply.requestId", w.getRequestId()),
                        txnId(w.getTxnId(), "OutcomeReply.txnId"),
                        outcome(w.getOutcome(), "OutcomeReply.outcome"),
                        w.isSetCommitClock() ? clock(w.getCommitClock(), "OutcomeReply.commitClock", limits) : null,
                        w.isSetCommitClock()
                                ? nonNegative(w.isSetCommitTime(), w.getCommitTime(), "OutcomeReply.commitTime") : 0);
            }
            case ERROR_REPLY -> {
                var w = body.getErrorReply();
                int owner = requireSet(w.isSetOwner(), "ErrorReply.owner", w.getOwner());
                if (owner < -1) throw invalid("ErrorReply.owner is a partition or -1, got " + owner);
                yield new ErrorReply(
                        requireSet(w.isSetRequestId(), "ErrorReply.requestId", w.getRequestId()),
                        errorCode(w.getCode()),
                        w.getMessage(),
                        owner);
            }
            case PREPARED -> {
                var w = body.getPrepared();
                yield new Prepared(
                        txnId(w.getTxnId(), "Prepared.txnId"),
                        partition(w.isSetFromPartition(), w.getFromPartition(), "Prepared.fromPartition"),
                        sequence(w.isSetSequence(), w.getSequence(), "Prepared.sequence"),
                        partitions(w.getParticipants(), "Prepared.participants", limits));
            }
            case COMMIT -> {
                var w = body.getCommit();
                yield new Commit(txnId(w.getTxnId(), "Commit.txnId"),
                        clock(w.getCommitClock(), "Commit.commitClock", limits),
                        nonNegative(w.isSetCommitTime(), w.getCommitTime(), "Commit.commitTime"));
            }
            case ABORT -> new Abort(txnId(body.getAbort().getTxnId(), "Abort.txnId"));
            case REFUSED -> {
                var w = body.getRefused();
                yield new Refused(txnId(w.getTxnId(), "Refused.txnId"),
                        partition(w.isSetFromPartition(), w.getFromPartition(), "Refused.fromPartition"),
                        partitions(w.getParticipants(), "Refused.participants", limits));
            }
            case CHECK_COMMIT -> {
                var w = body.getCheckCommit();
                yield new CheckCommit(txnId(w.getTxnId(), "CheckCommit.txnId"),
                        partition(w.isSetFromPartition(), w.getFromPartition(), "CheckCommit.fromPartition"));
            }
            case STABILIZE -> {
                var w = body.getStabilize();
                yield new Stabilize(
                        partition(w.isSetFromPartition(), w.getFromPartition(), "Stabilize.fromPartition"),
                        sequence(w.isSetSettled(), w.getSettled(), "Stabilize.settled"));
            }
            case STABILIZE_UP -> {
                var w = body.getStabilizeUp();
                yield new StabilizeUp(partition(w.isSetFromPartition(), w.getFromPartition(), "StabilizeUp.fromPartition"),
                        settled(w, "StabilizeUp", limits), w.isSetEpoch() ? nonNegative(true, w.getEpoch(), "StabilizeUp.epoch") : 0);
            }
            case STABILIZE_DOWN -> {
                var w = body.getStabilizeDown();
                yield new StabilizeDown(partition(w.isSetFromPartition(), w.getFromPartition(), "StabilizeDown.fromPartition"),
                        settled(w, "StabilizeDown", limits),
                        w.isSetEpoch() ? nonNegative(true, w.getEpoch(), "StabilizeDown.epoch") : 0, w.isSetFull() && w.isFull());
            }
            case HELLO -> {
                var w = body.getHello();
                yield new Hello(requireSet(w.isSetVersion(), "Hello.version", w.getVersion()),
                        w.isSetPartition() ? partition(true, w.getPartition(), "Hello.partition") : -1,
                        w.isSetUser() ? w.getUser() : null, w.isSetPassword() ? w.getPassword() : null,
                        w.isSetTarget() ? partition(true, w.getTarget(), "Hello.target") : -1,
                        w.isSetProtocol() ? protocol(w.getProtocol(), "Hello.protocol") : Protocol.FASTCCS);
            }
            case HELLO_REPLY -> {
                var w = body.getHelloReply();
                yield new HelloReply(requireSet(w.isSetVersion(), "HelloReply.version", w.getVersion()),
                        partition(w.isSetPartition(), w.getPartition(), "HelloReply.partition"),
                        requireSet(w.isSetPartitions(), "HelloReply.partitions", w.getPartitions()),
                        w.isSetProtocol() ? protocol(w.getProtocol(), "HelloReply.protocol") : Protocol.FASTCCS);
            }
            case RING_REQUEST -> new RingRequest(
                    requireSet(body.getRingRequest().isSetRequestId(), "RingRequest.requestId", body.getRingRequest().getRequestId()));
            case RING_REPLY -> {
                var w = body.getRingReply();
                if (!w.isSetMembers()) throw missing("RingReply.members");
                if (w.getMembers().size() > limits.maxClockEntries()) throw tooMany("RingReply.members", w.getMembers().size(), limits.maxClockEntries());
                List<RingMember> members = new ArrayList<>(w.getMembers().size());
                for (var rm : w.getMembers()) {
                    if (rm == null || !rm.isSetHost()) throw missing("RingMember.host");
                    members.add(new RingMember(partition(rm.isSetPartition(), rm.getPartition(), "RingMember.partition"), rm.getHost(),
                            requireSet(rm.isSetPort(), "RingMember.port", rm.getPort()),
                            requireSet(rm.isSetToken(), "RingMember.token", rm.getToken()), rm.isAlive(), replicas(rm, limits)));
                }
                yield new RingReply(requireSet(w.isSetRequestId(), "RingReply.requestId", w.getRequestId()), members);
            }
            case COMPACT_FIRST_ROUND_READ, COMPACT_SECOND_ROUND_READ, COMPACT_WRITE_REQUEST, COMPACT_READ_REPLY,
                    COMPACT_WRITE_REPLY, COMPACT_COMMIT -> CompactWire.fromWire(body, limits);
            case EVENTUAL_READ, EVENTUAL_READ_ANSWER, EVENTUAL_WRITE, EVENTUAL_WRITE_ANSWER ->
                    EventualWire.fromWire(body, limits);
            case EIGER_READ1, EIGER_READ_AT, EIGER_COHORT_WRITE, EIGER_COORD_WRITE, EIGER_OUTCOME_QUERY,
                    EIGER_READ_REPLY, EIGER_WRITE_ACK, EIGER_WRITE_REPLY, EIGER_OUTCOME_REPLY, EIGER_YES_VOTE,
                    EIGER_COMMIT, EIGER_ABORT, EIGER_ACK, EIGER_CHECK_TXN, EIGER_CHECK_TXN_REPLY ->
                    EigerWire.fromWire(body, limits);
            case WREN_START, WREN_START_REPLY, WREN_SLICE, WREN_SLICE_REPLY, WREN_COMMIT_REQUEST, WREN_OUTCOME_REQUEST,
                    WREN_COMMIT_REPLY, WREN_PREPARE, WREN_PREPARE_REPLY, WREN_COMMIT, WREN_ABORT, WREN_CHECK_TXN,
                    WREN_LST -> WrenWire.fromWire(body, limits);
        };
    }

    private static MalformedFrameException emptyBody(short fieldId) {
        if (fieldId == 0) return new MalformedFrameException(Kind.MALFORMED, "the frame's body holds no message");
        Body._Fields known = Body._Fields.findByThriftId(fieldId);
        if (known != null)
            return new MalformedFrameException(Kind.MALFORMED,
                    "body field " + fieldId + " (" + known.getFieldName() + ") is not encoded as a struct");
        return new MalformedFrameException(Kind.UNKNOWN_MESSAGE, "unknown message type: body field " + fieldId);
    }

    private static Protocol protocol(String word, String field) throws MalformedFrameException {
        try {
            return Protocol.parse(word);
        } catch (IllegalArgumentException e) {
            throw invalid(field + ": " + e.getMessage());
        }
    }

    static MalformedFrameException missing(String field) {
        return new MalformedFrameException(Kind.MISSING_FIELD, field + " is absent");
    }

    static MalformedFrameException invalid(String detail) {
        return new MalformedFrameException(Kind.INVALID_VALUE, detail);
    }

    static MalformedFrameException tooMany(String field, int size, int limit) {
        return new MalformedFrameException(Kind.LIMIT_EXCEEDED, field + " has " + size + " elements, limit " + limit);
    }

    static long requireSet(boolean isSet, String field, long value) throws MalformedFrameException {
        if (!isSet) throw missing(field);
        return value;
    }

    static int requireSet(boolean isSet, String field, int value) throws MalformedFrameException {
        if (!isSet) throw missing(field);
        return value;
    }

    static int partition(boolean isSet, int p, String field) throws MalformedFrameException {
        if (!isSet) throw missing(field);
        if (p < 0) throw invalid(field + " is a negative partition index: " + p);
        return p;
    }

    static long sequence(boolean isSet, long s, String field) throws MalformedFrameException {
        if (!isSet) throw missing(field);
        if (s < 0) throw invalid(field + " is a negative sequence number: " + s);
        return s;
    }

    /** A time, clock or version, which is never negative. */
    static long nonNegative(boolean isSet, long v, String field) throws MalformedFrameException {
        if (!isSet) throw missing(field);
        if (v < 0) throw invalid(field + " is negative: " + v);
        return v;
    }

    /** A time that is -1 where there is none. */
    static long timeOrMinusOne(boolean isSet, long v, String field) throws MalformedFrameException {
        if (!isSet) throw missing(field);
        if (v < -1) throw invalid(field + " is a time >= 0 or -1, got " + v);
        return v;
    }

    static VectorClock clock(List<Long> wire, String field, WireLimits limits) throws MalformedFrameException {
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

    static List<Settled> settled(io.fastccs.protocol.wire.thrift.SettledEntries wire, String what, WireLimits limits)
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

    static List<Integer> partitions(List<Integer> wire, String field, WireLimits limits)
            throws MalformedFrameException {
        if (wire == null) throw missing(field);
        if (wire.size() > limits.maxClockEntries()) throw tooMany(field, wire.size(), limits.maxClockEntries());
        for (int i = 0; i < wire.size(); i++)
            if (wire.get(i) < 0) throw invalid(field + "[" + i + "] is a negative partition index: " + wire.get(i));
        return wire;
    }

    static TxnId txnId(io.fastccs.protocol.wire.thrift.TxnId wire, String field)
            throws MalformedFrameException {
        if (wire == null) throw missing(field);
        return new TxnId(requireSet(wire.isSetClient(), field + ".client", wire.getClient()),
                requireSet(wire.isSetSequence(), field + ".sequence", wire.getSequence()));
    }

    static List<Key> keys(List<ByteBuffer> wire, String field, WireLimits limits)
            throws MalformedFrameException {
        if (wire == null) throw missing(field);
        if (wire.size() > limits.maxKeysPerMessage()) throw tooMany(field, wire.size(), limits.maxKeysPerMessage());
        List<Key> out = new ArrayList<>(wire.size());
        for (ByteBuffer b : wire) out.add(Key.wrap(copy(b)));
        return out;
    }

    static List<KeyValue> writes(List<io.fastccs.protocol.wire.thrift.KeyValue> wire, String field, WireLimits limits)
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

    static List<WaitingVersion> waiting(List<io.fastccs.protocol.wire.thrift.WaitingVersion> wire, String field,
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

    /** A write kind's number (absent: a put); {@link WriteKind#FOLDED} never travels. */
    static WriteKind writeKind(boolean set, byte wire, String field) throws MalformedFrameException {
        if (!set) return WriteKind.PUT;
        WriteKind kind = WriteKind.ofOrdinal(wire);
        if (kind == null || kind == WriteKind.FOLDED) throw invalid(field + " is " + wire + ", not a write kind");
        return kind;
    }

    static KeyType keyType(boolean set, byte wire, String field) throws MalformedFrameException {
        if (!set) return KeyType.REGISTER;
        if (wire < 0 || wire >= KeyType.values().length) throw invalid(field + " is " + wire + ", not a key type");
        return KeyType.values()[wire];
    }

    static List<ReadValue> readValues(List<io.fastccs.protocol.wire.thrift.ReadValue> wire, String field, WireLimits limits)
            throws MalformedFrameException {
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

    static Outcome outcome(io.fastccs.protocol.wire.thrift.Outcome wire, String field)
            throws MalformedFrameException {
        // Thrift decodes an enum value it does not know as null, so absent and unknown look the same here.
        if (wire == null) throw invalid(field + " is absent or not a known outcome");
        return switch (wire) {
            case COMMITTED -> Outcome.COMMITTED;
            case ABORTED -> Outcome.ABORTED;
            case UNDECIDED -> Outcome.UNDECIDED;
        };
    }

    private static List<String> replicas(io.fastccs.protocol.wire.thrift.RingMember rm, WireLimits limits) throws MalformedFrameException {
        if (!rm.isSetReplicas()) return List.of();
        if (rm.getReplicas().size() > limits.maxClockEntries())
            throw tooMany("RingMember.replicas", rm.getReplicas().size(), limits.maxClockEntries());
        for (String r : rm.getReplicas()) if (r == null) throw missing("RingMember.replicas entry");
        return List.copyOf(rm.getReplicas());
    }

    private static ErrorCode errorCode(io.fastccs.protocol.wire.thrift.ErrorCode wire) throws MalformedFrameException {
        if (wire == null) throw invalid("ErrorReply.code is absent or not a known error code");
        return switch (wire) {
            case NOT_OWNER -> ErrorCode.NOT_OWNER;
            case INVALID_REQUEST -> ErrorCode.INVALID_REQUEST;
            case SNAPSHOT_EXPIRED -> ErrorCode.SNAPSHOT_EXPIRED;
            case MALFORMED_FRAME -> ErrorCode.MALFORMED_FRAME;
            case UNKNOWN_MESSAGE -> ErrorCode.UNKNOWN_MESSAGE;
            case UNAUTHORIZED -> ErrorCode.UNAUTHORIZED;
            case OVERLOADED -> ErrorCode.OVERLOADED;
            case INTERNAL -> ErrorCode.INTERNAL;
            case NOT_LEADER -> ErrorCode.NOT_LEADER;
            case BASE_UNKNOWN -> ErrorCode.BASE_UNKNOWN;
        };
    }

    /**
     * The bytes of a decoded binary. They must be copied: Thrift hands out a view of the frame, whose buffer the
     * transport is free to reuse once decode returns.
     */
    static byte[] copy(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(b.position(), out);
        return out;
    }
}
