package io.fastccs.core.typed;

import io.fastccs.core.primitives.KeyType;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Reads the folded values of typed keys as a read returns them ({@link TypedFold#result()}). */
public final class TypedValues {
    private TypedValues() {
    }

    /** One item of a top-k and its score. */
    public record Scored(byte[] item, long score) {
    }

    /** The type a folded value says it is, or null if it is not one. */
    public static KeyType typeOf(byte[] folded) {
        return folded == null || folded.length == 0 ? null : KeyType.ofTag(folded[0]);
    }

    public static long counter(byte[] folded) {
        return number(folded, KeyType.COUNTER);
    }

    /**
     * The largest value of a max register.
     *
     * @throws IllegalArgumentException if it has none ({@link #hasMax}) or is not a max register
     */
    public static long max(byte[] folded) {
        if (!hasMax(folded)) throw new IllegalArgumentException("the max register has no value");
        return number(folded, KeyType.MAX);
    }

    /** Whether a max register's folded value holds a value (false when no operation was folded in). */
    public static boolean hasMax(byte[] folded) {
        open(folded, KeyType.MAX);
        return folded.length > 1;
    }

    public static List<byte[]> set(byte[] folded) {
        ByteBuffer b = open(folded, KeyType.SET);
        int count = b.getInt();
        List<byte[]> members = new ArrayList<>(count);
        for (int i = 0; i < count; i++) members.add(bytes(b));
        return members;
    }

    public static List<Scored> topk(byte[] folded) {
        ByteBuffer b = open(folded, KeyType.TOPK);
        b.getInt(); // k
        int count = b.getInt();
        List<Scored> best = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long score = b.getLong();
            best.add(new Scored(bytes(b), score));
        }
        return best;
    }

    private static long number(byte[] folded, KeyType type) {
        return open(folded, type).getLong();
    }

    private static ByteBuffer open(byte[] folded, KeyType type) {
        KeyType actual = typeOf(folded);
        if (actual != type)
            throw new IllegalArgumentException("the value is " + (actual == null ? "not a folded value" : actual.description())
                    + ", not " + type.description());
        ByteBuffer b = ByteBuffer.wrap(folded);
        b.get();
        return b;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] x = new byte[b.getInt()];
        b.get(x);
        return x;
    }
}
