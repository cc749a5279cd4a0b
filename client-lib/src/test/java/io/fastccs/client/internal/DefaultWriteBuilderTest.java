package io.fastccs.client.internal;

import io.fastccs.client.InvalidRequestException;
import io.fastccs.client.WriteBuilder;
import io.fastccs.client.WriteResult;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.spi.Protocols;
import io.fastccs.core.typed.Operands;
import io.fastccs.core.primitives.WriteKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The write builder's checks, made as each operation is added, and the operations it hands to its session. */
class DefaultWriteBuilderTest {
    /** At most 4 keys of 8 bytes, values of 16 bytes. */
    private final InputValidator validator = new InputValidator(4, 8, 16);
    private List<KeyValue> ran;

    private WriteBuilder builder() {
        return builder(Protocol.FASTCCS);
    }

    private WriteBuilder builder(Protocol protocol) {
        return new DefaultWriteBuilder(validator, Protocols.factory(protocol), ops -> {
            ran = ops;
            return CompletableFuture.<WriteResult>completedFuture(null);
        });
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void handsEveryOperationToTheSessionInOrderWithItsOperand() {
        builder().put("p", "v").add("c", 5).max("m", -3).setAdd("s", "x").executeAsync();
        assertThat(ran).containsExactly(new KeyValue(Key.of("p"), utf8("v"), WriteKind.PUT),
                new KeyValue(Key.of("c"), Operands.number(5), WriteKind.ADD),
                new KeyValue(Key.of("m"), Operands.number(-3), WriteKind.MAX),
                new KeyValue(Key.of("s"), utf8("x"), WriteKind.SET_ADD));
        builder().setRemove(new byte[]{1}, new byte[]{2}).topkInsert("t", 10, "ann", 950).executeAsync();
        assertThat(ran).containsExactly(new KeyValue(Key.wrap(new byte[]{1}), new byte[]{2}, WriteKind.SET_REMOVE),
                new KeyValue(Key.of("t"), Operands.topk(10, 950, utf8("ann")), WriteKind.TOPK_INSERT));
    }

    @Test
    void addsToOneKeyMergeIntoTheirSumWrappingAsTheCounterDoes() {
        WriteBuilder b = builder().add("c", 5).add("c", -2).add(utf8("c"), 10);
        assertThat(b.size()).isEqualTo(1);
        b.add("d", Long.MAX_VALUE).add("d", 2).add("z", 1).add("z", -1);
        b.executeAsync();
        assertThat(ran).containsExactly(new KeyValue(Key.of("c"), Operands.number(13), WriteKind.ADD),
                new KeyValue(Key.of("d"), Operands.number(Long.MIN_VALUE + 1), WriteKind.ADD),
                new KeyValue(Key.of("z"), Operands.number(0), WriteKind.ADD));
    }

    @Test
    void aSecondOperationOnAKeyIsRefusedAtOnceAndTheBuilderKeepsTheFirst() {
        WriteBuilder b = builder().put("k", "v");
        refuses(() -> b.put("k", "w"), "key k already has an operation in this write (put), so put is refused");
        refuses(() -> b.add("k", 1), "(put), so add is refused");
        refuses(() -> b.put(utf8("k"), utf8("w")), "already has an operation");
        WriteBuilder c = builder().add("c", 1);
        refuses(() -> c.max("c", 1), "(add), so max is refused");
        refuses(() -> c.put("c", "1"), "(add), so put is refused");
        WriteBuilder m = builder().max("m", 1);
        refuses(() -> m.max("m", 2), "one operation per key");
        refuses(() -> m.add("m", 2), "(max), so add is refused");
        WriteBuilder s = builder().setAdd("s", "x");
        refuses(() -> s.setAdd("s", "y"), "(setAdd), so setAdd is refused");
        refuses(() -> s.setRemove("s", "x"), "(setAdd), so setRemove is refused");
        WriteBuilder t = builder().topkInsert("t", 3, "a", 1);
        refuses(() -> t.topkInsert("t", 3, "b", 2), "(topkInsert), so topkInsert is refused");
        b.executeAsync();
        assertThat(ran).containsExactly(new KeyValue(Key.of("k"), utf8("v"), WriteKind.PUT));
    }

    @Test
    void refusesBadKeysValuesElementsAndItems() {
        refuses(() -> builder().put(null, "v"), "a key is null");
        refuses(() -> builder().put("", "v"), "a key is empty");
        refuses(() -> builder().put("123456789", "v"), "longer than the maximum of 8");
        refuses(() -> builder().put("k", null), "the value for key k is null");
        refuses(() -> builder().put("k", ""), "the value for key k is empty");
        refuses(() -> builder().put("k", "12345678901234567"), "17 bytes, more than the maximum of 16");
        refuses(() -> builder().add((String) null, 1), "a key is null");
        refuses(() -> builder().max(new byte[0], 1), "a key is empty");
        refuses(() -> builder().setAdd("s", null), "the element for key s is null");
        refuses(() -> builder().setRemove("s", ""), "the element for key s is empty");
        refuses(() -> builder().setAdd("s", "12345678901234567"), "more than the maximum of 16");
        refuses(() -> builder().topkInsert("t", 3, "", 1), "the item for key t is empty");
        refuses(() -> builder().topkInsert("t", 3, (String) null, 1), "the item for key t is null");
        // A top-k insert sends k and the score (12 bytes) with its item.
        refuses(() -> builder().topkInsert("t", 3, "12345", 1), "5 bytes (17 as sent), more than the maximum of 16");
        builder().topkInsert("t", 3, "1234", 1);
    }

    @Test
    void refusesAKOutOfRange() {
        refuses(() -> builder().topkInsert("t", 0, "a", 1), "k is 0 for the top-k key t; it must be 1 to 1024");
        refuses(() -> builder().topkInsert("t", -1, "a", 1), "k is -1");
        refuses(() -> builder().topkInsert("t", WriteBuilder.MAX_TOPK + 1, "a", 1), "k is 1025");
        builder().topkInsert("t", 1, "a", 1).topkInsert("u", WriteBuilder.MAX_TOPK, "a", 1);
        assertThat(WriteBuilder.MAX_TOPK).as("the client's bound is the protocol's").isEqualTo(Operands.MAX_TOPK);
    }

    @Test
    void refusesMoreKeysThanTheMaximumButMergedAddsCountOnce() {
        WriteBuilder b = builder().put("a", "1").add("b", 1).setAdd("c", "x").max("d", 1);
        refuses(() -> b.topkInsert("e", 1, "x", 1), "5 writes in one transaction, more than the maximum of 4");
        b.add("b", 2);
        assertThat(b.size()).isEqualTo(4);
    }

    @Test
    void refusedCallsLeaveTheBuilderAsItWas() {
        WriteBuilder b = builder().put("a", "1");
        refuses(() -> b.put("b", ""), "empty");
        refuses(() -> b.topkInsert("b", 0, "x", 1), "k is 0");
        assertThat(b.size()).isEqualTo(1);
        b.add("b", 1).executeAsync();
        assertThat(ran).extracting(KeyValue::kind).containsExactly(WriteKind.PUT, WriteKind.ADD);
    }

    @Test
    void copiesCallerBytes() {
        byte[] key = {1}, value = {2}, element = {3}, item = {4};
        WriteBuilder b = builder().put(key, value).setAdd(new byte[]{9}, element).topkInsert(new byte[]{8}, 2, item, 7);
        key[0] = 0;
        value[0] = 0;
        element[0] = 0;
        item[0] = 0;
        b.executeAsync();
        assertThat(ran).containsExactly(new KeyValue(Key.wrap(new byte[]{1}), new byte[]{2}, WriteKind.PUT),
                new KeyValue(Key.wrap(new byte[]{9}), new byte[]{3}, WriteKind.SET_ADD),
                new KeyValue(Key.wrap(new byte[]{8}), Operands.topk(2, 7, new byte[]{4}), WriteKind.TOPK_INSERT));
    }

    @Test
    void runsOnceThenRefusesEveryCall() {
        WriteBuilder b = builder().put("a", "1");
        b.executeAsync();
        for (Consumer<WriteBuilder> call : List.<Consumer<WriteBuilder>>of(WriteBuilder::executeAsync, WriteBuilder::execute,
                w -> w.put("b", "2"), w -> w.add("c", 1), w -> w.max("m", 1), w -> w.setAdd("s", "x"),
                w -> w.setRemove("s", "x"), w -> w.topkInsert("t", 1, "x", 1)))
            assertThatThrownBy(() -> call.accept(b)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("executed already");
    }

    @Test
    void anEmptyBuilderIsHandedOnForTheSessionToRefuse() {
        builder().executeAsync();
        assertThat(ran).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = Protocol.class, names = {"EIGER", "WREN", "EVENTUAL"})
    void otherProtocolsTakePutsButRefuseCommutativeOperationsAtOnce(Protocol protocol) {
        WriteBuilder b = builder(protocol).put("p", "v");
        for (Runnable call : List.<Runnable>of(() -> b.add("c", 1), () -> b.max("m", 1), () -> b.setAdd("s", "x"),
                () -> b.setRemove("s", "x"), () -> b.topkInsert("t", 1, "x", 1), () -> b.add(new byte[]{1}, 1)))
            assertThatThrownBy(call::run).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("FastCCS's").hasMessageContaining("this client speaks " + protocol.word());
        b.executeAsync();
        assertThat(ran).containsExactly(new KeyValue(Key.of("p"), utf8("v"), WriteKind.PUT));
    }

    private static void refuses(Runnable r, String message) {
        assertThatThrownBy(r::run).isInstanceOf(InvalidRequestException.class).hasMessageContaining(message);
    }
}
