package io.fastccs.client.internal;

import io.fastccs.client.KeyType;
import io.fastccs.client.ScoredItem;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.typed.TypedValues;

import java.util.ArrayList;
import java.util.List;

/**
 * A typed key's value as a read returned it (the fold of its operations in the snapshot), decoded. Decoding happens
 * when the read finishes, so a malformed value fails the read instead of a later accessor.
 *
 * @param number  a counter's sum or a max register's largest value
 * @param members a set's elements, in byte order; empty for other types
 * @param items   a top-k's items, best first; empty for other types
 */
record TypedValue(KeyType type, long number, List<byte[]> members, List<ScoredItem> items) {
    /**
     * The typed value {@code v} holds, or null if it holds none: a plain key's value, a key never written, or a typed
     * key none of whose operations is in the snapshot. A fold of no operation (sequence number 0: operations have
     * sequence numbers from 1) reads as no value, so a max register with nothing visible is not read as 0.
     *
     * @throws IllegalArgumentException if the value is not the fold of its declared type
     */
    static TypedValue of(ReadValue v) {
        if (v == null || v.value() == null || v.type() == io.fastccs.core.primitives.KeyType.REGISTER || v.sequence() == 0)
            return null;
        io.fastccs.core.primitives.KeyType said = TypedValues.typeOf(v.value());
        if (said != v.type())
            throw new IllegalArgumentException("the value of " + v.key() + " is declared " + v.type().description()
                    + " but encoded as " + (said == null ? "nothing known" : said.description()));
        return switch (v.type()) {
            case COUNTER -> new TypedValue(KeyType.COUNTER, TypedValues.counter(v.value()), List.of(), List.of());
            case MAX -> new TypedValue(KeyType.MAX, TypedValues.max(v.value()), List.of(), List.of());
            case SET -> new TypedValue(KeyType.SET, 0, List.copyOf(TypedValues.set(v.value())), List.of());
            case TOPK -> {
                List<ScoredItem> items = new ArrayList<>();
                for (TypedValues.Scored s : TypedValues.topk(v.value())) items.add(new ScoredItem(s.item(), s.score()));
                yield new TypedValue(KeyType.TOPK, 0, List.of(), List.copyOf(items));
            }
            case REGISTER -> throw new IllegalStateException("unreachable");
        };
    }
}
