package io.fastccs.sim;

import io.fastccs.check.Op;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.KeyType;
import io.fastccs.core.typed.Operands;
import io.fastccs.core.typed.TypedValues;
import io.fastccs.core.primitives.WriteKind;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Which keys are typed, and the commutative operations written to them, chosen so that a read names exactly the
 * operations folded into it where it can (the checker then knows what each read saw): a counter's n-th add adds 2^n
 * (its first 62 adds; later ones only bound the value), max values and set elements are unique ids, top-k scores are
 * unique ids over a few items. A key's type follows from its number, so every session and the final reads agree.
 */
final class TypedKeys {
    /** Top-k keys keep the best this many. */
    static final int TOP_K = 3;
    private static final int TOPK_ITEMS = 8;
    /** One in this many set operations is a remove (of an element added to the key before). */
    private static final int REMOVE_ONE_IN = 4;

    private final double fraction;
    private final Map<Long, Integer> addsIssued = new HashMap<>();
    /** Per session, per set key, the elements the session added or read: the ones it may remove. */
    private final Map<Long, Map<Long, List<Long>>> seenBySession = new HashMap<>();

    TypedKeys(double fraction) {
        this.fraction = fraction;
    }

    boolean any() {
        return fraction > 0;
    }

    /** The key's type: a fixed share of keys, spread by a hash of the key's number, in turn of the four types. */
    KeyType typeOf(long key) {
        if (fraction == 0) return KeyType.REGISTER;
        long h = mix(key);
        if ((h >>> 11) * 0x1.0p-53 >= fraction) return KeyType.REGISTER;
        return switch ((int) (h & 3)) {
            case 0 -> KeyType.COUNTER;
            case 1 -> KeyType.MAX;
            case 2 -> KeyType.SET;
            default -> KeyType.TOPK;
        };
    }

    /**
     * An operation on typed key {@code key} by session {@code session}, appended to {@code ops} as the history records it.
     * A set remove removes an element the session saw (added or read): a remove removes the adds its session had seen,
     * and the history shows what a session saw only through its reads and its own writes.
     */
    KeyValue operation(long session, Key wireKey, long key, HistoryLog history, SplittableRandom random, List<Op> ops) {
        switch (typeOf(key)) {
            case COUNTER -> {
                int n = addsIssued.merge(key, 1, Integer::sum) - 1;
                long delta = n < 62 ? 1L << n : 1 + random.nextLong(1000);
                ops.add(Op.add(key, delta));
                return new KeyValue(wireKey, Operands.number(delta), WriteKind.ADD);
            }
            case MAX -> {
                long value = history.nextValueId();
                ops.add(Op.max(key, value));
                return new KeyValue(wireKey, Operands.number(value), WriteKind.MAX);
            }
            case SET -> {
                List<Long> seen = seen(session, key);
                if (!seen.isEmpty() && random.nextInt(REMOVE_ONE_IN) == 0) {
                    long element = seen.get(random.nextInt(seen.size()));
                    ops.add(Op.setRemove(key, element));
                    return new KeyValue(wireKey, id(element), WriteKind.SET_REMOVE);
                }
                long element = history.nextValueId();
                seen.add(element);
                ops.add(Op.setAdd(key, element));
                return new KeyValue(wireKey, id(element), WriteKind.SET_ADD);
            }
            case TOPK -> {
                long item = 1 + random.nextInt(TOPK_ITEMS);
                long score = history.nextValueId();
                ops.add(Op.topkInsert(key, item, score));
                return new KeyValue(wireKey, Operands.topk(TOP_K, score, id(item)), WriteKind.TOPK_INSERT);
            }
            default -> throw new IllegalArgumentException("key " + key + " is not typed");
        }
    }

    private List<Long> seen(long session, long key) {
        return seenBySession.computeIfAbsent(session, x -> new HashMap<>()).computeIfAbsent(key, x -> new ArrayList<>());
    }

    /** The history's record of a read of typed key {@code key} by {@code session} that returned {@code v}. */
    Op read(long session, long key, ReadValue v) {
        Op op = read(key, v);
        if (op.kind() == Op.Kind.READ_SET) {
            List<Long> seen = seen(session, key);
            for (long e : op.elements()) if (!seen.contains(e)) seen.add(e);
        }
        return op;
    }

    /** An element, item or value no operation writes: what a read that returned something else than a fold records. */
    private static final long NEVER_WRITTEN = Long.MAX_VALUE;

    /** The history's record of a read of typed key {@code key} that returned {@code v}. */
    Op read(long key, ReadValue v) {
        byte[] folded = v == null || v.value() == null ? null : v.value();
        KeyType type = typeOf(key);
        if (folded != null && TypedValues.typeOf(folded) != type) { // a broken variant's answer: recorded as impossible
            return switch (type) {
                case COUNTER -> Op.readCounter(key, Long.MIN_VALUE);
                case MAX -> Op.readMax(key, -1);
                case SET -> Op.readSet(key, NEVER_WRITTEN);
                default -> Op.readTopk(key, TOP_K, new long[]{NEVER_WRITTEN}, new long[]{0});
            };
        }
        return switch (type) {
            case COUNTER -> Op.readCounter(key, folded == null ? 0 : TypedValues.counter(folded));
            case MAX -> Op.readMax(key, folded == null || !TypedValues.hasMax(folded) ? 0 : TypedValues.max(folded));
            case SET -> {
                List<byte[]> members = folded == null ? List.of() : TypedValues.set(folded);
                long[] elements = new long[members.size()];
                for (int i = 0; i < elements.length; i++) elements[i] = ByteBuffer.wrap(members.get(i)).getLong();
                yield Op.readSet(key, elements);
            }
            case TOPK -> {
                List<TypedValues.Scored> best = folded == null ? List.of() : TypedValues.topk(folded);
                long[] items = new long[best.size()], scores = new long[best.size()];
                for (int i = 0; i < items.length; i++) {
                    items[i] = ByteBuffer.wrap(best.get(i).item()).getLong();
                    scores[i] = best.get(i).score();
                }
                yield Op.readTopk(key, TOP_K, items, scores);
            }
            default -> throw new IllegalArgumentException("key " + key + " is not typed");
        };
    }

    private static byte[] id(long id) {
        return ByteBuffer.allocate(8).putLong(id).array();
    }

    private static long mix(long x) {
        x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
        x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
        return x ^ (x >>> 31);
    }
}
