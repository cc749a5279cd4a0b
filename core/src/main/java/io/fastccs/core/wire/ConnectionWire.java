package io.fastccs.core.wire;

import static io.fastccs.core.wire.WireChecks.checkPartition;
import static io.fastccs.core.wire.WireChecks.invalid;
import static io.fastccs.core.wire.WireChecks.missing;
import static io.fastccs.core.wire.WireChecks.partition;
import static io.fastccs.core.wire.WireChecks.requireSet;
import static io.fastccs.core.wire.WireChecks.tooMany;

import io.fastccs.core.wire.thrift.ConnectionBody;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.messages.RingMember;
import io.fastccs.core.messages.RingReply;
import io.fastccs.core.messages.RingRequest;
import io.fastccs.core.primitives.Protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * The connection's own messages, which every node answers whatever protocol it runs: the handshake, ring discovery
 * and error replies ({@code ConnectionBody} in {@code core.thrift}). Part of the codec rather than registered, since no
 * connection works without them.
 */
public final class ConnectionWire implements ProtocolWire {
    @Override
    public List<WireMember<?, ?>> members() {
        return List.of(
                WireMember.of(ConnectionBody._Fields.ERROR_REPLY, ErrorReply.class,
                        io.fastccs.core.wire.thrift.ErrorReply::new,
                        e -> {
                            if (e.owner() < -1)
                                throw new IllegalArgumentException("ErrorReply.owner is a partition or -1, got " + e.owner());
                            var w = new io.fastccs.core.wire.thrift.ErrorReply(e.requestId(), errorCodeToWire(e.code()), e.owner());
                            if (e.message() != null) w.setMessage(e.message());
                            return w;
                        },
                        (w, limits) -> {
                            int owner = requireSet(w.isSetOwner(), "ErrorReply.owner", w.getOwner());
                            if (owner < -1) throw invalid("ErrorReply.owner is a partition or -1, got " + owner);
                            return new ErrorReply(
                                    requireSet(w.isSetRequestId(), "ErrorReply.requestId", w.getRequestId()),
                                    errorCode(w.getCode()),
                                    w.getMessage(),
                                    owner);
                        }),
                WireMember.of(ConnectionBody._Fields.RING_REQUEST, RingRequest.class,
                        io.fastccs.core.wire.thrift.RingRequest::new,
                        r -> new io.fastccs.core.wire.thrift.RingRequest(r.requestId()),
                        (w, limits) -> new RingRequest(requireSet(w.isSetRequestId(), "RingRequest.requestId", w.getRequestId()))),
                WireMember.of(ConnectionBody._Fields.RING_REPLY, RingReply.class,
                        io.fastccs.core.wire.thrift.RingReply::new,
                        r -> {
                            List<io.fastccs.core.wire.thrift.RingMember> members = new ArrayList<>(r.members().size());
                            for (RingMember rm : r.members()) {
                                checkPartition(rm.partition(), "RingMember.partition");
                                var w = new io.fastccs.core.wire.thrift.RingMember(rm.partition(), rm.host(), rm.port(), rm.token(), rm.alive());
                                if (!rm.replicas().isEmpty()) w.setReplicas(new ArrayList<>(rm.replicas()));
                                members.add(w);
                            }
                            return new io.fastccs.core.wire.thrift.RingReply(r.requestId(), members);
                        },
                        (w, limits) -> {
                            if (!w.isSetMembers()) throw missing("RingReply.members");
                            if (w.getMembers().size() > limits.maxClockEntries()) throw tooMany("RingReply.members", w.getMembers().size(), limits.maxClockEntries());
                            List<RingMember> members = new ArrayList<>(w.getMembers().size());
                            for (var rm : w.getMembers()) {
                                if (rm == null || !rm.isSetHost()) throw missing("RingMember.host");
                                members.add(new RingMember(partition(rm.isSetPartition(), rm.getPartition(), "RingMember.partition"), rm.getHost(),
                                        requireSet(rm.isSetPort(), "RingMember.port", rm.getPort()),
                                        requireSet(rm.isSetToken(), "RingMember.token", rm.getToken()), rm.isAlive(), replicas(rm, limits)));
                            }
                            return new RingReply(requireSet(w.isSetRequestId(), "RingReply.requestId", w.getRequestId()), members);
                        }),
                WireMember.of(ConnectionBody._Fields.HELLO, Hello.class, io.fastccs.core.wire.thrift.Hello::new,
                        h -> {
                            var w = new io.fastccs.core.wire.thrift.Hello(h.version());
                            if (h.partition() >= 0) w.setPartition(h.partition());
                            if (h.user() != null) w.setUser(h.user());
                            if (h.password() != null) w.setPassword(h.password());
                            if (h.target() >= 0) w.setTarget(h.target());
                            if (h.protocol() != Protocol.FASTCCS) w.setProtocol(h.protocol().word());
                            return w;
                        },
                        (w, limits) -> new Hello(requireSet(w.isSetVersion(), "Hello.version", w.getVersion()),
                                w.isSetPartition() ? partition(true, w.getPartition(), "Hello.partition") : -1,
                                w.isSetUser() ? w.getUser() : null, w.isSetPassword() ? w.getPassword() : null,
                                w.isSetTarget() ? partition(true, w.getTarget(), "Hello.target") : -1,
                                w.isSetProtocol() ? protocol(w.getProtocol(), "Hello.protocol") : Protocol.FASTCCS)),
                WireMember.of(ConnectionBody._Fields.HELLO_REPLY, HelloReply.class,
                        io.fastccs.core.wire.thrift.HelloReply::new,
                        h -> {
                            checkPartition(h.partition(), "HelloReply.partition");
                            var w = new io.fastccs.core.wire.thrift.HelloReply(h.version());
                            w.setPartition(h.partition());
                            w.setPartitions(h.partitions());
                            if (h.protocol() != Protocol.FASTCCS) w.setProtocol(h.protocol().word());
                            return w;
                        },
                        (w, limits) -> new HelloReply(requireSet(w.isSetVersion(), "HelloReply.version", w.getVersion()),
                                partition(w.isSetPartition(), w.getPartition(), "HelloReply.partition"),
                                requireSet(w.isSetPartitions(), "HelloReply.partitions", w.getPartitions()),
                                w.isSetProtocol() ? protocol(w.getProtocol(), "HelloReply.protocol") : Protocol.FASTCCS)));
    }

