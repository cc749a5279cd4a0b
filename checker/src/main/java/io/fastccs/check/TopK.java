package io.fastccs.check;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Top-k ranking: a higher score first, on equal scores the smaller item first. */
final class TopK {

    private TopK() {
    }

    /** Whether {@code (itemA, scoreA)} ranks strictly before {@code (itemB, scoreB)}. */
    static boolean before(long itemA, long scoreA, long itemB, long scoreB) {
        return scoreA > scoreB || scoreA == scoreB && itemA < itemB;
    }

    /** Why a top-k read's list answers no state (longer than k, out of order, an item twice), or null. */
    static String malformed(Op read) {
        int n = read.size();
        if (n > read.k()) {
            return "it lists " + n + " pairs for k = " + read.k();
        }
        Set<Long> items = new HashSet<>();
        for (int i = 0; i < n; i++) {
            if (!items.add(read.elementAt(i))) {
                return "item " + read.elementAt(i) + " is listed twice";
            }
            if (i > 0 && !before(read.elementAt(i - 1), read.scoreAt(i - 1), read.elementAt(i), read.scoreAt(i))) {
                return read.elementAt(i) + ":" + read.scoreAt(i) + " is listed after " + read.elementAt(i - 1) + ":"
                        + read.scoreAt(i - 1);
            }
        }
        return null;
    }

    /**
     * Whether a well-formed top-k read shows an insert of {@code (item, score)} as folded in: the item is listed
     * with at least that score, or it is not listed because the list is full and the pair ranks after its last
     * entry.
     */
    static boolean reflects(Op read, long item, long score) {
        int n = read.size();
        for (int i = 0; i < n; i++) {
            if (read.elementAt(i) == item) {
                return read.scoreAt(i) >= score;
            }
        }
        int k = read.k();
        return n == k && (k == 0 || before(read.elementAt(n - 1), read.scoreAt(n - 1), item, score));
    }

    /** The best {@code k} entries of {@code scores} (item to score), as {items, scores}. */
    static long[][] best(Map<Long, Long> scores, int k) {
        List<Map.Entry<Long, Long>> entries = new ArrayList<>(scores.entrySet());
        entries.sort((a, b) -> before(a.getKey(), a.getValue(), b.getKey(), b.getValue()) ? -1
                : before(b.getKey(), b.getValue(), a.getKey(), a.getValue()) ? 1 : 0);
        int n = Math.min(k, entries.size());
        long[] items = new long[n];
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            items[i] = entries.get(i).getKey();
            values[i] = entries.get(i).getValue();
        }
        return new long[][] {items, values};
    }
}
