/**
 * One FastCCS partition, split by role over one shared state, as cassandra-accord's {@code local/Commands} acts on a
 * {@code SafeCommandStore}. {@link io.fastccs.protocol.partition.Partition} is all hosts see: it takes client
 * requests, peer messages and ticks and hands each to the role it concerns. Partition stays in this package with its
 * roles, not in {@code io.fastccs.protocol}: the roles read the root package's {@code Bug} and {@code ClockCompaction},
 * and a Partition there would make the two packages import each other.
 *
 * <p>The roles, each calling only those below it (imports follow the same order, so there is no circle):
 * <ol>
 * <li>{@code Partition}: the public surface and the dispatch.</li>
 * <li>{@code Recovery}: the start from what the store holds after a crash.</li>
 * <li>{@code Coordinator}: collects the votes of a write, decides, answers questions about its decisions. A decision
 *     is applied to our own part last, through the participant.</li>
 * <li>{@code Participant}, {@code Reads}, {@code CompactFront}: a write's part here, from prepare to the settled prefix
 *     (it returns a {@code WriteOutcome} when the coordinator must act next, since it cannot call the coordinator
 *     itself); both read rounds; the expansion of requests whose clocks are relative to a stable base, and the
 *     compaction of their replies.</li>
 * <li>{@code Stabilization}, {@code Collector}, {@code Checks}: the settled prefixes partitions tell each other and the
 *     stable bases; garbage collection and expiry; the checks on requests.</li>
 * <li>{@code PartitionState}: svc, the settled prefix of peers, unsettled and pending transactions, decisions, the
 *     last sequence number, the durable prefix, and the host's interfaces.</li>
 * </ol>
 * Below them, used as values: {@code PartitionMetrics}, {@code RunningFolds}, {@code StabilizationTree},
 * {@code BaseWindow}.
 *
 * <p>The deliberately broken variants ({@code Bug}) that the burn test must catch sit in the role they break.
 */
package io.fastccs.protocol.partition;
