/*
 * The eventual protocol's wire schema: the thesis's "original Cassandra", last writer wins by a client-chosen
 * Lamport time. The Java side is io.fastccs.baselines.eventual.EventualWire, mapping to the records nested in
 * EventualMessages.
 * The frame, the conventions every schema follows, the shared values and the table of member ids are in core.thrift.
 * Times, clocks, versions and stamps are >= 0 unless a field says otherwise.
 */

include "core.thrift"

namespace java io.fastccs.baselines.eventual.wire.thrift

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
  2: list<core.ReadValue> values
  /** The partition's Lamport time, which the client's next stamp exceeds. */
  3: i64 time
}

/**
 * EventualMessages.Write (client -> partition): apply these writes at once, each unless a write with a later stamp
 * is already there. Every partition of the transaction gets the same stamp.
 */
struct EventualWrite {
  1: i64 requestId
  2: core.TxnId txnId
  3: EventualStamp stamp
  4: list<core.KeyValue> writes
}

/** EventualMessages.WriteAnswer (partition -> client): the writes are applied. */
struct EventualWriteAnswer {
  1: i64 requestId
  /** The partition's Lamport time. */
  2: i64 time
}

// The eventual protocol's members of the frame's body (core.thrift, "The frame"): its block is 30-39.
union EventualBody {
  30: EventualRead eventualRead
  31: EventualReadAnswer eventualReadAnswer
  32: EventualWrite eventualWrite
  33: EventualWriteAnswer eventualWriteAnswer
}
