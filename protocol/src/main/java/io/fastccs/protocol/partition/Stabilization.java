package io.fastccs.protocol.partition;

import io.fastccs.protocol.Bug;
import io.fastccs.core.PartitionConfig;
import io.fastccs.protocol.messages.BasedClock;
import io.fastccs.protocol.messages.Rebase;
import io.fastccs.protocol.messages.Settled;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.protocol.messages.StabilizeDown;
import io.fastccs.protocol.messages.StabilizeUp;
import io.fastccs.core.primitives.VectorClock;

import java.util.ArrayList;
import java.util.List;

/**
 * Stabilization (section 3.3.3): every partition learns how far the others settled, all-to-all, or beyond
 * {@code fanout + 1} partitions up and down a tree (docs/design/stabilization-tree.md, "Stabilization up and down a
 * tree") whose rounds down also number the stable bases that clients' and peers' clocks are relative to
 * (docs/design/stable-bases.md, "Clocks relative to a stable base").
 */
final class Stabilization {
    private final PartitionState state;
    private final PartitionConfig config;
    private final int self;
    private final int n;

    private long nextStabilizationAt;
    private long lastStabilizationSentAt;
    private long lastStabilizedValue = -1;
    /** Where stabilization goes beyond {@code fanout + 1} partitions; null while they tell each other directly. */
    private final StabilizationTree tree;
    /** The stable bases clients' and peers' clocks are relative to; null without a tree (clocks relative to zero). */
    private final BaseWindow bases;
    /** At the root: the last base epoch issued, and the newest any report up named. */
    private long lastEpoch;
    /** At the root: when it last sent a round down. */
    private long lastDownAt = Long.MIN_VALUE / 2;
    private long newestEpochHeard;

    Stabilization(PartitionState state, long now) {
        this.state = state;
        this.config = state.config;
        this.self = state.self;
        this.n = state.n;
        this.tree = StabilizationTree.direct(n, config.stabilizationFanout()) ? null
                : new StabilizationTree(self, n, config.stabilizationFanout());
        this.bases = tree == null ? null : new BaseWindow(n);
        // Epochs are numbered at most one per millisecond of the root's clock (never above its millisecond + 1), from
        // its start: a root restarted a millisecond or more later never gives a number it gave before (docs/design/stable-bases.md,
        // "Stable bases").
        this.lastEpoch = Math.max(0, now / 1000);
        this.nextStabilizationAt = now;
    }

    /** Tells the others our settled prefix when due. */
    void tick(long now) {
        if (now >= nextStabilizationAt) {
            stabilize(now);
            nextStabilizationAt = now + config.stabilizationIntervalMicros();
        }
    }

    void onStabilize(int from, Stabilize s) {
        if (s.from() != from) return;
        learnSettled(from, s.settled());
    }

    /**
     * A child's report: taken for the partitions of its subtree only, never for ourselves, and relayed to our parent at
     * once (the root gathers on its own tick), so a settled prefix reaches the root one interval after it is reported
     * whatever the depth.
     */
    void onStabilizeUp(int from, StabilizeUp u) {
        if (tree == null || u.from() != from || !tree.isChild(from)) return;
        newestEpochHeard = Math.max(newestEpochHeard, u.epoch());
        List<Settled> taken = new ArrayList<>(u.entries().size());
        for (Settled e : u.entries())
            if (e.partition() != self && e.partition() >= 0 && e.partition() < n && tree.inSubtree(from, e.partition())) {
                learnSettled(e.partition(), e.settled());
                taken.add(e);
            }
        if (taken.isEmpty()) return;
        if (!tree.isRoot()) {
            tree.relayed(taken);
            sendUp(taken);
            return;
        }
        // The root sends what rose down at once, at most twice an interval, rather than at its next tick: a
        // settled prefix then comes down about as soon as all-to-all would bring it (docs/design/stabilization-tree.md, "How it works").
        long now = state.time.nowMicros();
        if (now - lastDownAt >= config.stabilizationIntervalMicros() / 2) sendDown(now, ownReport());
    }

    /** What came down from our parent: taken for every partition but ourselves, and passed on to our children. */
    void onStabilizeDown(int from, StabilizeDown d) {
        if (tree == null || d.from() != from || from != tree.parent()) return;
        for (Settled e : d.entries())
            if (e.partition() != self && e.partition() >= 0 && e.partition() < n) learnSettled(e.partition(), e.settled());
        if (d.epoch() > 0) addBase(d.epoch(), d.full(), d.entries());
        List<Integer> children = tree.children();
        if (!children.isEmpty()) {
            StabilizeDown forward = new StabilizeDown(self, d.entries(), d.epoch(), d.full());
            for (int c : children) state.peers.send(c, forward);
        }
    }

