package io.fastccs.testkit;

import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.messages.Message;
import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.core.wire.WireCodec;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * A blocking FastCCS connection over a plain socket, for what no well-behaved client does: a write sent to some of
 * its participants only, outcome queries, hostile frames. Each frame is a 4-byte big-endian length and the
 * {@link WireCodec} bytes.
 */
public final class RawClient implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private HelloReply hello;

    private RawClient(InetSocketAddress address, Duration timeout) throws IOException {
        socket = new Socket();
        try {
            socket.connect(address, (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            socket.setTcpNoDelay(true);
            in = new DataInputStream(socket.getInputStream());
            out = new DataOutputStream(socket.getOutputStream());
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    private RawClient(Socket connected) throws IOException {
        socket = connected;
        in = new DataInputStream(connected.getInputStream());
        out = new DataOutputStream(new BufferedOutputStream(connected.getOutputStream()));
    }

    /**
     * Frames over a socket the caller connected (a TLS socket, one bound to a chosen source address), without a
     * handshake; closing the raw client closes the socket.
     */
    public static RawClient over(Socket connected) throws IOException {
        return new RawClient(connected);
    }

    /** Connects and shakes hands as a client. */
    public static RawClient open(InetSocketAddress address, Duration timeout) throws IOException {
        RawClient c = new RawClient(address, timeout);
        try {
            Message reply = c.exchange(Hello.client(null, null));
            if (!(reply instanceof HelloReply h)) throw new IOException(address + " answered the Hello with " + reply);
            c.hello = h;
            return c;
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** Connects and shakes hands as a client of {@code partition} (its group's leader serves it). */
    public static RawClient openFor(InetSocketAddress address, int partition, Duration timeout) throws IOException {
        RawClient c = new RawClient(address, timeout);
        try {
            Message reply = c.exchange(Hello.client(null, null).to(partition));
            if (!(reply instanceof HelloReply h)) throw new IOException(address + " refused partition " + partition + ": " + reply);
            c.hello = h;
            return c;
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** Connects without a handshake. */
    public static RawClient openBare(InetSocketAddress address, Duration timeout) throws IOException {
        return new RawClient(address, timeout);
    }

    public HelloReply hello() {
        return hello;
    }

    public void setTimeout(Duration timeout) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
    }

    public void send(Message m) throws IOException {
        sendFrame(WireCodec.encode(m));
    }

    /** Sends {@code frame} with a correct length prefix, whatever its content. */
    public void sendFrame(byte[] frame) throws IOException {
        out.writeInt(frame.length);
        out.write(frame);
        out.flush();
    }

    /** {@code messages} framed one after the other, for {@link #sendBytes} to send in a single write. */
    public static byte[] frames(Message... messages) {
        java.io.ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream framed = new DataOutputStream(bytes);
        try {
            for (Message m : messages) {
                byte[] frame = WireCodec.encode(m);
                framed.writeInt(frame.length);
                framed.write(frame);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    /** Writes bytes as they are, length prefix included (or not). */
    public void sendBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Half-closes: the node sees the end of the stream. */
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    public Message receive() throws IOException {
        int length = in.readInt();
        if (length < 0 || length > (16 << 20)) throw new IOException("the node sent a frame of " + length + " bytes");
        byte[] frame = new byte[length];
        in.readFully(frame);
        try {
            return WireCodec.decode(frame);
        } catch (MalformedFrameException e) {
            throw new IOException("the node sent a malformed frame", e);
        }
    }

    public Message exchange(Message request) throws IOException {
        send(request);
        return receive();
    }

    /**
     * Whether the node closed the connection within the socket timeout; frames it sends before closing (an error
     * reply) are skipped.
     */
    public boolean closedByNode() throws IOException {
        try {
            while (true) receive();
        } catch (EOFException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
