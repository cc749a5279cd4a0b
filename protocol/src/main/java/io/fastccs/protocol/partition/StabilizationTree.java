package io.fastccs.protocol.partition;

import io.fastccs.protocol.messages.Settled;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where one partition sends stabilization when there are more partitions than {@code fanout + 1}: the partitions form
 * a tree of that fan-out numbered as a heap (partition 0 the root, the children of i are {@code fanout*i+1} to
 * {@code fanout*i+fanout}). Each interval a partition reports to its parent what rose in its subtree (reports from
 * below are relayed as they come), the root sends what rose anywhere to its children, and every partition forwards what
 * comes down to its own children as it arrives: a few messages per partition an interval, each partition sending to at
 * most {@code fanout + 1} peers, instead of N(N-1).
 * docs/design/stabilization-tree.md, "Stabilization up and down a tree".
 */
final class StabilizationTree {
    private final int self;
    private final int n;
    private final int fanout;
    /** The value last sent for each entry this partition reports (its subtree, or everything at the root); -1: never. */
    private final long[] reported;
    /** The entries this partition reports: its subtree, itself first; at the root every partition. */
    private final int[] reporting;
    private final List<Integer> children;
    private long lastFullReportAt;
    private boolean reportedOnce;

    StabilizationTree(int self, int n, int fanout) {
        this.self = self;
        this.n = n;
        this.fanout = fanout;
        this.reported = new long[n];
        Arrays.fill(reported, -1);
        List<Integer> members = new ArrayList<>();
        for (int k = 0; k < n; k++) if (inSubtree(self, k)) members.add(k);
        this.reporting = members.stream().mapToInt(Integer::intValue).toArray();
        List<Integer> below = new ArrayList<>();
        long first = (long) fanout * self + 1;
        for (long c = first; c < first + fanout && c < n; c++) below.add((int) c);
        this.children = List.copyOf(below);
    }

    /** True when the partitions are few enough to tell each other directly, as the thesis does. */
    static boolean direct(int n, int fanout) {
        return n <= fanout + 1;
    }

    boolean isRoot() {
        return self == 0;
    }

    /** The partition above this one; -1 at the root. */
    int parent() {
        return self == 0 ? -1 : (self - 1) / fanout;
    }

    /** The partitions directly below this one. */
    List<Integer> children() {
        return children;
    }

    /** Whether {@code p} is directly below this partition. */
    boolean isChild(int p) {
        return p > 0 && p < n && (p - 1) / fanout == self;
    }

    /** Whether partition {@code k} is {@code top} or below it. */
    boolean inSubtree(int top, int k) {
        while (k > top) k = (k - 1) / fanout;
        return k == top;
    }

    /** Records that {@code entries} went up already (relayed as they came), so the next report leaves them out. */
    void relayed(List<Settled> entries) {
        for (Settled e : entries)
            if (e.partition() >= 0 && e.partition() < n) reported[e.partition()] = Math.max(reported[e.partition()], e.settled());
    }

    /** What one report carries: the entries that rose, or every entry when {@code full}. */
    record Report(List<Settled> entries, boolean full) {
    }

    /**
     * This interval's report, or null when nothing rose and no heartbeat is due: to the parent, the entries of this
     * subtree that rose since the last report; at the root, to the children, every entry that did. At a heartbeat, at
     * the first report and when {@code forceFull}, every entry goes, so a restarted or message-losing partition catches
     * up.
     *
     * @param known  the settled prefixes this partition knows (its svc)
     * @param own    this partition's own entry to report
     */
    Report report(long[] known, long own, long now, long heartbeatMicros, boolean forceFull) {
        boolean full = forceFull || !reportedOnce || now - lastFullReportAt >= heartbeatMicros;
        if (full) lastFullReportAt = now;
        reportedOnce = true;
        List<Settled> entries = new ArrayList<>();
        for (int k : reporting) {
            long v = k == self ? own : known[k];
            // A full report leaves out zeros: the receiver knows them already (a base starts from zeros).
            if (v > 0 && (full || v > reported[k])) entries.add(new Settled(k, v));
            reported[k] = Math.max(reported[k], v);
        }
        return entries.isEmpty() && !full ? null : new Report(entries, full);
    }
}
