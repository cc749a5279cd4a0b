package io.fastccs.client.internal;

import io.fastccs.client.KeyType;
import io.fastccs.client.ReadResult;
import io.fastccs.client.ScoredItem;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.core.typed.Operands;
import io.fastccs.protocol.typed.TypedFold;
import io.fastccs.core.primitives.WriteKind;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A read's typed values through {@link ReadResult}'s accessors, and what each accessor says of a key of another type. */
class DefaultReadResultTest {
    private static long sequence;

    private static Version op(WriteKind kind, byte[] operand) {
        return new Version(++sequence, VectorClock.of(new long[]{sequence}), 0, operand, kind);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ReadValue typed(String key, io.fastccs.core.primitives.KeyType type, Version... ops) {
        TypedFold fold = new TypedFold(type);
        long newest = 0;
        for (Version v : ops) {
            fold.add(v);
            newest = Math.max(newest, v.sequence());
        }
        return new ReadValue(Key.of(key), fold.result(), newest, type);
    }

    private static ReadResult result(ReadValue... values) {
        Map<Key, ReadValue> map = new LinkedHashMap<>();
        for (ReadValue v : values) map.put(v.key(), v);
        return new DefaultReadResult(new io.fastccs.core.spi.ReadResult(map, 1, 0), 1);
    }

    private final ReadResult r = result(
            new ReadValue(Key.of("plain"), utf8("hello"), 1),
            new ReadValue(Key.of("never"), null, 0),
            typed("likes", io.fastccs.core.primitives.KeyType.COUNTER, op(WriteKind.ADD, Operands.number(5)),
                    op(WriteKind.ADD, Operands.number(-2))),
            typed("best", io.fastccs.core.primitives.KeyType.MAX, op(WriteKind.MAX, Operands.number(-7)),
                    op(WriteKind.MAX, Operands.number(-9))),
            typed("tags", io.fastccs.core.primitives.KeyType.SET, op(WriteKind.SET_ADD, utf8("b")),
                    op(WriteKind.SET_ADD, utf8("a")), op(WriteKind.SET_ADD, utf8("é"))),
            typed("top", io.fastccs.core.primitives.KeyType.TOPK, op(WriteKind.TOPK_INSERT, Operands.topk(2, 5, utf8("p"))),
                    op(WriteKind.TOPK_INSERT, Operands.topk(2, 9, utf8("q"))), op(WriteKind.TOPK_INSERT, Operands.topk(2, 9, utf8("o"))),
                    op(WriteKind.TOPK_INSERT, Operands.topk(2, 1, utf8("r")))),
            // A typed key none of whose operations the snapshot includes: the fold of nothing, sequence 0.
            typed("hidden-max", io.fastccs.core.primitives.KeyType.MAX));

    @Test
    void eachTypedAccessorReadsItsType() {
        assertThat(r.counter("likes")).isEqualTo(3);
        assertThat(r.counter(utf8("likes"))).isEqualTo(3);
        assertThat(r.max("best")).isEqualTo(OptionalLong.of(-7));
        assertThat(r.set("tags")).containsExactly("a", "b", "é");
        assertThat(r.setBytes(utf8("tags"))).containsExactly(utf8("a"), utf8("b"), utf8("é"));
        assertThat(r.topk("top")).containsExactly(new ScoredItem(utf8("o"), 9), new ScoredItem(utf8("q"), 9));
        assertThat(r.topk("top").get(0).itemString()).isEqualTo("o");
        assertThat(r.getString("plain")).isEqualTo("hello");
    }

    @Test
    void typesAndExistence() {
        assertThat(r.type("plain")).isEqualTo(KeyType.REGISTER);
        assertThat(r.type("likes")).isEqualTo(KeyType.COUNTER);
        assertThat(r.type("best")).isEqualTo(KeyType.MAX);
        assertThat(r.type("tags")).isEqualTo(KeyType.SET);
        assertThat(r.type(utf8("top"))).isEqualTo(KeyType.TOPK);
        assertThat(r.type("never")).isNull();
        assertThat(r.type("hidden-max")).isNull();
        assertThat(r.exists("likes")).isTrue();
        assertThat(r.exists("never")).isFalse();
        assertThat(r.exists("hidden-max")).isFalse();
    }

    @Test
    void aKeyWithoutValueReadsAsTheEmptyValueOfAnyType() {
        for (String key : List.of("never", "hidden-max")) {
            assertThat(r.counter(key)).isZero();
            assertThat(r.max(key)).isEmpty();
            assertThat(r.set(key)).isEmpty();
            assertThat(r.setBytes(key)).isEmpty();
            assertThat(r.topk(key)).isEmpty();
            assertThat(r.get(key)).isNull();
            assertThat(r.getString(key)).isNull();
        }
    }

    @Test
    void theWrongAccessorSaysWhichTypeTheKeyIsAndWhichAccessorReadsIt() {
        assertThatThrownBy(() -> r.counter("tags")).isInstanceOf(IllegalStateException.class)
                .hasMessage("key tags is a set (setAdd, setRemove), not a counter (add): read it with set(key)");
        assertThatThrownBy(() -> r.get("likes")).isInstanceOf(IllegalStateException.class)
                .hasMessage("key likes is a counter (add), not a plain key (put): read it with counter(key)");
        assertThatThrownBy(() -> r.getString(utf8("top"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("read it with topk(key)");
        assertThatThrownBy(() -> r.counter("plain")).isInstanceOf(IllegalStateException.class)
                .hasMessage("key plain is a plain key (put), not a counter (add): read it with get(key)");
        assertThatThrownBy(() -> r.max("likes")).isInstanceOf(IllegalStateException.class).hasMessageContaining("read it with counter(key)");
        assertThatThrownBy(() -> r.set("best")).isInstanceOf(IllegalStateException.class).hasMessageContaining("read it with max(key)");
        assertThatThrownBy(() -> r.setBytes("top")).isInstanceOf(IllegalStateException.class).hasMessageContaining("not a set");
        assertThatThrownBy(() -> r.topk("tags")).isInstanceOf(IllegalStateException.class).hasMessageContaining("not a top-k");
        assertThatThrownBy(() -> r.counter("not-read")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was not read");
    }

    @Test
    void returnsCopies() {
        r.setBytes("tags").get(0)[0] = 'z';
        assertThat(r.set("tags")).containsExactly("a", "b", "é");
        r.topk("top").get(0).item()[0] = 'z';
        assertThat(r.topk("top").get(0).itemString()).isEqualTo("o");
        assertThatThrownBy(() -> r.set("tags").add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aValueNotOfItsDeclaredTypeIsRefusedWhenTheReadFinishes() {
        assertThatThrownBy(() -> result(new ReadValue(Key.of("k"), Operands.number(1), 1, io.fastccs.core.primitives.KeyType.COUNTER)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("declared a counter (add)");
    }
}
