package io.fastccs.client.internal;

import io.fastccs.client.InvalidRequestException;
import io.fastccs.core.primitives.Key;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InputValidatorTest {
    private final InputValidator validator = new InputValidator(3, 8, 16);

    @Test
    void acceptsValidInputAndKeepsOrder() {
        assertThat(validator.readKeys(List.of("b", "a", "c"))).containsExactly(Key.of("b"), Key.of("a"), Key.of("c"));
        Map<String, String> writes = new LinkedHashMap<>();
        writes.put("k2", "v2");
        writes.put("k1", "v1");
        assertThat(validator.writes(writes).keySet()).containsExactly(Key.of("k2"), Key.of("k1"));
    }

    @Test
    void copiesCallerBytes() {
        byte[] key = {1, 2};
        List<Key> keys = validator.readKeyBytes(List.of(key));
        key[0] = 9;
        assertThat(keys.get(0).unsafeBytes()).containsExactly(1, 2);
    }

    @Test
    void refusesBadReads() {
        refuses(() -> validator.readKeys(null), "null");
        refuses(() -> validator.readKeys(List.of()), "at least one key");
        refuses(() -> validator.readKeys(List.of("a", "b", "c", "d")), "maximum of 3");
        refuses(() -> validator.readKeys(Arrays.asList("a", null)), "null");
        refuses(() -> validator.readKeys(List.of("")), "empty");
        refuses(() -> validator.readKeys(List.of("123456789")), "longer than the maximum of 8");
        refuses(() -> validator.readKeys(List.of("a", "a")), "twice");
        refuses(() -> validator.readKeyBytes(List.of(new byte[]{1}, new byte[]{1})), "twice");
        refuses(() -> validator.readKeyBytes(List.of(new byte[0])), "empty");
    }

    @Test
    void refusesBadWrites() {
        refuses(() -> validator.writes(null), "null");
        refuses(() -> validator.writes(Map.of()), "at least one key");
        refuses(() -> validator.writes(Map.of("a", "1", "b", "2", "c", "3", "d", "4")), "maximum of 3");
        refuses(() -> validator.writes(Collections.singletonMap(null, "v")), "null");
        refuses(() -> validator.writes(Collections.singletonMap("k", null)), "null");
        refuses(() -> validator.writes(Map.of("", "v")), "empty");
        refuses(() -> validator.writes(Map.of("k", "")), "empty");
        refuses(() -> validator.writes(Map.of("123456789", "v")), "longer than the maximum of 8");
        refuses(() -> validator.writes(Map.of("k", "12345678901234567")), "more than the maximum of 16");
        Map<byte[], byte[]> twice = new HashMap<>();
        twice.put(new byte[]{7}, new byte[]{1});
        twice.put(new byte[]{7}, new byte[]{2});
        refuses(() -> validator.writeBytes(twice), "twice");
    }

    @Test
    void acceptsValuesAtTheLimit() {
        assertThat(validator.writes(Map.of("12345678", "1234567890123456"))).hasSize(1);
        List<String> three = new ArrayList<>(List.of("a", "b", "c"));
        assertThat(validator.readKeys(three)).hasSize(3);
    }

    private static void refuses(Runnable r, String message) {
        assertThatThrownBy(r::run).isInstanceOf(InvalidRequestException.class).hasMessageContaining(message);
    }
}
