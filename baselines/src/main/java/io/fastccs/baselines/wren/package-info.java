/**
 * Wren (Spirovska, Didona, Zwaenepoel, DSN 2018), single datacenter, as pure state machines behind the protocol SPI:
 * {@link io.fastccs.baselines.wren.WrenProtocol} makes {@code WrenPartition}s and {@code WrenSession}s, which talk with
 * the records of {@link io.fastccs.baselines.wren.WrenMessages}.
 *
 * <p>Where this departs from the authors' code ({@code epfl-labos/wren}, {@code WREN} flag) and why:
 * <ul>
 *   <li>Apply bound {@code min pt - 1} over prepared transactions, not {@code min pt}: a transaction prepared at pt may
 *       commit at exactly pt, so declaring pt installed lets a snapshot at pt show its writes at one partition and not
 *       another ({@link io.fastccs.baselines.wren.WrenBug#APPLY_AT_MIN_PT} restores the code's bound).</li>
 *   <li>With nothing prepared, the apply bound is the HLC after moving it up to now, so a later prepare gets a larger pt
 *       (the code takes the bound from the clock without moving the HLC).</li>
 *   <li>Timestamps: 53-bit physical microseconds + 11-bit logical in one long, not 48 + 16: hosts may hand out epoch
 *       microseconds, which need 51 bits. Logical overflow carries into the physical part; the clock stays monotonic.</li>
 *   <li>Ties: versions and the install queue are ordered by (ct, transaction id), a total order that is also the
 *       arbitration order, since two transactions can share a commit time.</li>
 *   <li>The client reaches partitions directly: START to one partition (the first key's owner for a read, the chosen
 *       coordinator for a write), slices straight to the owners of the keys not in the write cache, the commit to the
 *       coordinator, which forwards each participant its share. The code keeps a transaction context on the START
 *       server and routes reads and commit through it, one more hop per round.</li>
 *   <li>A write-only transaction does START first, as the code's {@code TxStart}, rather than using
 *       {@code ht = max(lst_c, hwt_c)} directly: it costs a round trip but keeps the snapshot fresh and prunes the write
 *       cache, and it is what Wren clients pay.</li>
 *   <li>Fault handling the code does not have (it assumes reliable channels): a coordinator that lacks a vote aborts
 *       after the transaction timeout and tells the participants; a participant holding a prepared transaction past the
 *       timeout asks the coordinator ({@code CheckTxn}) every check interval; a coordinator asked about a transaction it
 *       does not know presumes abort and remembers it, so a late commit request is refused; it never commits after
 *       answering ABORTED. Abort decisions are kept for the decision retention, commit decisions also until GLST passed
 *       the commit time (then every participant installed it and none will ask).</li>
 *   <li>A read slices at the session's stable time once it has adopted its START reply ({@code max(lst, lt)}), not at
 *       the reply's {@code lt}: the START of a read the client abandoned at its timeout may be answered late, above a
 *       later START's reply, and raise {@code lst} and prune the write cache; slicing at the lower {@code lt} then
 *       missed the session's own write (read-your-writes; found by the simulator with delay spikes beyond the read
 *       timeout). The code has no timeouts: one START per session is in flight.</li>
 *   <li>Outcome queries: COMMITTED with ct, UNDECIDED while within the transaction timeout, ABORTED after it (deciding
 *       the abort then) or for an unknown transaction (presumed abort). A commit request delayed beyond the decision
 *       retention after such a query could still commit: the same bound FastCCS documents.</li>
 *   <li>Requests carrying a snapshot time beyond the partition's installed time (no honest server gives one) or a write
 *       time more than the transaction timeout ahead of its clock are refused, so GLST stays at or below every
 *       partition's installed time.</li>
 *   <li>GC keeps per key the versions newer than {@code min(GLST, now - versionRetention)} and the newest at or below it;
 *       slices below that time are refused with SNAPSHOT_EXPIRED.</li>
 *   <li>Slice replies carry each version's commit time ({@code ReadValue.sequence}) besides the value, for history
 *       checking; it is counted in the message sizes.</li>
 *   <li>Stabilization is all-to-all every stabilization interval (also the apply interval), not up a tree.</li>
 * </ul>
 */
package io.fastccs.baselines.wren;
