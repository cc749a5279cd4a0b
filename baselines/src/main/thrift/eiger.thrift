/*
 * Eiger's wire schema (Lloyd et al., NSDI 2013; the authors' code wlloyd/eiger), single datacenter. The Java side
 * is io.fastccs.baselines.eiger.EigerWire, mapping to the records nested in EigerMessages.
 * The frame, the conventions every schema follows, the shared values and the table of member ids are in core.thrift.
 * Times, clocks, versions and stamps are >= 0 unless a field says otherwise.
 */

include "core.thrift"

namespace java io.fastccs.baselines.eiger.wire.thrift

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
  1: core.TxnId txnId
  2: core.Outcome outcome
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
  3: core.TxnId txnId
  /** The coordinator partition, where the cohort sends its vote. */
  4: i32 coordinator
  /** The transaction's coordinator key, owned by the coordinator partition. */
  5: binary coordKey
  6: list<core.KeyValue> writes
}

/**
 * EigerMessages.CoordWrite (client -> partition): a write-only transaction's writes for its coordinator, with every
 * participant partition and the client's dependency set (Eiger's transactional_batch_mutate_coordinator, whose
 * all_keys this replaces by the participants). Nothing checks the dependencies in a single datacenter.
 */
struct EigerCoordWrite {
  1: i64 requestId
  2: i64 clock
  3: core.TxnId txnId
  4: binary coordKey
  5: list<core.KeyValue> writes
  6: list<i32> participants
  7: list<EigerDep> deps
}

/** EigerMessages.OutcomeQuery (client -> partition): asks a transaction's coordinator for its outcome. */
struct EigerOutcomeQuery {
  1: i64 requestId
  2: i64 clock
  3: core.TxnId txnId
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
  3: core.Outcome outcome
  /** The version stamp of the transaction's writes when COMMITTED, else 0. */
  4: i64 stamp
}

/** EigerMessages.OutcomeReply (partition -> client): the answer to an EigerOutcomeQuery. */
struct EigerOutcomeReply {
  1: i64 requestId
  2: i64 clock
  3: core.Outcome outcome
  /** The version stamp when COMMITTED, else 0. */
  4: i64 stamp
}

/** EigerMessages.YesVote (partition -> partition): a cohort marked its keys pending at pendingTime and votes yes. */
struct EigerYesVote {
  1: i64 clock
  2: core.TxnId txnId
  3: i64 pendingTime
}

/** EigerMessages.Commit (partition -> partition): the coordinator committed at commitTime. */
struct EigerCommit {
  1: i64 clock
  2: core.TxnId txnId
  3: i64 commitTime
}

/** EigerMessages.Abort (partition -> partition): the coordinator aborted (a vote was late, or it presumed abort). */
struct EigerAbort {
  1: i64 clock
  2: core.TxnId txnId
}

/** EigerMessages.Ack (partition -> partition): a cohort applied a commit. */
struct EigerAck {
  1: i64 clock
  2: core.TxnId txnId
}

/**
 * EigerMessages.CheckTxn (partition -> partition): a cohort asks the coordinator about pending transactions, for a
 * round-two read at `time` (Eiger's third round), or because they stayed pending past the transaction timeout.
 */
struct EigerCheckTxn {
  1: i64 clock
  2: list<core.TxnId> txnIds
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

// Eiger's members of the frame's body (core.thrift, "The frame"): its block is 40-59.
union EigerBody {
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
}
