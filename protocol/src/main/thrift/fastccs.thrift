/*
 * FastCCS wire schema: every message a client and a partition, or two partitions, exchange.
 * Encoded with TCompactProtocol; one Frame per transport frame (the transport carries the length).
 * The Java side is io.fastccs.protocol.wire.WireCodec, which maps these structs to the records in
 * io.fastccs.protocol.messages.
 *
 * "Algorithm 1/2, line n" refers to T. Lykhenko, Efficient Implementation of Causal Consistent
 * Transactions in the Cloud (MSc thesis, 2019), chapter 3: algorithm 1 is the client, algorithm 2 the partition.
 *
 * Conventions
 * - No field is declared `required`: "required is forever" in Thrift. Instead WireCodec rejects a frame that
 *   lacks any field not marked `optional` (MalformedFrameException, kind MISSING_FIELD), so a later version can
 *   relax a field without breaking old readers' schema.
 * - `optional` fields are the only ones that may be absent; absence maps to null in the Java records.
 * - A vector clock is list<i64> with one entry per partition (index = partition number), every entry >= 0.
 *   TCompactProtocol writes each entry as a zig-zag varint: 1 byte below 64, 2 below 8192, 3 below 2^20.
 * - Partitions are i32 indices >= 0. Keys and values are binary.
 * - Field ids are never reused; retire a field by commenting it out with its id.
 */

namespace java io.fastccs.protocol.wire.thrift

// ---------------------------------------------------------------------------------------------------------------
// Shared values
// ---------------------------------------------------------------------------------------------------------------

/** tx_id of algorithm 1, line 23: the client's random 64-bit id and its own counter (thesis section 3.5). */
struct TxnId {
  1: i64 client
  2: i64 sequence
}

/** One write of a transactional_batch_mutate (algorithm 1, line 23). */
struct KeyValue {
  1: binary key
  2: binary value
}

/**
 * One element of resp in a read answer (algorithm 2, lines 9 and 16): the newest visible version of a key.
 * value is absent when the key has no version in the snapshot; sequence is then 0.
 */
struct ReadValue {
  1: binary key
  2: optional binary value
  /** The owning partition's entry of the version's commit clock. */
  3: i64 sequence
}

/** What became of a write-only transaction. Values match io.fastccs.protocol.messages.Outcome. */
enum Outcome {
  COMMITTED = 0
  ABORTED = 1
  UNDECIDED = 2
}

/** Why a partition refused a request. Values match io.fastccs.protocol.messages.ErrorCode. */
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
}

// ---------------------------------------------------------------------------------------------------------------
// Client requests (client -> partition)
// ---------------------------------------------------------------------------------------------------------------

/**
 * Round one of a read-only transaction: <multiget_slice r, vc_c> (algorithm 1, line 4), served by
 * algorithm 2, lines 2-10.
 */
struct FirstRoundRead {
  1: i64 requestId
  2: list<binary> keys
  /** vc_c: the client's vector clock. */
  3: list<i64> clock
}

/**
 * Round two of a read-only transaction: <multiget_slice_by_time r, vc_c> (algorithm 1, line 17), served by
 * algorithm 2, lines 11-16.
 */
struct SecondRoundRead {
  1: i64 requestId
  2: list<binary> keys
  /** vc_c after merging every round-one ctm (algorithm 1, line 8). */
  3: list<i64> clock
  /** The serverTime this partition returned in round one; bounds the version-retention window. */
  4: i64 firstRoundTime
}

/**
 * Round one of a write-only transaction: <transactional_batch_mutate r, vc_c, cp, SIZE(requests), tx_id>
 * (algorithm 1, line 23), served by algorithm 2, lines 17-26. The full participant list replaces SIZE(requests)
 * so the coordinator knows whom to abort after a timeout (section 3.8).
 */
struct WriteRequest {
  1: i64 requestId
  2: TxnId txnId
  /** cp: the coordinator partition the client chose (algorithm 1, line 21). */
  3: i32 coordinator
  4: list<i32> participants
  5: list<KeyValue> writes
  /** vc_c: the client's vector clock. */
  6: list<i64> clock
}

/**
 * A client that lost track of a write (timeout, restart) asks the coordinator for its outcome. Not in the
 * thesis; part of the fault handling of section 3.8.
 */
struct OutcomeQuery {
  1: i64 requestId
  2: TxnId txnId
}

