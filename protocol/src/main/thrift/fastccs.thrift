/*
 * FastCCS wire schema: every message a client and a partition, or two partitions, exchange.
 * Encoded with TCompactProtocol; one Frame per transport frame (the transport carries the length).
 * The Java side is io.fastccs.protocol.wire.WireCodec, which maps these structs to the records in
 * io.fastccs.protocol.messages, and those of the other consistency protocols a cluster may run instead
 * (eventual, Eiger, Wren) to the records in their packages.
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

/**
 * A version a read answer left out although it is settled on the partition: it waits for another partition's entry of
 * its commit clock (io.fastccs.protocol.messages.WaitingVersion).
 */
struct WaitingVersion {
  1: binary key
  2: binary value
  /** The owning partition's entry of the version's commit clock. */
  3: i64 sequence
  4: list<i64> commitClock
  5: i64 commitTime
  /** The WriteKind's number of a commutative operation the client folds in; absent for a put. */
  6: optional byte kind
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
  BASE_UNKNOWN = 9
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
  /**
   * The largest commit time the client's session has read or written: the coordinator stamps the commit above it, so
   * that the arbitration order (commit time, then commit clock) extends causality. Not in the thesis
   * (docs/design/thesis.md, "The commit time comes first in the arbitration order").
   */
  7: i64 dependencyTime
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
  /** The largest commit time of the returned versions, 0 if none; the client's next commit is stamped above it. */
  6: i64 maxCommitTime
  /**
   * waiting lists every version of the keys read, newer than the one returned, that the answer left out although its
   * sequence number is within snapshot's own entry: the client can then work out what a round two at a clock whose entry
   * for this partition is at most that one would return. Absent: false.
   */
  7: optional bool waitingComplete
  /** Those versions, newest first per key (a few at most). Not in the thesis (docs/design/second-rounds.md). */
  8: optional list<WaitingVersion> waiting
  /**
   * The newest stable base the partition names to clients (docs/design/stable-bases.md, "Stable bases"); absent: 0,
   * none.
   */
  9: optional i64 stableEpoch
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
  /** The commit time (the arbitration order's first part); present exactly when commitClock is. */
  5: optional i64 commitTime
}