    private static Protocol protocol(String word, String field) throws MalformedFrameException {
        try {
            return Protocol.parse(word);
        } catch (IllegalArgumentException e) {
            throw invalid(field + ": " + e.getMessage());
        }
    }

    private static List<String> replicas(io.fastccs.core.wire.thrift.RingMember rm, WireLimits limits) throws MalformedFrameException {
        if (!rm.isSetReplicas()) return List.of();
        if (rm.getReplicas().size() > limits.maxClockEntries())
            throw tooMany("RingMember.replicas", rm.getReplicas().size(), limits.maxClockEntries());
        for (String r : rm.getReplicas()) if (r == null) throw missing("RingMember.replicas entry");
        return List.copyOf(rm.getReplicas());
    }

    private static io.fastccs.core.wire.thrift.ErrorCode errorCodeToWire(ErrorCode c) {
        return switch (c) {
            case NOT_OWNER -> io.fastccs.core.wire.thrift.ErrorCode.NOT_OWNER;
            case INVALID_REQUEST -> io.fastccs.core.wire.thrift.ErrorCode.INVALID_REQUEST;
            case SNAPSHOT_EXPIRED -> io.fastccs.core.wire.thrift.ErrorCode.SNAPSHOT_EXPIRED;
            case MALFORMED_FRAME -> io.fastccs.core.wire.thrift.ErrorCode.MALFORMED_FRAME;
            case UNKNOWN_MESSAGE -> io.fastccs.core.wire.thrift.ErrorCode.UNKNOWN_MESSAGE;
            case UNAUTHORIZED -> io.fastccs.core.wire.thrift.ErrorCode.UNAUTHORIZED;
            case OVERLOADED -> io.fastccs.core.wire.thrift.ErrorCode.OVERLOADED;
            case INTERNAL -> io.fastccs.core.wire.thrift.ErrorCode.INTERNAL;
            case NOT_LEADER -> io.fastccs.core.wire.thrift.ErrorCode.NOT_LEADER;
            case BASE_UNKNOWN -> io.fastccs.core.wire.thrift.ErrorCode.BASE_UNKNOWN;
        };
    }

    private static ErrorCode errorCode(io.fastccs.core.wire.thrift.ErrorCode wire) throws MalformedFrameException {
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
}
