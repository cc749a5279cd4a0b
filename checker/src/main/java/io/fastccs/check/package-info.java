/**
 * A checker for transactional causal consistency (TCC) of recorded key-value histories.
 *
 * <p>Model: a {@link io.fastccs.check.History} is a list of {@link io.fastccs.check.Txn}s of
 * {@link io.fastccs.check.Op}s; values are unique per key and {@code 0} is every key's initial
 * value. A read of {@code (k, v)} reads from the transaction whose last write of {@code k} is
 * {@code v}. Session order (SO) is history order per session; causal order hb = (SO ∪ WR)+ over
 * committed transactions, and transactions of final sessions are additionally after every committed
 * transaction of the other sessions.
 *
 * <p>Rules ({@link io.fastccs.check.Anomaly.Kind}): per read, thin-air, aborted, future and
 * intermediate reads; per transaction, reading one's own last write and repeatable reads; per
 * history, duplicate writes; hb must be acyclic; and the CC axiom of Biswas and Enea (OOPSLA 2019):
 * hb ∪ {(t2, t1) | t3 reads x from t1, t2 ≠ t1 writes x, t2 hb t3} must be acyclic. A read whose
 * value was overwritten in its own causal past (the writer of the value is hb-before the overwriter)
 * is classified as read-your-writes, monotonic-reads, fractured-read, non-convergence (final-session
 * reader) or plain causal violation; longer cycles are causal violations (non-convergence if a
 * final-session read is involved). Reads of final sessions must agree per key.
 *
 * <p>Only the first read of a key in a transaction, before the transaction writes that key, is an
 * external read: later reads are checked by the intra-transaction rules. A read that breaks a
 * per-read or intra-transaction rule adds no reads-from edge, so one fault is reported once.
 *
 * <p>Long fork, write skew and lost update are allowed, as in TCC.
 */
package io.fastccs.check;
