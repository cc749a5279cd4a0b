/**
 * Eiger (Lloyd et al., NSDI 2013) in a single datacenter, as a pure state machine behind the protocol-neutral
 * interfaces ({@link io.fastccs.baselines.eiger.EigerProtocol}). Follows the authors' code ({@code wlloyd/eiger} at
 * 88c1d16: {@code ClientLibrary.transactional_multiget_slice} and {@code transactional_batch_mutate},
 * {@code ThriftConverter}, {@code db/Column.determineLatestValidTime}, {@code db/transaction}, {@code LamportClock}).
 *
 * <p>Departures from the authors' code:
 * <ul>
 * <li>Version ids and commit stamps are {@code (commitTime << 16) | coordinatorPartition}: every key of a transaction
 *     gets the same stamp, and the stamp order is the order in which versions win.</li>
 * <li>The client remembers the highest EVT it has read or committed (its floor) and counts it into maxEVT when it
 *     chooses between one and two rounds and picks the effective time. Eiger's client does not; without it a session
 *     reading a cohort's key before that cohort received the Commit of the session's own (or an observed) write gets
 *     the old value in one round (read-your-writes and monotonic reads fail in the randomized test). It only costs a
 *     second round when a key has a pending mark older than the floor.</li>
 * <li>Commit times tie: two coordinators can commit at the same Lamport time, and the stamp's coordinator part decides
 *     which version wins. So a round one does not count a key's newest version as valid at its own EVT while a pending
 *     mark placed before that EVT by a transaction with a higher coordinator is held there (that transaction may commit
 *     at exactly the EVT and win): the LVT is EVT - 1, and the read takes a second round, which waits for the mark.
 *     In Eiger every version has a unique Lamport timestamp (time and node id in one number), so intervals never tie.
 *     Found by the simulator under message loss: a round one returned one key from each of two transactions committed
 *     at the same time, both writing both keys, because the winner's Commit had not reached the other key's cohort.</li>
 * <li>A round-two read sets the partition's clock above its time t, so later pending and commit times are above t
 *     even for a client whose clock lags (an honest client's clock is already above t).</li>
 * <li>A CheckTxn answer "not committed yet" carries the coordinator's clock as a bound: reads at or before it stop
 *     waiting. A CheckTxn or Commit answered COMMITTED is applied at once by the cohort.</li>
 * <li>Lost messages: the coordinator aborts a transaction that has not gathered its request and every vote within
 *     the transaction timeout (replying ABORTED to the client and sending Abort to the cohorts that voted); a cohort
 *     holding a mark for longer asks (CheckTxn with no time) every check interval; a coordinator presumes abort for a
 *     transaction it never heard of when a cohort asks so, or when the client's outcome query asks, and records it so
 *     a late request is answered ABORTED. Commit decisions are kept until every cohort acknowledged (Commit resent on
 *     tick), and at least the decision retention.</li>
 * <li>Held round-two reads resend their CheckTxn every check interval until answered.</li>
 * <li>GC measures a version's age by the host's TimeSource at install (EVTs are Lamport times); a round two at a time
 *     before the oldest kept version is refused with SNAPSHOT_EXPIRED.</li>
 * <li>The client's dependency set is kept and sent with writes, but nothing checks it: Eiger checks dependencies only
 *     when replicating from another datacenter.</li>
 * <li>Transaction ids are (client id, counter), not random.</li>
 * </ul>
 *
 * <p>Known limit: a request delayed longer than the decision retention after its transaction was presumed aborted
 * (and the abort forgotten) could still commit at the coordinator while cohorts dropped their marks.
 */
package io.fastccs.baselines.eiger;
