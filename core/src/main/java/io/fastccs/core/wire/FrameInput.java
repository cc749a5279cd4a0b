package io.fastccs.core.wire;

import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TEndpointTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * A read-only Thrift transport over one frame in a byte array.
 *
 * <p>Unlike {@code TMemoryInputTransport}, which checks claimed lengths against the whole message size even
 * after most of it was consumed, this checks every claimed length against the bytes actually left, so a frame
 * can never make the protocol allocate more than the frame's own size. It also exposes its array so
 * {@code TCompactProtocol} reads varints and binaries in place.
 */
final class FrameInput extends TEndpointTransport {
    private final byte[] buf;
    private final int end;
    private int pos;

    FrameInput(TConfiguration config, byte[] buf, int off, int len) throws TTransportException {
        super(config);
        this.buf = buf;
        this.pos = off;
        this.end = off + len;
        updateKnownMessageSize(len);
    }

    int remaining() {
        return end - pos;
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void open() {
    }

    @Override
    public void close() {
    }

    @Override
    public int read(byte[] dst, int off, int len) {
        int n = Math.min(len, end - pos);
        System.arraycopy(buf, pos, dst, off, n);
        pos += n;
        return n;
    }

    /** Overridden for the error message: TTransport's blames a remote side that closed. */
    @Override
    public int readAll(byte[] dst, int off, int len) throws TTransportException {
        checkReadBytesAvailable(len);
        return read(dst, off, len);
    }

    @Override
    public void write(byte[] src, int off, int len) throws TTransportException {
        throw new TTransportException(TTransportException.NOT_OPEN, "a frame being decoded is read-only");
    }

    @Override
    public byte[] getBuffer() {
        return buf;
    }

    @Override
    public int getBufferPosition() {
        return pos;
    }

    @Override
    public int getBytesRemainingInBuffer() {
        return end - pos;
    }

    @Override
    public void consumeBuffer(int len) {
        pos += len;
    }

    @Override
    public void checkReadBytesAvailable(long numBytes) throws TTransportException {
        // TCompactProtocol.readBinary passes a decoded length straight here, negative or not.
        if (numBytes < 0)
            throw new TTransportException(TTransportException.CORRUPTED_DATA, "negative length " + numBytes);
        if (numBytes > end - pos)
            throw new TTransportException(TTransportException.END_OF_FILE,
                    "truncated frame: needs " + numBytes + " more bytes, has " + (end - pos));
    }
}
