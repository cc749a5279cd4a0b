package io.fastccs.client;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One item of a top-k ({@link ReadResult#topk}) and its score: the best score any
 * {@link WriteBuilder#topkInsert topkInsert} gave it. Compared by content. Immutable; {@link #item()} returns a copy.
 *
 * @param item  the item's bytes
 * @param score its best score
 */
public record ScoredItem(byte[] item, long score) {
    /** Copies {@code item}. */
    public ScoredItem {
        item = Objects.requireNonNull(item, "item").clone();
    }

    /** A copy of the item's bytes. */
    @Override
    public byte[] item() {
        return item.clone();
    }

    /** The item decoded as UTF-8. */
    public String itemString() {
        return new String(item, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScoredItem s && score == s.score && Arrays.equals(item, s.item);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(item) + Long.hashCode(score);
    }

    /** {@code item=score}, the item as UTF-8. */
    @Override
    public String toString() {
        return itemString() + "=" + score;
    }
}
