package io.fastccs.check;

import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The committed updates of one set or top-k key in the causal past of one session's reads, brought up to
 * date as the clock walk reaches the session's next read. A session's causal past only grows, so each
 * update is absorbed once per session instead of once per read, and a read costs about its own size.
 */
abstract class ForcedPast {

    final TypedKey tk;
    /** Per session group of the key: how many of its updates are absorbed. */
    private final int[] done;

    ForcedPast(TypedKey tk) {
        this.tk = tk;
        done = new int[tk.groups()];
        for (int g = 0; g < done.length; g++) {
            done[g] = tk.groupStart(g);
        }
    }

    /** Absorbs the updates newly in the causal past of node {@code t} (of this session) with hb clock {@code clock}. */
    final void advance(int t, int[] clock, TxnNodes nodes) {
        for (int g = 0; g < done.length; g++) {
            int end = tk.pastEnd(g, t, clock, nodes);
            for (int x = done[g]; x < end; x++) {
                absorb(tk.causalUpdate(x));
            }
            done[g] = Math.max(done[g], end);
        }
    }

    abstract void absorb(int update);

    /** Whether a set remove certainly removes its element's add (see {@link TypedReads}). */
    interface Removes {
        boolean certainly(TypedKey tk, int remove);
    }

    /** Set: the absorbed adds no absorbed remove certainly removes, and the ones some does. */
    static final class OfSet extends ForcedPast {
        private final Removes removes;
        /** Adds not (yet) removed by an absorbed remove, in absorption order. */
        final Set<Integer> open = new LinkedHashSet<>();
        /** Adds some absorbed remove certainly removes. */
        final BitSet removed = new BitSet();

        OfSet(TypedKey tk, Removes removes) {
            super(tk);
            this.removes = removes;
        }

        @Override
        void absorb(int u) {
            if (tk.op(u).kind() == Op.Kind.SET_ADD) {
                if (!removed.get(u)) {
                    open.add(u);
                }
                return;
            }
            int add = tk.addRemovedBy(u);
            // A remove that saw the add has it in its causal past, so the add is absorbed by now or soon.
            if (add >= 0 && !removed.get(add) && removes.certainly(tk, u)) {
                removed.set(add);
                open.remove(add);
            }
        }
    }

    /** Top-k: per item the absorbed insert with the best score, and those entries in rank order. */
    static final class OfTopk extends ForcedPast {
        /** Item to {score, update}. */
        private final Map<Long, long[]> best = new HashMap<>();
        /** {item, score} entries, best first. */
        private final TreeSet<long[]> ranking = new TreeSet<>((a, b) -> a[0] == b[0] && a[1] == b[1] ? 0
                : TopK.before(a[0], a[1], b[0], b[1]) ? -1 : 1);

        OfTopk(TypedKey tk) {
            super(tk);
        }

        @Override
        void absorb(int u) {
            Op op = tk.op(u);
            long[] cur = best.get(op.item());
            if (cur == null || op.score() > cur[0]) {
                if (cur != null) {
                    ranking.remove(new long[] {op.item(), cur[0]});
                }
                best.put(op.item(), new long[] {op.score(), u});
                ranking.add(new long[] {op.item(), op.score()});
            }
        }

        /** Whether a well-formed top-k read shows every absorbed insert (as {@link TopK#reflects}). */
        boolean reflectedBy(Op read) {
            int n = read.size();
            Set<Long> listed = new HashSet<>();
            for (int i = 0; i < n; i++) {
                long[] b = best.get(read.elementAt(i));
                if (b != null && b[0] > read.scoreAt(i)) {
                    return false;
                }
                listed.add(read.elementAt(i));
            }
            for (long[] e : ranking) {
                if (!listed.contains(e[0])) {
                    return TopK.reflects(read, e[0], e[1]); // the best unlisted entry decides
                }
            }
            return true;
        }
    }
}
