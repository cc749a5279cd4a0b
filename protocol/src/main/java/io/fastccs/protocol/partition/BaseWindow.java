package io.fastccs.protocol.partition;

import io.fastccs.protocol.messages.BasedClock;
import io.fastccs.protocol.messages.ClockDiff;
import io.fastccs.protocol.messages.Rebase;
import io.fastccs.core.primitives.VectorClock;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Arrays;
import java.util.Iterator;

/**
 * The stable bases one partition knows: the vectors of settled prefixes partition 0 sent down the stabilization tree,
 * one per epoch, for the last {@link #KEPT} epochs (docs/design/stable-bases.md, "Stable bases"). Kept as the
 * newest vector and, per epoch, the entries that rose with it and their values before, so older ones are rebuilt on
 * demand. Epoch 0 is the zero vector, always known.
 */
final class BaseWindow {
    /**
     * Epochs kept: at up to three a stabilization interval, about 0.8 s of them at 5 ms (longer when fewer rounds go
     * down), so that a client's clock or a commit decision relative to a base its sender saw lately can be expanded.
     */
    static final int KEPT = 512;

    private record Step(long epoch, int[] partitions, long[] before) {
    }

    private final int n;
    /** The base of {@link #newest}; all zeros while no epoch is known. */
    private final long[] latest;
    private long newest;
    /** The oldest epoch whose base can be rebuilt: the first one after a gap, or the newest minus what is kept. */
    private long oldest;
    /** Newest last. */
    private final ArrayDeque<Step> steps = new ArrayDeque<>();

    BaseWindow(int n) {
        this.n = n;
        this.latest = new long[n];
    }

    /** The newest epoch known, 0 if none. */
    long newest() {
        return newest;
    }

    /** Whether the base of {@code epoch} can be rebuilt. */
    boolean knows(long epoch) {
        return epoch == 0 || (newest > 0 && epoch >= oldest && epoch <= newest);
    }

    /**
     * Takes epoch {@code epoch}: {@code entries} (partition, value pairs) are the entries that rose since the previous
     * epoch, or every entry when {@code full}. Returns false when it cannot be taken (an epoch was missed and this one
     * is not full, or it is not newer): the window then stays as it was.
     */
    boolean add(long epoch, boolean full, int[] partitions, long[] values) {
        if (epoch <= newest && newest > 0) return false;
        boolean next = newest > 0 && epoch == newest + 1;
        if (!next && !full) return false;
        if (!next) { // a fresh start: everything before is forgotten
            steps.clear();
            Arrays.fill(latest, 0);
            oldest = epoch;
        }
        long[] before = new long[partitions.length];
        for (int i = 0; i < partitions.length; i++) {
            int k = partitions[i];
            if (k < 0 || k >= n) continue;
            before[i] = latest[k];
            latest[k] = Math.max(latest[k], values[i]);
        }
        steps.addLast(new Step(epoch, partitions, before));
        newest = epoch;
        while (steps.size() > KEPT) steps.removeFirst();
        oldest = Math.max(oldest, steps.peekFirst().epoch());
        return true;
    }

    /** The base of {@code epoch}, or null when it is not known. */
    long[] base(long epoch) {
        if (epoch == 0) return new long[n];
        if (!knows(epoch)) return null;
        long[] out = latest.clone();
        Iterator<Step> back = steps.descendingIterator();
        while (back.hasNext()) {
            Step s = back.next();
            if (s.epoch() <= epoch) break;
            for (int i = s.partitions().length - 1; i >= 0; i--) {
                int k = s.partitions()[i];
                if (k >= 0 && k < n) out[k] = s.before()[i];
            }
        }
        return out;
    }

    /** What a client needs to move its clock {@code c} to the base of {@code epoch}; null if that base is not known. */
    Rebase rebase(VectorClock c, long epoch) {
        long[] base = base(epoch);
        if (base == null) return null;
        long[] lifted = c.toArray();
        List<Integer> explicit = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            if (c.get(k) > base[k]) explicit.add(k);
            else lifted[k] = base[k];
        }
        return new Rebase(epoch, ClockDiff.between(c, VectorClock.wrap(lifted)), explicit);
    }

    /** {@code clock} relative to the base of {@code epoch}, or null when that base is unknown or above the clock. */
    BasedClock relativeTo(VectorClock clock, long epoch) {
        long[] base = base(epoch);
        if (base == null) return null;
        BitSet above = new BitSet(n);
        for (int k = 0; k < n; k++) {
            if (clock.get(k) < base[k]) return null;
            if (clock.get(k) > base[k]) above.set(k);
        }
        return BasedClock.of(epoch, clock, above);
    }

    /** Forgets every epoch (a restarted partition knows none). */
    void clear() {
        steps.clear();
        Arrays.fill(latest, 0);
        newest = 0;
        oldest = 0;
    }
}
