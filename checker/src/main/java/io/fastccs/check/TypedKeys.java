package io.fastccs.check;

import io.fastccs.check.Anomaly.Kind;
import io.fastccs.check.Op.DataType;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The data type of every key and the index of every typed key. A key's type is fixed by its first
 * operation in history order; a key used with a second type is malformed input: it is reported once
 * ({@link Kind#MIXED_TYPES}) and neither its register nor its typed operations are checked.
 */
final class TypedKeys {

    private static final TypedKeys NONE = new TypedKeys(Map.of(), Set.of());

    private final Map<Long, TypedKey> typed;
    private final Set<Long> mixed;

    private TypedKeys(Map<Long, TypedKey> typed, Set<Long> mixed) {
        this.typed = typed;
        this.mixed = mixed;
    }

    /** Indexes the history's typed operations, reporting mixed types and duplicate set adds. */
    static TypedKeys index(TxnNodes nodes, TxnNodes.Sink sink) {
        Txn[] tx = nodes.tx();
        if (!anyTyped(tx)) {
            return NONE; // register-only histories pay one scan
        }
        Map<Long, DataType> typeOf = new HashMap<>();
        Map<Long, Integer> firstTx = new HashMap<>();
        Set<Long> mixed = new HashSet<>();
        for (int i = 0; i < tx.length; i++) {
            for (Op op : tx[i].ops()) {
                DataType first = typeOf.putIfAbsent(op.key(), op.dataType());
                if (first == null) {
                    firstTx.put(op.key(), i);
                } else if (first != op.dataType() && mixed.add(op.key())) {
                    int f = firstTx.get(op.key());
                    sink.report(Kind.MIXED_TYPES, "key " + op.key() + " is used as a " + describe(first) + " by "
                            + nodes.name(f) + " and as a " + describe(op.dataType()) + " by " + nodes.name(i)
                            + " (its operations are not checked)", f == i ? nodes.ids(i) : nodes.ids(f, i),
                            op.key());
                }
            }
        }
        Map<Long, TypedKey> typed = new HashMap<>();
        for (int i = 0; i < tx.length; i++) {
            List<Op> ops = tx[i].ops();
            for (int j = 0; j < ops.size(); j++) {
                Op op = ops.get(j);
                if (!op.isTyped() || mixed.contains(op.key())) {
                    continue;
                }
                TypedKey tk = typed.computeIfAbsent(op.key(), k -> new TypedKey(k, op.dataType(), nodes));
                if (op.isRead()) {
                    continue;
                }
                int dup = tk.add(i, j, op);
                if (dup >= 0) {
                    int other = tk.txOf(dup);
                    sink.report(Kind.DUPLICATE_WRITE, "element " + op.value() + " is added to set " + op.key()
                            + " by " + nodes.name(other) + (other == i ? " twice" : " and " + nodes.name(i))
                            + "; reads of it are attributed to the first add", other == i ? nodes.ids(i)
                            : nodes.ids(other, i), op.key());
                }
            }
        }
        for (TypedKey tk : typed.values()) {
            tk.finish();
        }
        return new TypedKeys(typed, mixed);
    }

    private static boolean anyTyped(Txn[] tx) {
        for (Txn t : tx) {
            for (Op op : t.ops()) {
                if (op.isTyped()) {
                    return true;
                }
            }
        }
        return false;
    }

    static String describe(DataType type) {
        return switch (type) {
            case REGISTER -> "register";
            case COUNTER -> "counter";
            case MAX_REGISTER -> "max register";
            case SET -> "set";
            case TOP_K -> "top-k";
        };
    }

    boolean isEmpty() {
        return typed.isEmpty();
    }

    /** Whether {@code key} has two types (then nothing on it is checked). */
    boolean isMixed(long key) {
        return !mixed.isEmpty() && mixed.contains(key);
    }

    /** The index of a typed key, or null for a register key, a mixed key or an unused key. */
    TypedKey get(long key) {
        return typed.get(key);
    }

    Collection<TypedKey> all() {
        return new ArrayList<>(typed.values());
    }
}
