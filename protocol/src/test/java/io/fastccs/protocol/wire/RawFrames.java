package io.fastccs.protocol.wire;

import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;

import java.util.Arrays;

/** Builds frames field by field with the compact protocol, to make the malformed ones the codec never writes. */
final class RawFrames {
    private RawFrames() {
    }

    private static final TStruct ANY = new TStruct("");

    @FunctionalInterface
    interface Writer {
        void write(TProtocol p) throws TException;
    }

    static byte[] bytes(Writer w) throws TException {
        TMemoryBuffer buf = new TMemoryBuffer(64);
        w.write(new TCompactProtocol(buf));
        return Arrays.copyOf(buf.getArray(), buf.length());
    }

    /** {@code Frame{1: Body{bodyFieldId: value}}}, the body field of wire type {@code type}. */
    static byte[] frameWithBody(int bodyFieldId, byte type, Writer value) throws TException {
        return bytes(p -> {
            p.writeStructBegin(ANY);
            p.writeFieldBegin(new TField("body", TType.STRUCT, (short) 1));
            p.writeStructBegin(ANY);
            p.writeFieldBegin(new TField("", type, (short) bodyFieldId));
            value.write(p);
            p.writeFieldEnd();
            p.writeFieldStop();
            p.writeStructEnd();
            p.writeFieldEnd();
            p.writeFieldStop();
            p.writeStructEnd();
        });
    }

    /** {@code Frame{1: Body{bodyFieldId: struct{fields}}}}. */
    static byte[] frameWithMessage(int bodyFieldId, Writer fields) throws TException {
        return frameWithBody(bodyFieldId, TType.STRUCT, p -> {
            p.writeStructBegin(ANY);
            fields.write(p);
            p.writeFieldStop();
            p.writeStructEnd();
        });
    }

    static void i64(TProtocol p, int id, long v) throws TException {
        p.writeFieldBegin(new TField("", TType.I64, (short) id));
        p.writeI64(v);
        p.writeFieldEnd();
    }

    static void i32(TProtocol p, int id, int v) throws TException {
        p.writeFieldBegin(new TField("", TType.I32, (short) id));
        p.writeI32(v);
        p.writeFieldEnd();
    }

    static void i64List(TProtocol p, int id, long... values) throws TException {
        p.writeFieldBegin(new TField("", TType.LIST, (short) id));
        p.writeListBegin(new TList(TType.I64, values.length));
        for (long v : values) p.writeI64(v);
        p.writeListEnd();
        p.writeFieldEnd();
    }

    static void i32List(TProtocol p, int id, int... values) throws TException {
        p.writeFieldBegin(new TField("", TType.LIST, (short) id));
        p.writeListBegin(new TList(TType.I32, values.length));
        for (int v : values) p.writeI32(v);
        p.writeListEnd();
        p.writeFieldEnd();
    }

    static void binaryList(TProtocol p, int id, int count) throws TException {
        p.writeFieldBegin(new TField("", TType.LIST, (short) id));
        p.writeListBegin(new TList(TType.STRING, count));
        for (int i = 0; i < count; i++) p.writeBinary(java.nio.ByteBuffer.wrap(new byte[]{(byte) i}));
        p.writeListEnd();
        p.writeFieldEnd();
    }

    static void bool(TProtocol p, int id, boolean v) throws TException {
        p.writeFieldBegin(new TField("", TType.BOOL, (short) id));
        p.writeBool(v);
        p.writeFieldEnd();
    }

    static void binary(TProtocol p, int id, byte... v) throws TException {
        p.writeFieldBegin(new TField("", TType.STRING, (short) id));
        p.writeBinary(java.nio.ByteBuffer.wrap(v));
        p.writeFieldEnd();
    }

    /** A struct field holding {@code fields}. */
    static void struct(TProtocol p, int id, Writer fields) throws TException {
        p.writeFieldBegin(new TField("", TType.STRUCT, (short) id));
        p.writeStructBegin(ANY);
        fields.write(p);
        p.writeFieldStop();
        p.writeStructEnd();
        p.writeFieldEnd();
    }

    /** A list field of {@code count} structs, each holding {@code fields}. */
    static void structList(TProtocol p, int id, int count, Writer fields) throws TException {
        p.writeFieldBegin(new TField("", TType.LIST, (short) id));
        p.writeListBegin(new TList(TType.STRUCT, count));
        for (int i = 0; i < count; i++) {
            p.writeStructBegin(ANY);
            fields.write(p);
            p.writeFieldStop();
            p.writeStructEnd();
        }
        p.writeListEnd();
        p.writeFieldEnd();
    }

    /** A TxnId struct field. */
    static void txnId(TProtocol p, int id, boolean withClient) throws TException {
        p.writeFieldBegin(new TField("", TType.STRUCT, (short) id));
        p.writeStructBegin(ANY);
        if (withClient) i64(p, 1, 7);
        i64(p, 2, 8);
        p.writeFieldStop();
        p.writeStructEnd();
        p.writeFieldEnd();
    }
}
