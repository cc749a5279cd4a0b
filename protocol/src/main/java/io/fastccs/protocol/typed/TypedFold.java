package io.fastccs.protocol.typed;

import io.fastccs.core.typed.Operands;
import io.fastccs.core.primitives.KeyType;
import io.fastccs.core.primitives.WriteKind;

import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The value of a typed key at a snapshot: the fold of a set of its operations (docs/design/commutative-operations.md,
 * "A read returns the fold of the operations in its snapshot"). The result depends on the set only, never on the order
 * the operations are applied in: visibility is not a prefix of any order, so partitions, rounds and clients that fold
 * the same set agree.
 *
 * <ul>
 *   <li>counter: the sum of the deltas (wrapping);</li>
 *   <li>max: the largest value;</li>
 *   <li>set, add-wins: an element is in the set when one of its adds is not in the causal past of a remove of it
 *       (a remove removes the adds its session had seen, {@code add.commitClock <= remove's dependencies});</li>
 *   <li>top-k: per item its largest score; the k items with the largest scores, ties to the smaller item (bytes
 *       compared unsigned).</li>
 * </ul>
 *
 * Encodings. A folded value a read returns: {@code [tag]} then, counter and max {@code [8-byte number]} (a max with no
 * operation: the tag alone); set
 * {@code [count: 4]([length: 4][element])*} in element order; top-k {@code [k: 4][count: 4]([score: 8][length: 4]
 * [item])*} best first. A {@link WriteKind#FOLDED} base version holds the same, except that a set's base keeps each
 * element's adds' commit clocks ({@code [count: 4]([length: 4][element][adds: 4]([entries: 4][8 each])*)*}, tag
 * {@link #SET_BASE_TAG}), so that a later remove still removes exactly the adds it saw.
 */
public final class TypedFold {
    /** Tag of a set base (the set's tag marks a set as a read returns it, without the adds' clocks). */
    public static final byte SET_BASE_TAG = 100;

    private static final Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

    private final KeyType type;
    private long number;
    private boolean any;
    private int k;
    /** Set: element -> commit clocks of its adds not removed (only the maximal ones matter). */
    private final TreeMap<byte[], List<VectorClock>> adds = new TreeMap<>(UNSIGNED);
    /** Set: per element, the dependencies of the removes of it folded in. */
    private final TreeMap<byte[], List<VectorClock>> removes = new TreeMap<>(UNSIGNED);
    /** Stands for the adds of a set a read returned: their clocks are not sent. */
    private static final VectorClock NO_CLOCK = VectorClock.wrap(new long[0]);
    private boolean resultSeeded;
    /** Top-k: item -> best score. */
    private final TreeMap<byte[], Long> scores = new TreeMap<>(UNSIGNED);

    public TypedFold(KeyType type) {
        if (type == null || type == KeyType.REGISTER) throw new IllegalArgumentException("not a typed key: " + type);
        this.type = type;
    }

    /** A fold of the same operations that goes on apart from this one. */
    public TypedFold copy() {
        TypedFold c = new TypedFold(type);
        c.number = number;
        c.any = any;
        c.k = k;
        adds.forEach((e, clocks) -> c.adds.put(e, new ArrayList<>(clocks)));
        removes.forEach((e, deps) -> c.removes.put(e, new ArrayList<>(deps)));
        c.scores.putAll(scores);
        c.resultSeeded = resultSeeded;
        return c;
    }

    /** The type of the key these versions are of (a register when there are none or they are puts). */
    public static KeyType typeOf(Collection<Version> versions) {
        for (Version v : versions) {
            if (v.kind() == WriteKind.FOLDED) return typeOfFolded(v.value());
            return v.kind().keyType();
        }
        return KeyType.REGISTER;
    }

    private static KeyType typeOfFolded(byte[] value) {
        return value[0] == SET_BASE_TAG ? KeyType.SET : KeyType.ofTag(value[0]);
    }

    /** The top-k's k these versions fix (0 if none says). */
    public static int topkOf(Collection<Version> versions) {
        for (Version v : versions) {
            if (v.kind() == WriteKind.TOPK_INSERT) return Operands.topkK(v.value());
            if (v.kind() == WriteKind.FOLDED && v.value()[0] == KeyType.TOPK.tag()) return ByteBuffer.wrap(v.value()).getInt(1);
        }
        return 0;
    }

    public KeyType type() {
        return type;
    }

    /**
     * Adds one operation (or a base) to the set being folded. Removes are applied when the value is taken, after every
     * add of the set: whether a remove removes an add does not depend on the order they came in.
     */
    public TypedFold add(Version v) {
        WriteKind kind = v.kind();
        if (kind == WriteKind.FOLDED) {
            addFolded(v.value());
            return this;
        }
        if (kind.keyType() != type) throw new IllegalArgumentException(kind + " on " + type.description());
        switch (kind) {
            case ADD -> {
                number += Operands.number(v.value());
                any = true;
            }
            case MAX -> {
                long x = Operands.number(v.value());
                number = any ? Math.max(number, x) : x;
                any = true;
            }
            case SET_ADD -> addClock(v.value(), v.commitClock());
            case SET_REMOVE -> {
                if (resultSeeded) throw new IllegalStateException("a remove cannot be folded onto a read's set: read it again");
                RemoveOperand r = RemoveOperand.decode(v.value());
                removes.computeIfAbsent(r.element(), e -> new ArrayList<>(1)).add(r.dependencies());
            }
            case TOPK_INSERT -> {
                k = Operands.topkK(v.value());
                score(Operands.topkItem(v.value()), Operands.topkScore(v.value()));
            }
            default -> throw new IllegalArgumentException("cannot fold " + kind);
        }
        return this;
    }

    private void addClock(byte[] element, VectorClock clock) {
        List<VectorClock> clocks = adds.computeIfAbsent(element, e -> new ArrayList<>(1));
        for (VectorClock c : clocks) if (clock.leq(c)) return; // an add after it is removed whenever it is
        clocks.removeIf(c -> c.leq(clock));
        clocks.add(clock);
    }

    private void score(byte[] item, long score) {
        scores.merge(item, score, Math::max);
    }

    private void addFolded(byte[] value) {
        ByteBuffer b = ByteBuffer.wrap(value);
        byte tag = b.get();
        if (tag == SET_BASE_TAG) {
            requireType(KeyType.SET);
            int count = b.getInt();
            for (int i = 0; i < count; i++) {
                byte[] element = bytes(b);
                int clocks = b.getInt();
                for (int c = 0; c < clocks; c++) addClock(element, clock(b));
            }
            return;
        }
        KeyType t = KeyType.ofTag(tag);
        requireType(t);
        switch (t) {
            case SET -> { // a read's result (no clocks): only adds may be folded on top of it (the client's case)
                int count = b.getInt();
                for (int i = 0; i < count; i++) adds.computeIfAbsent(bytes(b), e -> new ArrayList<>(1)).add(NO_CLOCK);
                resultSeeded = true;
            }
            case COUNTER -> {
                number += b.getLong();
                any = true;
            }
            case MAX -> {
                if (!b.hasRemaining()) break; // no value
                long x = b.getLong();
                number = any ? Math.max(number, x) : x;
                any = true;
            }
            case TOPK -> {
                k = b.getInt();
                int count = b.getInt();
                for (int i = 0; i < count; i++) {
                    long s = b.getLong();
                    score(bytes(b), s);
                }
            }
            default -> throw new IllegalArgumentException("a folded " + t + " cannot be a base");
        }
    }

    private void requireType(KeyType t) {
        if (t != type) throw new IllegalArgumentException("a folded " + t + " on " + type.description());
    }

    /** The value a read returns (see the class doc). */
    public byte[] result() {
        return switch (type) {
            case COUNTER -> ByteBuffer.allocate(9).put(type.tag()).putLong(number).array();
            // A max register with nothing visible has no value (not 0: values may be negative), so just its tag.
            case MAX -> any ? ByteBuffer.allocate(9).put(type.tag()).putLong(number).array() : new byte[]{type.tag()};
            case SET -> {
                List<byte[]> members = members();
                int size = 5;
                for (byte[] e : members) size += 4 + e.length;
                ByteBuffer b = ByteBuffer.allocate(size).put(type.tag()).putInt(members.size());
                for (byte[] e : members) b.putInt(e.length).put(e);
                yield b.array();
            }
            case TOPK -> encodeTopk();
            case REGISTER -> throw new IllegalStateException();
        };
    }

    /**
     * Folds in a value a read returned ({@link #result()}), so that operations a round two would have shown can be
     * added to it: adds, never set removes (their effect depends on the adds' clocks, which a result does not carry).
     */
    public TypedFold addResult(byte[] result) {
        addFolded(result);
        return this;
    }

    /** The value of a base version that stands for every operation folded here. */
    public byte[] base() {
        if (resultSeeded) throw new IllegalStateException("a read's set has no clocks to make a base of");
        if (type != KeyType.SET) return result();
        Map<byte[], List<VectorClock>> kept = survivingAdds();
        int size = 5;
        for (Map.Entry<byte[], List<VectorClock>> e : kept.entrySet()) {
            size += 8 + e.getKey().length;
            for (VectorClock c : e.getValue()) size += 4 + 8 * c.size();
        }
        ByteBuffer b = ByteBuffer.allocate(size).put(SET_BASE_TAG).putInt(kept.size());
        for (Map.Entry<byte[], List<VectorClock>> e : kept.entrySet()) {
            b.putInt(e.getKey().length).put(e.getKey()).putInt(e.getValue().size());
            for (VectorClock c : e.getValue()) {
                b.putInt(c.size());
                for (int i = 0; i < c.size(); i++) b.putLong(c.get(i));
            }
        }
        return b.array();
    }

    private List<byte[]> members() {
        return new ArrayList<>(survivingAdds().keySet());
    }

    /** Each element's adds that no remove of the set saw. */
    private Map<byte[], List<VectorClock>> survivingAdds() {
        Map<byte[], List<VectorClock>> kept = new LinkedHashMap<>();
        for (Map.Entry<byte[], List<VectorClock>> e : adds.entrySet()) {
            List<VectorClock> left = new ArrayList<>(e.getValue());
            for (VectorClock dependencies : removes.getOrDefault(e.getKey(), List.of()))
                left.removeIf(c -> c.leq(dependencies));
            if (!left.isEmpty()) kept.put(e.getKey(), left);
        }
        return kept;
    }

    private byte[] encodeTopk() {
        List<Map.Entry<byte[], Long>> best = new ArrayList<>(scores.entrySet());
        best.sort((a, b) -> a.getValue().equals(b.getValue()) ? UNSIGNED.compare(a.getKey(), b.getKey())
                : Long.compare(b.getValue(), a.getValue()));
        if (best.size() > k) best = best.subList(0, k);
        int size = 9;
        for (Map.Entry<byte[], Long> e : best) size += 12 + e.getKey().length;
        ByteBuffer b = ByteBuffer.allocate(size).put(type.tag()).putInt(k).putInt(best.size());
        for (Map.Entry<byte[], Long> e : best) b.putLong(e.getValue()).putInt(e.getKey().length).put(e.getKey());
        return b.array();
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] x = new byte[b.getInt()];
        b.get(x);
        return x;
    }

    private static VectorClock clock(ByteBuffer b) {
        long[] entries = new long[b.getInt()];
        for (int i = 0; i < entries.length; i++) entries[i] = b.getLong();
        return VectorClock.wrap(entries);
    }

    /**
     * A stored remove: the element and the dependencies of its transaction (its session's clock when it wrote), the adds
     * it removes being those within them. The partition stores it so ({@link #encode}) when it installs the version.
     */
    public record RemoveOperand(byte[] element, VectorClock dependencies) {
        public byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(8 + element.length + 8 * dependencies.size());
            b.putInt(element.length).put(element).putInt(dependencies.size());
            for (int i = 0; i < dependencies.size(); i++) b.putLong(dependencies.get(i));
            return b.array();
        }

        public static RemoveOperand decode(byte[] stored) {
            ByteBuffer b = ByteBuffer.wrap(stored);
            byte[] element = bytes(b);
            return new RemoveOperand(element, clock(b));
        }
    }
}
