/*
 * FastCCS's wire schema: the messages of its clients and partitions (the records in io.fastccs.protocol.messages
 * that FastCCS alone sends). The frame, the conventions every schema follows, the shared values and the table of
 * member ids are in core.thrift. The Java side is FastCcsWire and CompactWire in io.fastccs.protocol.wire.
 *
 * "Algorithm 1/2, line n" refers to T. Lykhenko, Efficient Implementation of Causal Consistent
 * Transactions in the Cloud (MSc thesis, 2019), chapter 3: algorithm 1 is the client, algorithm 2 the partition.
 */

include "core.thrift"

namespace java io.fastccs.protocol.wire.thrift

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
  2: core.TxnId txnId
  /** cp: the coordinator partition the client chose (algorithm 1, line 21). */
  3: i32 coordinator
  4: list<i32> participants
  5: list<core.KeyValue> writes
  /** vc_c: the client's vector clock. */
  6: list<i64> clock
  /**
   * The largest commit time the client's session has read or written: the coordinator stamps the commit above it, so
   * that the arbitration order (commit time, then commit clock) extends causality. Not in the thesis (docs/design/thesis.md, "The commit time comes first in the arbitration order").
   */
  7: i64 dependencyTime
}

/**
 * A client that lost track of a write (timeout, restart) asks the coordinator for its outcome. Not in the
 * thesis; part of the fault handling of section 3.8.
 */
struct OutcomeQuery {
  1: i64 requestId
  2: core.TxnId txnId
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
  2: list<core.ReadValue> values
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
  /** Those versions, newest first per key (a few at most). Not in the thesis (docs/design/second-rounds.md, "Waiting versions"). */
  8: optional list<WaitingVersion> waiting
  /** The newest stable base the partition names to clients (docs/design/stable-bases.md, "Moving to a newer base"); absent: 0, none. */
  9: optional i64 stableEpoch
}

/**
 * A participant's final answer to a WriteRequest: <batch_mutate_resp ct> (algorithm 2, lines 34 and 37;
 * received by algorithm 1, line 24). Sent only once every smaller sequence number on the partition is settled.
 */
struct WriteReply {
  1: i64 requestId
  2: core.TxnId txnId
  3: core.Outcome outcome
  /** ct_T; present exactly when outcome is COMMITTED. */
  4: optional list<i64> commitClock
  /** The commit time (the arbitration order's first part); present exactly when commitClock is. */
  5: optional i64 commitTime
}

/** The coordinator's answer to an OutcomeQuery (section 3.8). */
struct OutcomeReply {
  1: i64 requestId
  2: core.TxnId txnId
  3: core.Outcome outcome
  /** ct_T; present exactly when outcome is COMMITTED. */
  4: optional list<i64> commitClock
  /** The commit time (the arbitration order's first part); present exactly when commitClock is. */
  5: optional i64 commitTime
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
  1: core.TxnId txnId
  2: i32 fromPartition
  /** sn_t = ct[i]: the sequence number the participant assigned (algorithm 2, line 19). */
  3: i64 sequence
  4: list<i32> participants
  /** The commit time the participant proposes, saved in its prepare: the commit time is the largest proposal. */
  5: i64 proposedTime
}

/** <commit ct, tx_id>: the coordinator's decision (algorithm 2, line 32; received at line 35). */
struct Commit {
  1: core.TxnId txnId
  /** ct_T: the transaction's commit clock. */
  2: list<i64> commitClock
  /** The commit time the coordinator stamped: with ct_T, the transaction's place in the arbitration order. */
  3: i64 commitTime
}

/** The coordinator's abort decision (section 3.8): the transaction stays invisible everywhere. */
struct Abort {
  1: core.TxnId txnId
}

/** A participant that prepared long ago asks the coordinator for the outcome (section 3.8). */
struct CheckCommit {
  1: core.TxnId txnId
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
// Compact forms of FastCCS's clocks (docs/design/stable-bases.md, "Requests"). A request's clock is named
// relative to a stable base both sides know, a reply's as differences from the request's clock. Partition numbers are
// gaps: each one minus the one before (the first: itself), ascending, so a number costs a byte.
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
  2: core.TxnId txnId
  3: i32 coordinator
  4: list<i32> participants
  5: list<core.KeyValue> writes
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
  2: list<core.ReadValue> values
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
  2: core.TxnId txnId
  3: core.Outcome outcome
  /** Differences from the request's clock; present exactly when outcome is COMMITTED. */
  4: optional ClockDiff commitClock
  5: optional i64 commitTime
}

/**
 * A participant's vote against a write it refused (an operation of the wrong type for its key), or its answer to a
 * StatusQuery about a transaction it holds nothing of, once its fence is durable: abort at once.
 */
struct Refused {
  1: core.TxnId txnId
  2: i32 fromPartition
  3: list<i32> participants
}

/**
 * A coordinator that lost its votes (a restart, a new leader) asks a participant what it holds of the transaction:
 * Prepared again if it holds the prepare, else Refused.
 */
struct StatusQuery {
  1: core.TxnId txnId
  2: i32 fromPartition
  3: list<i32> participants
}

/** Commit between partitions that stabilize up and down a tree: the commit clock relative to a stable base. */
struct CompactCommit {
  1: core.TxnId txnId
  2: BasedClock commitClock
  3: i64 commitTime
}

// ---------------------------------------------------------------------------------------------------------------
// FastCCS's members of the frame's body (core.thrift, "The frame"): ids 1-7, 9-19 and 24-27.
// ---------------------------------------------------------------------------------------------------------------

union FastCcsBody {
  1: FirstRoundRead firstRoundRead
  2: SecondRoundRead secondRoundRead
  3: WriteRequest writeRequest
  4: OutcomeQuery outcomeQuery
  5: ReadReply readReply
  6: WriteReply writeReply
  7: OutcomeReply outcomeReply
  // 8: the connection's ErrorReply.
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
  // 20-23: the connection's ring and handshake messages.
  24: CompactWriteReply compactWriteReply
  25: CompactCommit compactCommit
  26: Refused refused
  27: StatusQuery statusQuery
}
