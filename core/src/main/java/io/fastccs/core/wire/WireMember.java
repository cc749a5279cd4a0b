package io.fastccs.core.wire;

import io.fastccs.core.messages.Message;
import org.apache.thrift.TBase;
import org.apache.thrift.TFieldIdEnum;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TType;

import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One message type on the wire: its member id and name in the frame's body, and its mapping to the Thrift struct that
 * carries it ({@code toWire}, which checks what a receiver would refuse) and back ({@code fromWire}, which checks every
 * field and limit Thrift itself does not).
 *
 * @param <M> the message type
 * @param <S> the Thrift struct that carries it
 */
public final class WireMember<M extends Message, S extends TBase<S, ?>> {
    /**
     * A struct read from a frame, to its message.
     *
     * @param <S> the struct
     * @param <M> the message
     */
    @FunctionalInterface
    public interface Decoder<S, M> {
        M fromWire(S wire, WireLimits limits) throws MalformedFrameException;
    }

    private final short id;
    private final String name;
    private final Class<M> type;
    private final Supplier<S> newStruct;
    private final Function<? super M, S> toWire;
    private final Decoder<S, ? extends M> fromWire;
    /** The body's field header, made once. */
    final TField field;

    private WireMember(short id, String name, Class<M> type, Supplier<S> newStruct, Function<? super M, S> toWire,
                       Decoder<S, ? extends M> fromWire) {
        if (id < 1) throw new IllegalArgumentException("member id of " + type.getName() + " must be positive, got " + id);
        this.id = id;
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.newStruct = Objects.requireNonNull(newStruct, "newStruct");
        this.toWire = Objects.requireNonNull(toWire, "toWire");
        this.fromWire = Objects.requireNonNull(fromWire, "fromWire");
        this.field = new TField(name, TType.STRUCT, id);
    }

    /**
     * The member {@code member} of a protocol's body union in its schema (its id and name), carrying {@code type}.
     *
     * @param newStruct an empty struct, to read a frame into
     */
    public static <M extends Message, S extends TBase<S, ?>> WireMember<M, S> of(
            TFieldIdEnum member, Class<M> type, Supplier<S> newStruct, Function<? super M, S> toWire,
            Decoder<S, ? extends M> fromWire) {
        return new WireMember<>(member.getThriftFieldId(), member.getFieldName(), type, newStruct, toWire, fromWire);
    }

    public short id() {
        return id;
    }

    /** The member's name in the schema's union, for error messages. */
    public String name() {
        return name;
    }

    public Class<M> type() {
        return type;
    }

    /** {@code m}, which is of {@link #type()}, as its struct. */
    @SuppressWarnings("unchecked")
    S toWire(Message m) {
        return toWire.apply((M) m); // the codec looks members up by the message's exact class
    }

    S newStruct() {
        return newStruct.get();
    }

    /** {@code wire}, which {@link #newStruct()} made and a frame filled, as its message. */
    @SuppressWarnings("unchecked")
    M fromWire(TBase<?, ?> wire, WireLimits limits) throws MalformedFrameException {
        return fromWire.fromWire((S) wire, limits);
    }

    @Override
    public String toString() {
        return id + " (" + name + "): " + type.getName();
    }
}
