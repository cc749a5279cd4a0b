package io.fastccs.core.spi;

import io.fastccs.core.primitives.Protocol;

import java.util.EnumMap;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The factory of each protocol, for hosts that choose one by its word. Each protocol's module registers its factory
 * in {@code META-INF/services} (as {@code replication/} registers its consensus implementation), so this registry
 * names none of them: a protocol on the classpath is found, one missing is named in the error.
 */
public final class Protocols {
    private static final Map<Protocol, ProtocolFactory> FACTORIES = load();

    private Protocols() {
    }

    /**
     * @throws IllegalStateException if no module on the classpath implements {@code protocol}
     */
    public static ProtocolFactory factory(Protocol protocol) {
        ProtocolFactory f = FACTORIES.get(protocol);
        if (f == null)
            throw new IllegalStateException("no implementation of the protocol " + protocol.word() + " on the classpath "
                    + "(META-INF/services/" + ProtocolFactory.class.getName() + "); found " + FACTORIES.keySet());
        return f;
    }

    private static Map<Protocol, ProtocolFactory> load() {
        Map<Protocol, ProtocolFactory> found = new EnumMap<>(Protocol.class);
        for (ProtocolFactory f : ServiceLoader.load(ProtocolFactory.class, Protocols.class.getClassLoader())) {
            ProtocolFactory before = found.put(f.protocol(), f);
            if (before != null)
                throw new IllegalStateException("two implementations of " + f.protocol().word() + ": "
                        + before.getClass().getName() + " and " + f.getClass().getName());
        }
        return found;
    }
}
