/*
 * Wren's wire schema (Spirovska, Didona, Zwaenepoel, DSN 2018; the authors' code epfl-labos/wren), single
 * datacenter. The Java side is io.fastccs.baselines.wren.WrenWire, mapping to the records nested in WrenMessages.
 * The frame, the conventions every schema follows, the shared values and the table of member ids are in core.thrift.
 * Times, clocks, versions and stamps are >= 0 unless a field says otherwise.
 */

include "core.thrift"

namespace java io.fastccs.baselines.wren.wire.thrift

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
  2: list<core.ReadValue> values
}

/**
 * WrenMessages.CommitRequest (client -> partition): COMMIT to the coordinator, a participant, with every write of
 * the transaction; the coordinator forwards each participant its share (WrenPrepare).
 */
struct WrenCommitRequest {
  1: i64 requestId
  2: core.TxnId txnId
  /** The client's snapshot time. */
  3: i64 lt
  /** The client's highest write time. */
  4: i64 hwt
  5: list<core.KeyValue> writes
}

/** WrenMessages.OutcomeRequest (client -> partition): asks the coordinator what became of a transaction. */
struct WrenOutcomeRequest {
  1: i64 requestId
  2: core.TxnId txnId
}

/** WrenMessages.CommitReply (partition -> client): the answer to a WrenCommitRequest or a WrenOutcomeRequest. */
struct WrenCommitReply {
  1: i64 requestId
  2: core.TxnId txnId
  3: core.Outcome outcome
  /** The commit time when COMMITTED; -1 otherwise. */
  4: i64 ct
}

/** WrenMessages.Prepare (partition -> partition): the coordinator asks a participant to prepare its share above ht. */
struct WrenPrepare {
  1: core.TxnId txnId
  2: i64 ht
  3: list<core.KeyValue> writes
}

/** WrenMessages.PrepareReply (partition -> partition): the participant prepared at pt. */
struct WrenPrepareReply {
  1: core.TxnId txnId
  2: i64 pt
}

/** WrenMessages.Commit (partition -> partition): the coordinator committed at ct. */
struct WrenCommit {
  1: core.TxnId txnId
  2: i64 ct
}

/** WrenMessages.Abort (partition -> partition): the coordinator aborted; drop the prepared writes. */
struct WrenAbort {
  1: core.TxnId txnId
}

/**
 * WrenMessages.CheckTxn (partition -> partition): a participant holding a transaction prepared past the timeout
 * asks the coordinator, which answers WrenCommit or WrenAbort. Not in Wren, which assumes reliable channels.
 */
struct WrenCheckTxn {
  1: core.TxnId txnId
}

/** WrenMessages.Lst (partition -> partition): STABILIZE, the sender's local stable time (its installed-up-to time). */
struct WrenLst {
  1: i64 lst
}

// Wren's members of the frame's body (core.thrift, "The frame"): its block is 60-79.
union WrenBody {
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
}
