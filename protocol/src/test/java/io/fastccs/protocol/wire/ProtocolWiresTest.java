package io.fastccs.protocol.wire;

import io.fastccs.core.wire.ConnectionWire;
import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.core.wire.ProtocolWire;
import io.fastccs.core.wire.WireCodec;
import io.fastccs.core.wire.WireLimits;
import io.fastccs.core.wire.WireMember;
import io.fastccs.core.wire.WireRegistry;
import io.fastccs.baselines.eiger.EigerMessages;
import io.fastccs.baselines.eiger.EigerWire;
import io.fastccs.baselines.eventual.EventualWire;
import io.fastccs.core.messages.Message;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.wire.MalformedFrameException.Kind;
import io.fastccs.baselines.wren.WrenMessages;
import io.fastccs.baselines.wren.WrenWire;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each protocol's wire is its own: its block of member ids, found on the class path, and nothing of another's. */
class ProtocolWiresTest {

    /** The pinned blocks: a renumbering would make nodes of two builds misread each other. */
    @Test
    void everyWireKeepsItsMemberIdsAndIsFoundOnTheClassPath() {
        Map<ProtocolWire, Set<Integer>> expected = new LinkedHashMap<>();
        expected.put(new ConnectionWire(), ids(IntStream.of(8, 20, 21, 22, 23)));
        expected.put(new FastCcsWire(), ids(IntStream.concat(IntStream.concat(IntStream.rangeClosed(1, 7),
                IntStream.rangeClosed(9, 19)), IntStream.rangeClosed(24, 27))));
        expected.put(new EventualWire(), ids(IntStream.rangeClosed(30, 33)));
        expected.put(new EigerWire(), ids(IntStream.rangeClosed(40, 54)));
        expected.put(new WrenWire(), ids(IntStream.rangeClosed(60, 72)));
        WireRegistry installed = WireRegistry.installed();
        for (var e : expected.entrySet()) {
            Set<Integer> actual = new TreeSet<>();
            for (WireMember<?, ?> m : e.getKey().members()) {
                actual.add((int) m.id());
                assertThat(installed.member(m.id()).type()).as("member %d", m.id()).isEqualTo(m.type());
            }
            assertThat(actual).as(e.getKey().getClass().getSimpleName()).isEqualTo(e.getValue());
        }
    }

    private static Set<Integer> ids(IntStream ids) {
        Set<Integer> out = new TreeSet<>();
        ids.forEach(out::add);
        return out;
    }

    @Test
    void withoutAProtocolsWireItsMessagesCannotBeSentAndAreUnknownOnArrival() throws Exception {
        WireRegistry withoutEiger = WireRegistry.of(List.of(new ConnectionWire(), new FastCcsWire(), new WrenWire(),
                new EventualWire()));
        Message read = new EigerMessages.Read1(40, 5, List.of(Key.of("a")));
        assertThatThrownBy(() -> WireCodec.encode(read, withoutEiger)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(EigerMessages.Read1.class.getName())
                .hasMessageContaining("META-INF/services/io.fastccs.core.wire.ProtocolWire")
                .hasMessageContaining("found: ConnectionWire, FastCcsWire, WrenWire, EventualWire");
        byte[] frame = WireCodec.encode(read);
        try {
            WireCodec.decode(frame, 0, frame.length, WireLimits.DEFAULT, withoutEiger);
            throw new AssertionError("decoded an Eiger frame without Eiger's wire");
        } catch (MalformedFrameException e) {
            assertThat(e.kind()).isEqualTo(Kind.UNKNOWN_MESSAGE);
            assertThat(e).hasMessageContaining("body field 40");
        }
        Message lst = new WrenMessages.Lst(5);
        byte[] wren = WireCodec.encode(lst, withoutEiger);
        assertThat(wren).isEqualTo(WireCodec.encode(lst));
        assertThat(WireCodec.decode(wren, 0, wren.length, WireLimits.DEFAULT, withoutEiger)).isEqualTo(lst);
    }
}
