package io.fastccs.core.wire;

import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TEndpointTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * The compact protocol, reading one frame, hardened against hostile input.
 *
 * <ul>
 *   <li>Bounds nesting by the transport's {@code TConfiguration} recursion limit. Generated code skips unknown
 *       fields with {@code TProtocolUtil.skip}, whose default depth is unbounded, so a frame of nested struct
 *       headers would otherwise overflow the stack.</li>
 *   <li>Counts an empty struct as one byte (its stop byte) rather than Thrift's zero, so a list of structs
 *       cannot claim more elements than the frame has bytes left.</li>
 *   <li>Remembers the field id of the frame's body union, so an empty union can be told apart as an unknown
 *       message type (an id this version does not know) or a known id sent with the wrong wire type.</li>
 * </ul>
 */
final class BoundedCompactProtocol extends TCompactProtocol {
    /** The depth of a Frame's body union: Frame is at depth 1, its Body at 2. */
    private static final int BODY_DEPTH = 2;

    private final int maxDepth;
    private int depth;
    private short topLevelFieldId;
    private boolean awaitingBodyField;
    private short bodyFieldId;

    BoundedCompactProtocol(TEndpointTransport in, WireLimits limits) {
        super(in, limits.maxFrameBytes(), limits.maxContainerLength());
        this.maxDepth = in.getConfiguration().getRecursionLimit();
    }

    /** The id of the first field inside the frame's body, or 0 if the body had none. */
    short bodyFieldId() {
        return bodyFieldId;
    }

    @Override
    public TStruct readStructBegin() throws TException {
        enter();
        awaitingBodyField = depth == BODY_DEPTH && topLevelFieldId == 1;
        return super.readStructBegin();
    }

    @Override
    public void readStructEnd() throws TException {
        super.readStructEnd();
        depth--;
    }

    @Override
    public TField readFieldBegin() throws TException {
        TField field = super.readFieldBegin();
        if (field.type != TType.STOP) {
            if (depth == 1) {
                topLevelFieldId = field.id;
            } else if (depth == BODY_DEPTH && awaitingBodyField) {
                bodyFieldId = field.id;
                awaitingBodyField = false;
            }
        }
        return field;
    }

    /** Also counts sets: the compact protocol reads a set header through this method. */
    @Override
    public TList readListBegin() throws TException {
        enter();
        return super.readListBegin();
    }

    @Override
    public void readListEnd() throws TException {
        super.readListEnd();
        depth--;
    }

    @Override
    public void readSetEnd() throws TException {
        super.readSetEnd();
        depth--;
    }

    @Override
    public TMap readMapBegin() throws TException {
        enter();
        return super.readMapBegin();
    }

    @Override
    public void readMapEnd() throws TException {
        super.readMapEnd();
        depth--;
    }

    @Override
    public int getMinSerializedSize(byte type) throws TTransportException {
        return type == TType.STRUCT ? 1 : super.getMinSerializedSize(type);
    }

    private void enter() throws TProtocolException {
        if (++depth > maxDepth)
            throw new TProtocolException(TProtocolException.DEPTH_LIMIT,
                    "structs and containers nest deeper than " + maxDepth);
    }
}
