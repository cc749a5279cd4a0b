package io.fastccs.core.wire;

import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

import java.util.Arrays;

/** A write-only Thrift transport into a growable byte array that is reused from one encode to the next. */
final class FrameOutput extends TTransport {
    private byte[] buf;
    private int size;

    FrameOutput(int initialCapacity) {
        buf = new byte[initialCapacity];
    }

    /**
     * Forgets what was written. Keeps the array unless it grew past {@code maxRetained}, so one huge frame
     * does not pin memory for the life of the thread.
     */
    void reset(int maxRetained) {
        size = 0;
        if (buf.length > maxRetained) buf = new byte[maxRetained];
    }

    int size() {
        return size;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    @Override
    public void write(byte[] src, int off, int len) {
        if (len > buf.length - size) {
            // Grow by half again, the way ArrayList does, but at least to what this write needs.
            long wanted = Math.max((long) size + len, buf.length + (buf.length >> 1));
            if ((long) size + len > Integer.MAX_VALUE - 8) throw new OutOfMemoryError("frame larger than 2 GiB");
            buf = Arrays.copyOf(buf, (int) Math.min(wanted, Integer.MAX_VALUE - 8));
        }
        System.arraycopy(src, off, buf, size, len);
        size += len;
    }

    @Override
    public int read(byte[] dst, int off, int len) throws TTransportException {
        throw new TTransportException(TTransportException.NOT_OPEN, "an encoder's buffer is write-only");
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
    public TConfiguration getConfiguration() {
        return TConfiguration.DEFAULT;
    }

    /** Message sizes bound reads; nothing is read here. */
    @Override
    public void updateKnownMessageSize(long size) {
    }

    @Override
    public void checkReadBytesAvailable(long numBytes) {
    }
}