/** The coordinator's answer to an OutcomeQuery (section 3.8). */
struct OutcomeReply {
  1: i64 requestId
  2: TxnId txnId
  3: Outcome outcome
  /** ct_T; present exactly when outcome is COMMITTED. */
  4: optional list<i64> commitClock
  /** The commit time (the arbitration order's first part); present exactly when commitClock is. */
  5: optional i64 commitTime
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
  /** The commit time the coordinator stamped: with ct_T, the transaction's place in the arbitration order. */
  3: i64 commitTime
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

/**
 * Tree stabilization, beyond stabilization_fanout + 1 partitions (docs/design/stabilization-tree.md, "How it works"):
 * the settled prefixes of several partitions, as StabilizeUp (to the parent: the sender's subtree) or StabilizeDown
 * (from the parent: gathered at partition 0). Entries ascend by partition; partitionGaps holds each entry's partition
 * minus the previous entry's (the first: its partition), so that an entry's partition costs a byte.
 */
struct SettledEntries {
  1: i32 fromPartition
  2: list<i32> partitionGaps
  3: list<i64> settled
  /**
   * StabilizeUp: the newest stable-base epoch known in the sender's subtree. StabilizeDown: the epoch of the stable base
   * these entries make (every entry sent down so far), full: they are every entry. Absent: 0, false.
   */
  4: optional i64 epoch
  5: optional bool full
}

// ---------------------------------------------------------------------------------------------------------------
// Ring discovery and the connection handshake, handled by the node's transport rather than by a protocol: the Java
// records are messages.ControlMessage (Hello, HelloReply, RingRequest, RingReply), mapped by WireMapping.
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
// The other consistency protocols a cluster can run instead of FastCCS (Hello.protocol names the one spoken).
// Each protocol's structs carry its name as a prefix, since Thrift structs share one namespace. The Java side is
// EventualWire, EigerWire and WrenWire in io.fastccs.protocol.wire, mapping to the records nested in
// io.fastccs.protocol.eventual.EventualMessages, io.fastccs.protocol.eiger.EigerMessages and
// io.fastccs.protocol.wren.WrenMessages. Times, clocks, versions and stamps are >= 0 unless a field says otherwise.
// ---------------------------------------------------------------------------------------------------------------

// ---- Eventual: the thesis's "original Cassandra", last writer wins by a client-chosen Lamport time ---------------

/**
 * EventualStamp: where a write sits in last-writer-wins order, as a Cassandra client timestamp places it: a Lamport
 * time the client picks above every time it heard of, then the client id and its transaction counter to break ties.
 */
struct EventualStamp {
  1: i64 time
  2: i64 clientId
  3: i64 txnSequence
}

/** EventualMessages.Read (client -> partition): read the newest value of each key, one round, no causal metadata. */
struct EventualRead {
  1: i64 requestId
  2: list<binary> keys
}

/**
 * EventualMessages.ReadAnswer (partition -> client): each key's newest value. ReadValue.sequence is the winning
 * write's stamp time (0 when the key has none).
 */
struct EventualReadAnswer {
  1: i64 requestId
  2: list<ReadValue> values
  /** The partition's Lamport time, which the client's next stamp exceeds. */
  3: i64 time
}

/**
 * EventualMessages.Write (client -> partition): apply these writes at once, each unless a write with a later stamp
 * is already there. Every partition of the transaction gets the same stamp.
 */
struct EventualWrite {
  1: i64 requestId
  2: TxnId txnId
  3: EventualStamp stamp
  4: list<KeyValue> writes
}

/** EventualMessages.WriteAnswer (partition -> client): the writes are applied. */
struct EventualWriteAnswer {
  1: i64 requestId
  /** The partition's Lamport time. */
  2: i64 time
}

// ---- Eiger (Lloyd et al., NSDI 2013; the authors' code wlloyd/eiger), single datacenter ----------------------------
// Every Eiger message carries its sender's Lamport clock (`clock`, Eiger's lts). A version stamp is
// (commit time << 16) | coordinator partition.

/**
 * EigerMessages.Dep: one of the client's nearest dependencies, Eiger's Dep{locator_key, timestamp}: the key to check
 * the dependency at (the key itself, or a transaction's coordinator key) and the version depended on.
 */
struct EigerDep {
  1: binary key
  2: i64 version
}

/**
 * EigerMessages.KeyVersion: one key as a read returns it, with its validity interval [evt, lvt]: Eiger's Column with
 * earliest_valid_time, latest_valid_time and transactionCoordinatorKey.
 */
struct EigerKeyVersion {
  1: binary key
  /** Absent when the key has no version at the read time (version and evt are then 0). */
  2: optional binary value
  /** The version's stamp. */
  3: i64 version
  /** Earliest valid time: the version's commit time. */
  4: i64 evt
  /** Latest valid time the partition knows of. */
  5: i64 lvt
  /** The coordinator key of the transaction that wrote the version; absent if none. */
  6: optional binary coordKey
}

/**
 * EigerMessages.TxnStatus: one transaction's state at its coordinator, in a CheckTxn answer. commitTime is the
 * commit time when COMMITTED, else 0.
 */
struct EigerTxnStatus {
  1: TxnId txnId
  2: Outcome outcome
  3: i64 commitTime
}

/**
 * EigerMessages.Read1 (client -> partition): round one of a read-only transaction (Eiger's multiget_slice, as
 * ClientLibrary.transactional_multiget_slice sends it).
 */
struct EigerRead1 {
  1: i64 requestId
  2: i64 clock
  3: list<binary> keys
}

/** EigerMessages.ReadAt (client -> partition): round two, the keys at the effective time (multiget_slice_by_time). */
struct EigerReadAt {
  1: i64 requestId
  2: i64 clock
  3: list<binary> keys
  /** The effective time, Eiger's chosen_time. */
  4: i64 time
}

/**
 * EigerMessages.CohortWrite (client -> partition): a write-only transaction's writes for a cohort, a participant
 * that is not the coordinator (Eiger's transactional_batch_mutate_cohort).
 */
struct EigerCohortWrite {
  1: i64 requestId
  2: i64 clock
  3: TxnId txnId
  /** The coordinator partition, where the cohort sends its vote. */
  4: i32 coordinator
  /** The transaction's coordinator key, owned by the coordinator partition. */
  5: binary coordKey
  6: list<KeyValue> writes
}

/**
 * EigerMessages.CoordWrite (client -> partition): a write-only transaction's writes for its coordinator, with every
 * participant partition and the client's dependency set (Eiger's transactional_batch_mutate_coordinator, whose
 * all_keys this replaces by the participants). Nothing checks the dependencies in a single datacenter.
 */
struct EigerCoordWrite {
  1: i64 requestId
  2: i64 clock
  3: TxnId txnId
  4: binary coordKey
  5: list<KeyValue> writes
  6: list<i32> participants
  7: list<EigerDep> deps
}

/** EigerMessages.OutcomeQuery (client -> partition): asks a transaction's coordinator for its outcome. */
struct EigerOutcomeQuery {
  1: i64 requestId
  2: i64 clock
  3: TxnId txnId
}

/** EigerMessages.ReadReply (partition -> client): the values of one read round. */
struct EigerReadReply {
  1: i64 requestId
  2: i64 clock
  3: list<EigerKeyVersion> values
  /** The partition held the answer for a CheckTxn to a coordinator (Eiger's third round). */
  4: bool checkedCoordinator
}

/** EigerMessages.WriteAck (partition -> client): a cohort marked its writes pending and sent its vote. */
struct EigerWriteAck {
  1: i64 requestId
  2: i64 clock
}

/** EigerMessages.WriteReply (partition -> client): the coordinator's decision on a write. */
struct EigerWriteReply {
  1: i64 requestId
  2: i64 clock
  3: Outcome outcome
  /** The version stamp of the transaction's writes when COMMITTED, else 0. */
  4: i64 stamp
}

/** EigerMessages.OutcomeReply (partition -> client): the answer to an EigerOutcomeQuery. */
struct EigerOutcomeReply {
  1: i64 requestId
  2: i64 clock
  3: Outcome outcome
  /** The version stamp when COMMITTED, else 0. */
  4: i64 stamp
}

/** EigerMessages.YesVote (partition -> partition): a cohort marked its keys pending at pendingTime and votes yes. */
struct EigerYesVote {
  1: i64 clock
  2: TxnId txnId
  3: i64 pendingTime
}

/** EigerMessages.Commit (partition -> partition): the coordinator committed at commitTime. */
struct EigerCommit {
  1: i64 clock
  2: TxnId txnId
  3: i64 commitTime
}

/** EigerMessages.Abort (partition -> partition): the coordinator aborted (a vote was late, or it presumed abort). */
struct EigerAbort {
  1: i64 clock
  2: TxnId txnId
}

/** EigerMessages.Ack (partition -> partition): a cohort applied a commit. */
struct EigerAck {
  1: i64 clock
  2: TxnId txnId
}

/**
 * EigerMessages.CheckTxn (partition -> partition): a cohort asks the coordinator about pending transactions, for a
 * round-two read at `time` (Eiger's third round), or because they stayed pending past the transaction timeout.
 */
struct EigerCheckTxn {
  1: i64 clock
  2: list<TxnId> txnIds
  /** The read's effective time, or -1 for a timeout check. */
  3: i64 time
}

/**
 * EigerMessages.CheckTxnReply (partition -> partition): the coordinator's answer to an EigerCheckTxn. A transaction
 * still UNDECIDED commits, if ever, after `clock`.
 */
struct EigerCheckTxnReply {
  1: i64 clock
  2: list<EigerTxnStatus> statuses
}

// ---- Wren (Spirovska, Didona, Zwaenepoel, DSN 2018; the authors' code epfl-labos/wren), single datacenter -----------
// Times are hybrid logical clock values in one i64: physical microseconds << 11 | logical counter.

/** WrenMessages.Start (client -> partition): START with the client's local stable time lst. */
struct WrenStart {
  1: i64 requestId
  2: i64 lst
}

/** WrenMessages.StartReply (partition -> client): the snapshot time lt (the partition's GLST, at least lst). */
struct WrenStartReply {
  1: i64 requestId
  2: i64 lt
}

/** WrenMessages.Slice (client -> partition): READ, the newest version at or below lt of each key. */
struct WrenSlice {
  1: i64 requestId
  2: list<binary> keys
  3: i64 lt
}

/**
 * WrenMessages.SliceReply (partition -> client): one value per key asked, in the asked order; ReadValue.sequence is
 * the version's commit time (0 when the key has none).
 */
struct WrenSliceReply {
  1: i64 requestId
  2: list<ReadValue> values
}

/**
 * WrenMessages.CommitRequest (client -> partition): COMMIT to the coordinator, a participant, with every write of
 * the transaction; the coordinator forwards each participant its share (WrenPrepare).
 */
struct WrenCommitRequest {
  1: i64 requestId
  2: TxnId txnId
  /** The client's snapshot time. */
  3: i64 lt
  /** The client's highest write time. */
  4: i64 hwt
  5: list<KeyValue> writes
}

/** WrenMessages.OutcomeRequest (client -> partition): asks the coordinator what became of a transaction. */
struct WrenOutcomeRequest {
  1: i64 requestId
  2: TxnId txnId
}

/** WrenMessages.CommitReply (partition -> client): the answer to a WrenCommitRequest or a WrenOutcomeRequest. */
struct WrenCommitReply {
  1: i64 requestId
  2: TxnId txnId
  3: Outcome outcome
  /** The commit time when COMMITTED; -1 otherwise. */
  4: i64 ct
}

/** WrenMessages.Prepare (partition -> partition): the coordinator asks a participant to prepare its share above ht. */
struct WrenPrepare {
  1: TxnId txnId
  2: i64 ht
  3: list<KeyValue> writes
}

/** WrenMessages.PrepareReply (partition -> partition): the participant prepared at pt. */
struct WrenPrepareReply {
  1: TxnId txnId
  2: i64 pt
}

/** WrenMessages.Commit (partition -> partition): the coordinator committed at ct. */
struct WrenCommit {
  1: TxnId txnId
  2: i64 ct
}

/** WrenMessages.Abort (partition -> partition): the coordinator aborted; drop the prepared writes. */
struct WrenAbort {
  1: TxnId txnId
}

/**
 * WrenMessages.CheckTxn (partition -> partition): a participant holding a transaction prepared past the timeout
 * asks the coordinator, which answers WrenCommit or WrenAbort. Not in Wren, which assumes reliable channels.
 */
struct WrenCheckTxn {
  1: TxnId txnId
}

/** WrenMessages.Lst (partition -> partition): STABILIZE, the sender's local stable time (its installed-up-to time). */
struct WrenLst {
  1: i64 lst
}

// ---------------------------------------------------------------------------------------------------------------
// Compact forms of FastCCS's clocks (docs/design/stable-bases.md, "Clocks relative to a stable base"). A request's
// clock is named relative to a stable base both sides know, a reply's as differences from the request's clock.
// Partition numbers are gaps: each one minus the one before (the first: itself), ascending, so a number costs a byte.
// ---------------------------------------------------------------------------------------------------------------

/** A vector clock: the stable base of epoch (0: all zeros) raised by the entries named. */
struct BasedClock {
  1: i64 epoch
  2: list<i32> partitionGaps
  3: list<i64> values
}

/** A vector clock: the entries in which it differs from a clock the receiver has, as signed differences. */
struct ClockDiff {
  1: list<i32> partitionGaps
  2: list<i64> deltas
}

/**
 * The answer to a read that asked to move its clock to the base of epoch: lift, the base's entries above the request's
 * clock (differences from it), and the request's entries above the base (explicitGaps, partition gaps).
 */
struct Rebase {
  1: i64 epoch
  2: ClockDiff lift
  3: list<i32> explicitGaps
}

struct CompactFirstRoundRead {
  1: i64 requestId
  2: list<binary> keys
  3: BasedClock clock
  /** Asks to move the session's clock to this stable base (answered by ReadReply.rebase); absent: 0, no. */
  4: optional i64 rebaseTo
}

struct CompactSecondRoundRead {
  1: i64 requestId
  2: list<binary> keys
  3: BasedClock clock
  4: i64 firstRoundTime
}

struct CompactWriteRequest {
  1: i64 requestId
  2: TxnId txnId
  3: i32 coordinator
  4: list<i32> participants
  5: list<KeyValue> writes
  6: BasedClock clock
  7: i64 dependencyTime
}

struct CompactWaitingVersion {
  1: binary key
  2: binary value
  3: i64 sequence
  /** Raised to the request's clock, as differences from it. */
  4: ClockDiff commitClock
  5: i64 commitTime
  6: optional byte kind
}

/** ReadReply with its clocks as differences from the request's; maxCommitClock and waiting first raised to it. */
struct CompactReadReply {
  1: i64 requestId
  2: list<ReadValue> values
  3: ClockDiff snapshot
  4: ClockDiff maxCommitClock
  5: i64 serverTime
  6: i64 maxCommitTime
  7: optional bool waitingComplete
  8: optional list<CompactWaitingVersion> waiting
  /** The highest sequence number of the answering partition the answer shows. */
  9: i64 shows
  /** The newest stable base the partition names to clients; absent: 0. */
  10: optional i64 stableEpoch
  11: optional Rebase rebase
}

struct CompactWriteReply {
  1: i64 requestId
  2: TxnId txnId
  3: Outcome outcome
  /** Differences from the request's clock; present exactly when outcome is COMMITTED. */
  4: optional ClockDiff commitClock
  5: optional i64 commitTime
}

/** Commit between partitions that stabilize up and down a tree: the commit clock relative to a stable base. */
/** A participant's vote against a write it refused (an operation of the wrong type for its key): abort at once. */
struct Refused {
  1: TxnId txnId
  2: i32 fromPartition
  3: list<i32> participants
}

struct CompactCommit {
  1: TxnId txnId
  2: BasedClock commitClock
  3: i64 commitTime
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
  14: SettledEntries stabilizeUp
  15: SettledEntries stabilizeDown
  16: CompactFirstRoundRead compactFirstRoundRead
  17: CompactSecondRoundRead compactSecondRoundRead
  18: CompactWriteRequest compactWriteRequest
  19: CompactReadReply compactReadReply
  20: RingRequest ringRequest
  21: RingReply ringReply
  22: Hello hello
  23: HelloReply helloReply
  24: CompactWriteReply compactWriteReply
  25: CompactCommit compactCommit
  26: Refused refused
  // 27-29: free.
  // The other protocols' messages, a block of ids each. Ids from 16 on cost one byte more than 1-15 in the frame
  // header, from 64 on two more.
  // 30-39: eventual.
  30: EventualRead eventualRead
  31: EventualReadAnswer eventualReadAnswer
  32: EventualWrite eventualWrite
  33: EventualWriteAnswer eventualWriteAnswer
  // 40-59: Eiger.
  40: EigerRead1 eigerRead1
  41: EigerReadAt eigerReadAt
  42: EigerCohortWrite eigerCohortWrite
  43: EigerCoordWrite eigerCoordWrite
  44: EigerOutcomeQuery eigerOutcomeQuery
  45: EigerReadReply eigerReadReply
  46: EigerWriteAck eigerWriteAck
  47: EigerWriteReply eigerWriteReply
  48: EigerOutcomeReply eigerOutcomeReply
  49: EigerYesVote eigerYesVote
  50: EigerCommit eigerCommit
  51: EigerAbort eigerAbort
  52: EigerAck eigerAck
  53: EigerCheckTxn eigerCheckTxn
  54: EigerCheckTxnReply eigerCheckTxnReply
  // 60-79: Wren.
  60: WrenStart wrenStart
  61: WrenStartReply wrenStartReply
  62: WrenSlice wrenSlice
  63: WrenSliceReply wrenSliceReply
  64: WrenCommitRequest wrenCommitRequest
  65: WrenOutcomeRequest wrenOutcomeRequest
  66: WrenCommitReply wrenCommitReply
  67: WrenPrepare wrenPrepare
  68: WrenPrepareReply wrenPrepareReply
  69: WrenCommit wrenCommit
  70: WrenAbort wrenAbort
  71: WrenCheckTxn wrenCheckTxn
  72: WrenLst wrenLst
  // 80+: free.
}

/** The envelope of every frame. A struct around the union, so an unknown union member decodes as an empty Body. */
struct Frame {
  1: Body body
}
