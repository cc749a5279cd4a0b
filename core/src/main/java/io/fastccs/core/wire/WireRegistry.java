package io.fastccs.core.wire;

import io.fastccs.core.messages.Message;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.StringJoiner;

/**
 * The members {@link WireCodec} knows, by message type and by member id: the connection's own and those of every
 * {@link ProtocolWire} on the class path. Built once; both lookups are a table access, since the codec is on every
 * message's path.
 */
public final class WireRegistry {
    private static final String SERVICE_FILE = "META-INF/services/" + ProtocolWire.class.getName();

    private final Map<Class<?>, WireMember<?, ?>> byType;
    /** Indexed by member id; ids are small (a block of a few dozen per protocol). */
    private final WireMember<?, ?>[] byId;
    private final String wires;

    private WireRegistry(Map<Class<?>, WireMember<?, ?>> byType, WireMember<?, ?>[] byId, String wires) {
        this.byType = byType;
        this.byId = byId;
        this.wires = wires;
    }

    /** The connection's members and those of every wire registered on the class path. */
    public static WireRegistry installed() {
        List<ProtocolWire> wires = new ArrayList<>();
        wires.add(new ConnectionWire());
        for (ProtocolWire w : ServiceLoader.load(ProtocolWire.class, ProtocolWire.class.getClassLoader())) wires.add(w);
        return of(wires);
    }

    /**
     * @throws IllegalStateException if two members share an id or a message type
     */
    public static WireRegistry of(List<? extends ProtocolWire> wires) {
        Map<Class<?>, WireMember<?, ?>> byType = new HashMap<>();
        Map<Short, WireMember<?, ?>> byId = new HashMap<>();
        Map<WireMember<?, ?>, ProtocolWire> owner = new HashMap<>();
        StringJoiner names = new StringJoiner(", ");
        int maxId = 0;
        for (ProtocolWire wire : wires) {
            names.add(wire.getClass().getSimpleName());
            for (WireMember<?, ?> m : wire.members()) {
                owner.put(m, wire);
                WireMember<?, ?> sameType = byType.put(m.type(), m);
                if (sameType != null) throw clash("message type " + m.type().getName(), sameType, m, owner);
                WireMember<?, ?> sameId = byId.put(m.id(), m);
                if (sameId != null) throw clash("member id " + m.id(), sameId, m, owner);
                maxId = Math.max(maxId, m.id());
            }
        }
        WireMember<?, ?>[] table = new WireMember<?, ?>[maxId + 1];
        for (WireMember<?, ?> m : byId.values()) table[m.id()] = m;
        return new WireRegistry(Map.copyOf(byType), table, names.toString());
    }

    private static IllegalStateException clash(String what, WireMember<?, ?> first, WireMember<?, ?> second,
                                               Map<WireMember<?, ?>, ProtocolWire> owner) {
        return new IllegalStateException("two wire members claim " + what + ": " + first + " of "
                + owner.get(first).getClass().getName() + " and " + second + " of " + owner.get(second).getClass().getName());
    }

    /**
     * @throws IllegalArgumentException if no wire maps {@code m}'s type
     */
    WireMember<?, ?> member(Message m) {
        WireMember<?, ?> member = byType.get(m.getClass());
        if (member == null)
            throw new IllegalArgumentException("no wire form for " + m + ": no ProtocolWire on the class path maps "
                    + m.getClass().getName() + " (a protocol lists its wire in " + SERVICE_FILE + "; found: " + wires + ")");
        return member;
    }

    /** The member of {@code id}, or null if no wire owns it. */
    public WireMember<?, ?> member(short id) {
        return id >= 0 && id < byId.length ? byId[id] : null;
    }
}
