package io.fastccs.core.typed;

import io.fastccs.core.primitives.WriteKind;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** The operand bytes of the commutative operations ({@link WriteKind}), built and checked in one place. */
public final class Operands {
    /** The largest k a top-k key may have: a read returns at most this many items. */
    public static final int MAX_TOPK = 1024;

    private Operands() {
    }

    public static byte[] number(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    public static long number(byte[] operand) {
        return ByteBuffer.wrap(operand).getLong();
    }

    public static byte[] topk(int k, long score, byte[] item) {
        return ByteBuffer.allocate(12 + item.length).putInt(k).putLong(score).put(item).array();
    }

    public static int topkK(byte[] operand) {
        return ByteBuffer.wrap(operand).getInt(0);
    }

    public static long topkScore(byte[] operand) {
        return ByteBuffer.wrap(operand).getLong(4);
    }

    public static byte[] topkItem(byte[] operand) {
        return Arrays.copyOfRange(operand, 12, operand.length);
    }

    /**
     * Null if {@code operand} is well formed for {@code kind}, else why not. Plain puts are checked elsewhere (any
     * non-empty bytes).
     */
    public static String problem(WriteKind kind, byte[] operand) {
        return switch (kind) {
            case PUT -> null;
            case ADD, MAX -> operand.length == 8 ? null : "needs an 8-byte number, got " + operand.length + " bytes";
            case SET_ADD, SET_REMOVE -> operand.length > 0 ? null : "needs a non-empty element";
            case TOPK_INSERT -> {
                if (operand.length < 13) yield "needs k, a score and a non-empty item (" + operand.length + " bytes)";
                int k = topkK(operand);
                yield k >= 1 && k <= MAX_TOPK ? null : "k is " + k + ", must be 1 to " + MAX_TOPK;
            }
            case FOLDED -> "is not an operation a client may send";
        };
    }
}
