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
 *
 * <p><b>Typed keys.</b> Besides registers, a key can be a counter, a max register, an add-wins set or a top-k
 * ({@link io.fastccs.check.Op.DataType}); its first operation fixes its type, and a key used with two
 * types is malformed ({@code MIXED_TYPES}, the key is not checked). Typed updates commute; a
 * transaction's updates of a key all apply together. A typed read returns the <em>fold</em> of the
 * updates in the reader's snapshot: a counter the sum of the deltas (wrapping); a max register the
 * largest value, 0 if there is none (it starts at 0, so values below 1 never show); a set the elements
 * with a visible add that no visible remove has in its causal past (a remove removes exactly the adds
 * of its element that are hb-before its transaction, or earlier in it: add wins over a concurrent
 * remove; hb is the recorded one, so a remove in a write-only transaction removes what its session
 * read or added before, not whatever its snapshot happened to hold); a top-k, per item the largest visible score, and the k best items (higher score first, on
 * equal scores the smaller item), k being the read's.
 *
 * <p>For a typed read by committed R, let V be the set of transactions whose updates of the key it
 * folds in. TCC requires: every committed transaction updating the key that is hb-before R is in V
 * (else a lost operation: read-your-writes if R's session did it, monotonic reads if an earlier read of
 * the session folded it in, fractured read if R folds in or reads from another operation of it,
 * non-convergence for a final session, else causal violation); every T in V is visible to R, so
 * T → R is an hb edge (labelled "vis" in cycles) and everything hb-before T is hb-before R, which
 * catches fractured reads across keys, typed or register; aborted transactions are never in V; and
 * hb stays acyclic. The value identifies part of V ("pins"), and only pins become edges, so the
 * check is sound (it reports only what no choice of V explains) but not complete: a transaction that
 * is visible only by a choice the value leaves open (which remove hid an element, which of several
 * writers of a max value or top-k pair, the adds of a bounded counter) adds no edge, and what only that
 * edge would expose is not reported. Exact or bounded, per type:
 * <ul>
 *   <li>Counter, exact when every delta of the key (committed or aborted) is a distinct positive power
 *       of two: the sum decodes to exactly V. A bit no add has is {@code DOUBLE_COUNTED}, an aborted
 *       add's bit {@code ABORTED_READ}, part of a transaction's adds {@code FRACTURED_READ}, a missing
 *       forced add a lost operation. Other counters are only bounded: the read must lie between the sum
 *       of the forced adds plus every other committed negative delta and that sum plus every other
 *       committed positive delta ({@code DOUBLE_COUNTED} above; below, a lost add whose kind is named
 *       coarsely, by the nearest forced adds); nothing is pinned.</li>
 *   <li>Max register (exact when values are unique per key): a value no update wrote is thin-air
 *       (a negative one too); the one committed writer of the value is pinned (none if several wrote
 *       it); a forced update with a larger value is lost.</li>
 *   <li>Set (exact for present elements, bounded for absent ones): an element never added is
 *       thin-air; each present element pins its add (an element is
 *       added at most once per key: a second add is {@code DUPLICATE_WRITE} and ignored). A present
 *       element with a forced remove whose causal past has its add is a lost remove; an absent element
 *       whose add is forced needs a committed remove with the add in its causal past that is not
 *       hb-after R, else the add is lost. Which removes are visible is not pinned.</li>
 *   <li>Top-k (exact for listed pairs with one writer): the list must be a top-k answer (at most k pairs, in rank order, distinct items) or it is
 *       {@code DOUBLE_COUNTED}; a pair no insert wrote is thin-air; each pair pins its one committed
 *       writer; a forced insert the list does not show (its item listed with a lower score, or unlisted
 *       although the list is not full or the pair ranks before the last entry) is lost.</li>
 * </ul>
 *
 * <p>Pins depend on values only, so one hb holds them all: the transitive closure is the fixpoint of
 * "visible transactions make their causal past visible", computed by the same clock walk as the
 * register checks (clocks of transactions with set removes are kept, to tell which adds a remove saw).
 * Cost: a counter or max read O(sessions × log); a set or top-k read about its own size, plus each
 * update absorbed once per session that reads its key (a session's causal past only grows); a wrong
 * read may cost a scan of its causal past, to name the lost operation precisely.
 *
 * <p>Inside a transaction, the first read of a typed key is external even after the transaction's own
 * updates of the key: it must show them too (else {@code NOT_MY_OWN_WRITE}) and must not show later
 * ones ({@code FUTURE_READ}). A later read must equal the earlier read with the transaction's updates
 * since then applied ({@code NON_REPEATABLE_READ} without updates between, else
 * {@code NOT_MY_OWN_WRITE}); for top-k only as far as the earlier reads determined the ranking.
 * Final sessions see every committed operation of the other sessions, so their typed reads must fold
 * in all of them.
 */
package io.fastccs.check;
