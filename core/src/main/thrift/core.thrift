/*
 * The wire's neutral core: the frame every protocol's messages travel in, the values more than one protocol carries,
 * and the connection's own messages (handshake, ring discovery, errors), which every node answers whatever protocol it
 * runs. Each protocol's schema includes this file: fastccs.thrift, eiger.thrift, wren.thrift, eventual.thrift.
 * Encoded with TCompactProtocol; one Frame per transport frame (the transport carries the length). The Java side is
 * io.fastccs.core.wire.WireCodec, which writes the frame itself and hands each message to the mapping of the
 * protocol that owns it (a ProtocolWire, found with a ServiceLoader).
 *
 * "Algorithm 1/2, line n" refers to T. Lykhenko, Efficient Implementation of Causal Consistent
 * Transactions in the Cloud (MSc thesis, 2019), chapter 3: algorithm 1 is the client, algorithm 2 the partition.
 *
 * Conventions (every protocol's schema follows them)
 * - No field is declared `required`: "required is forever" in Thrift. Instead WireCodec rejects a frame that
 *   lacks any field not marked `optional` (MalformedFrameException, kind MISSING_FIELD), so a later version can
 *   relax a field without breaking old readers' schema.
 * - `optional` fields are the only ones that may be absent; absence maps to null in the Java records.
 * - A vector clock is list<i64> with one entry per partition (index = partition number), every entry >= 0.
 *   TCompactProtocol writes each entry as a zig-zag varint: 1 byte below 64, 2 below 8192, 3 below 2^20.
 * - Partitions are i32 indices >= 0. Keys and values are binary.
 * - Field ids are never reused; retire a field by commenting it out with its id.
 * - Structs of every schema share one namespace in the IDL's readers, so a protocol's structs carry its name as a
 *   prefix where a name could clash.
 *
 * The frame
 *
 *   struct Frame { 1: Body body }
 *   union Body { <member id>: <message struct> <name> }
 *
 * Body is the union of every protocol's members: ConnectionBody below, FastCcsBody, EigerBody, WrenBody and
 * EventualBody in the protocols' files. No schema declares the whole union, so that a protocol can be left out or
 * added without touching another's file; WireCodec writes and reads the frame exactly as Thrift would that union. A
 * reader that meets a member id no protocol it knows owns skips it and reports an unknown message type rather than
 * a malformed frame. Member ids 1-15 cost one byte less in the frame header than 16-63, which cost one byte less
 * than 64 and up. Each protocol has a block of ids:
 *
 *   1-7, 9-19, 24-27  FastCCS              (fastccs.thrift)
 *   8, 20-23          the connection       (here)
 *   28-29             free
 *   30-39             eventual             (eventual.thrift)
 *   40-59             Eiger                (eiger.thrift)
 *   60-79             Wren                 (wren.thrift)
 *   80-               free: a protocol added later takes a block of its own
 */

namespace java io.fastccs.core.wire.thrift

// ---------------------------------------------------------------------------------------------------------------
// Values more than one protocol carries
// ---------------------------------------------------------------------------------------------------------------

/** tx_id of algorithm 1, line 23: the client's random 64-bit id and its own counter (thesis section 3.5). */
struct TxnId {
  1: i64 client
  2: i64 sequence
}

/** One write of a transactional_batch_mutate (algorithm 1, line 23). */
struct KeyValue {
  1: binary key
  /** The value of a put, or the operand of a commutative operation (WriteKind, Operands). */
  2: binary value
  /** The WriteKind's number: absent for a put; 1 add, 2 max, 3 set add, 4 set remove, 5 top-k insert. */
  3: optional byte kind
}

/**
 * One element of resp in a read answer (algorithm 2, lines 9 and 16): the newest visible version of a key.
 * value is absent when the key has no version in the snapshot; sequence is then 0.
 */
struct ReadValue {
  1: binary key
  2: optional binary value
  /**
   * The owning partition's entry of the version's commit clock. In EventualReadAnswer the winning write's stamp time,
   * in WrenSliceReply the version's commit time.
   */
  3: i64 sequence
  /** The key's KeyType number when it is a typed key (the value is then the fold of its operations); absent: plain. */
  4: optional byte type
}

/** What became of a write-only transaction. Values match io.fastccs.core.messages.Outcome. */
enum Outcome {
  COMMITTED = 0
  ABORTED = 1
  UNDECIDED = 2
}

/** Why a partition refused a request. Values match io.fastccs.core.messages.ErrorCode. */
enum ErrorCode {
  NOT_OWNER = 0
  INVALID_REQUEST = 1
  SNAPSHOT_EXPIRED = 2
  MALFORMED_FRAME = 3
  UNKNOWN_MESSAGE = 4
  UNAUTHORIZED = 5
  OVERLOADED = 6
  INTERNAL = 7
  NOT_LEADER = 8
  BASE_UNKNOWN = 9
}

// ---------------------------------------------------------------------------------------------------------------
// The connection's own messages, handled by the node's transport rather than by a protocol: the Java records are
// messages.ControlMessage (Hello, HelloReply, RingRequest, RingReply) and messages.ErrorReply, mapped by
// ConnectionWire.
// ---------------------------------------------------------------------------------------------------------------

/** A refused request; nothing of it is stored. Not in the thesis. */
struct ErrorReply {
  1: i64 requestId
  2: ErrorCode code
  /** Human-readable detail; absent maps to a null message. */
  3: optional string message
  /**
   * For NOT_OWNER, the partition that owns the key; for NOT_LEADER, the partition whose preferred node leads the
   * asked partition's replica group now (-1 when unknown); otherwise -1.
   */
  4: i32 owner
}

/** A client asks any node for the partition ring. */
struct RingRequest {
  1: i64 requestId
}

/** One partition of the ring and where it is served. */
struct RingMember {
  1: i32 partition
  2: string host
  3: i32 port
  /** The partition's ring token (the upper bound of the key range it owns). */
  4: i64 token
  5: bool alive
  /**
   * With replicated partitions: every replica's FastCCS address ("host:port"), the one in host and port (the
   * group's leader, where requests go) among them. Absent at replication factor 1.
   */
  6: optional list<string> replicas
}

/** The answer to a RingRequest. */
struct RingReply {
  1: i64 requestId
  2: list<RingMember> members
}

/**
 * First frame on a new connection. partition is set when the peer is a partition (absent for clients);
 * user and password when authentication is enabled.
 */
struct Hello {
  1: i32 version
  2: optional i32 partition
  3: optional string user
  4: optional string password
  /**
   * The partition the connection is for, when a node hosts several (replicated partitions: a node leads some
   * groups and follows in others). Absent: the node's own partition.
   */
  5: optional i32 target
  /**
   * The consistency protocol the sender speaks (io.fastccs.core.primitives.Protocol's word: fastccs, eiger, wren,
   * eventual). A node running another protocol refuses the connection. Absent: fastccs.
   */
  6: optional string protocol
}

/** The answer to a Hello: the protocol version the node will speak and the partition it serves. */
struct HelloReply {
  1: i32 version
  /** The answering node's partition index. */
  2: optional i32 partition
  /** The number of partitions in the cluster: the size of every vector clock. */
  3: optional i32 partitions
  /** The consistency protocol the node runs (see Hello.protocol). Absent: fastccs. */
  4: optional string protocol
}

/** The connection's members of the frame's body (see "The frame" above). */
union ConnectionBody {
  8: ErrorReply errorReply
  20: RingRequest ringRequest
  21: RingReply ringReply
  22: Hello hello
  23: HelloReply helloReply
}