    private void addBase(long epoch, boolean full, List<Settled> entries) {
        int[] ps = new int[entries.size()];
        long[] vs = new long[entries.size()];
        for (int i = 0; i < ps.length; i++) {
            ps[i] = entries.get(i).partition();
            vs[i] = entries.get(i).settled();
        }
        if (!bases.add(epoch, full, ps, vs)) state.metrics.basesMissed++;
    }

    /** Stabilization told us partition {@code p} settled up to {@code settled}. */
    private void learnSettled(int p, long settled) {
        if (settled > state.svc[p]) state.svc[p] = settled;
        if (settled > state.peerSettled[p]) state.peerSettled[p] = settled;
    }

    /**
     * Stabilization (section 3.3.3): tell every partition our settled prefix when it changed, and now and then anyway;
     * beyond {@code fanout + 1} partitions, through the tree.
     */
    private void stabilize(long now) {
        if (tree != null) {
            long own = ownReport();
            if (!tree.isRoot()) {
                StabilizationTree.Report r = tree.report(state.svc, own, now, config.stabilizationHeartbeatMicros(), false);
                if (r == null) return;
                sendUp(r.entries());
                return;
            }
            sendDown(now, own);
            return;
        }
        // The durable part: a coordinator forgets a commit decision, and a participant lets a record go, on what we
        // report, and an outcome that is not durable yet could still be lost.
        long settled = config.has(Bug.FORGET_BEFORE_OUTCOMES_DURABLE) ? state.svc[self] : state.readableSettled();
        if (settled == lastStabilizedValue && now - lastStabilizationSentAt < config.stabilizationHeartbeatMicros()) return;
        Stabilize m = new Stabilize(self, settled);
        for (int p = 0; p < n; p++) if (p != self) state.peers.send(p, m);
        state.metrics.stabilizationsSent++;
        lastStabilizedValue = settled;
        lastStabilizationSentAt = now;
    }

    /**
     * What we report of ourselves up and down the tree: the durable part of our settled prefix (all of it when the host
     * does not track durability). The tree's entries become stable bases, and a client raises its clock to a base: with
     * replica groups, a prefix not yet durable could be lost in a failover and its sequence numbers given again, and a
     * clock holding it would then claim transactions its session never saw.
     */
    private long ownReport() {
        return config.has(Bug.TREE_REPORTS_UNSETTLED) ? state.lastSequence : state.readableSettled();
    }

    /** Reports {@code entries} to our parent, with the newest base epoch we know of. */
    private void sendUp(List<Settled> entries) {
        state.peers.send(tree.parent(), new StabilizeUp(self, entries, Math.max(bases.newest(), newestEpochHeard)));
        state.metrics.stabilizationsSent++;
    }

    /**
     * The root's round: what rose goes down, as the base of a new epoch (at most one a millisecond of its clock; the
     * first one full).
     */
    private void sendDown(long now, long own) {
        long epoch = Math.max(lastEpoch, newestEpochHeard) + 1;
        boolean numbered = epoch <= now / 1000 + 1;
        StabilizationTree.Report r = tree.report(state.svc, own, now, config.stabilizationHeartbeatMicros(),
                numbered && bases.newest() == 0);
        lastDownAt = now;
        if (r == null) return;
        if (numbered) {
            lastEpoch = epoch;
            addBase(epoch, r.full(), r.entries());
        }
        StabilizeDown down = new StabilizeDown(self, r.entries(), numbered ? epoch : 0, r.full());
        for (int c : tree.children()) state.peers.send(c, down);
        state.metrics.stabilizationsSent++;
    }

    /** The base of {@code epoch}: zeros for epoch 0, null when we do not know it. */
    long[] baseOf(long epoch) {
        if (epoch == 0) return new long[n];
        return bases == null ? null : bases.base(epoch);
    }

    /** The newest stable base we name to clients: one epoch behind the newest we know, so the others know it too. */
    long stableEpoch() {
        if (bases == null || bases.newest() < 2) return 0;
        long stable = bases.newest() - 1;
        return bases.knows(stable) ? stable : 0;
    }

    /** What a client needs to move its clock {@code c} to the base of {@code epoch}; null if we do not know it. */
    Rebase rebase(VectorClock c, long epoch) {
        return bases == null ? null : bases.rebase(c, epoch);
    }

    /**
     * A commit clock relative to a stable base it is at least, for the participants: {@code clientBaseEpoch}, the base
     * its client named, which every participant expanded the request with, else our newest; null when it goes whole
     * (no tree, or no base to name).
     */
    BasedClock relativeToBase(VectorClock commitClock, long clientBaseEpoch) {
        long epoch = clientBaseEpoch;
        // The client's base only while it is recent enough that the participants surely keep it too.
        if (epoch == 0 || bases == null || bases.newest() - epoch > BaseWindow.KEPT / 2) epoch = stableEpoch();
        return epoch == 0 || bases == null || commitClock.size() != n ? null : bases.relativeTo(commitClock, epoch);
    }
}
