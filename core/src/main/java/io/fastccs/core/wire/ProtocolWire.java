package io.fastccs.core.wire;

import java.util.List;

/**
 * One protocol's part of the wire: the messages it owns, each with its member id in the frame's body and its mapping
 * to and from its Thrift struct (its {@link WireMember}s). {@link WireCodec} writes and reads the frame around them.
 *
 * <p>The codec finds every implementation on the class path with a {@link java.util.ServiceLoader}: a protocol lists
 * its wire in {@code META-INF/services/io.fastccs.core.wire.ProtocolWire}. It asks for the members once and builds
 * its lookup tables from them, so a message costs one table lookup each way and no reflection. An implementation
 * needs a public no-argument constructor.
 *
 * <p>Each protocol takes a block of member ids of its own (the table is in this package's documentation and in
 * {@code core.thrift}); two wires claiming one id or one message type fail the codec's loading, naming both.
 */
public interface ProtocolWire {
    /** This protocol's members, one per message type it owns. */
    List<WireMember<?, ?>> members();
}