// ---------------------------------------------------------------------------------------------------------------
// Responses (partition -> client)
// ---------------------------------------------------------------------------------------------------------------

/**
 * The answer to either read round: <multiget_slice_resp resp, ctm, svc> (algorithm 2, line 10; received by
 * algorithm 1, lines 5 and 18).
 */
struct ReadReply {
  1: i64 requestId
  2: list<ReadValue> values
  /** svc_i after merging the client's clock (algorithm 2, lines 5 and 12). */
  3: list<i64> snapshot
  /** ctm: the component-wise maximum of the returned versions' commit clocks (algorithm 2, lines 8 and 15). */
  4: list<i64> maxCommitClock
  /** The partition's time when it served the read, echoed back by a SecondRoundRead. */
  5: i64 serverTime
}

/**
 * A participant's final answer to a WriteRequest: <batch_mutate_resp ct> (algorithm 2, lines 34 and 37;
 * received by algorithm 1, line 24). Sent only once every smaller sequence number on the partition is settled.
 */
struct WriteReply {
  1: i64 requestId
  2: TxnId txnId
  3: Outcome outcome
  /** ct_T; present exactly when outcome is COMMITTED. */
  4: optional list<i64> commitClock
}

/** The coordinator's answer to an OutcomeQuery (section 3.8). */
struct OutcomeReply {
  1: i64 requestId
  2: TxnId txnId
  3: Outcome outcome
  /** ct_T; present exactly when outcome is COMMITTED. */
  4: optional list<i64> commitClock
}

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

// ---------------------------------------------------------------------------------------------------------------
// Partition to partition
// ---------------------------------------------------------------------------------------------------------------

/**
 * <prepared ct[i], tx_id>: a participant's sequence number for the transaction, sent to the coordinator
 * (algorithm 2, line 26; received at line 27). Repeats the participant list so a coordinator that has not yet
 * received its own WriteRequest knows whom to abort if it times out.
 */
struct Prepared {
  1: TxnId txnId
  2: i32 fromPartition
  /** sn_t = ct[i]: the sequence number the participant assigned (algorithm 2, line 19). */
  3: i64 sequence
  4: list<i32> participants
}

/** <commit ct, tx_id>: the coordinator's decision (algorithm 2, line 32; received at line 35). */
struct Commit {
  1: TxnId txnId
  /** ct_T: the transaction's commit clock. */
  2: list<i64> commitClock
}

/** The coordinator's abort decision (section 3.8): the transaction stays invisible everywhere. */
struct Abort {
  1: TxnId txnId
}

/** A participant that prepared long ago asks the coordinator for the outcome (section 3.8). */
struct CheckCommit {
  1: TxnId txnId
  2: i32 fromPartition
}

/**
 * Stabilization (section 3.3.3): partitions periodically exchange svc_i[i]; partition fromPartition has settled every
 * sequence number up to `settled`.
 */
struct Stabilize {
  1: i32 fromPartition
  2: i64 settled
}

// ---------------------------------------------------------------------------------------------------------------
// Reserved for the server: ring discovery and the connection handshake. No Java records yet, so WireCodec
// reports them as UNKNOWN_MESSAGE; the server work adds records and mappings.
// ---------------------------------------------------------------------------------------------------------------

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
   * The consistency protocol the sender speaks (io.fastccs.protocol.primitives.Protocol's word: fastccs, eiger, wren,
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

// ---------------------------------------------------------------------------------------------------------------
// Envelope
// ---------------------------------------------------------------------------------------------------------------

/**
 * Exactly one message. A reader that meets a field id it does not know skips it and sees an empty union,
 * which WireCodec reports as an unknown message type rather than a malformed frame.
 */
union Body {
  1: FirstRoundRead firstRoundRead
  2: SecondRoundRead secondRoundRead
  3: WriteRequest writeRequest
  4: OutcomeQuery outcomeQuery
  5: ReadReply readReply
  6: WriteReply writeReply
  7: OutcomeReply outcomeReply
  8: ErrorReply errorReply
  9: Prepared prepared
  10: Commit commit
  11: Abort abort
  12: CheckCommit checkCommit
  13: Stabilize stabilize
  // 14-19: free for further protocol messages.
  20: RingRequest ringRequest
  21: RingReply ringReply
  22: Hello hello
  23: HelloReply helloReply
}

/** The envelope of every frame. A struct around the union, so an unknown union member decodes as an empty Body. */
struct Frame {
  1: Body body
}
