package io.fastccs.it;

import io.fastccs.protocol.messages.Hello;
import io.fastccs.protocol.messages.HelloReply;
import io.fastccs.protocol.messages.Message;
import io.fastccs.protocol.wire.MalformedFrameException;
import io.fastccs.protocol.wire.WireCodec;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * A blocking FastCCS connection over a plain socket, for requests no well-behaved client sends: each frame is a
 * 4-byte big-endian length and the {@link WireCodec} bytes.
 */
final class RawConnection implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private HelloReply hello;

    private RawConnection(InetSocketAddress address, Duration timeout) throws IOException {
        socket = new Socket();
        socket.connect(address, (int) timeout.toMillis());
        socket.setSoTimeout((int) timeout.toMillis());
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    /** Connects and shakes hands as a client ({@code Hello.client(null, null)}, answered by a {@link HelloReply}). */
    static RawConnection open(InetSocketAddress address, Duration timeout) throws IOException {
        RawConnection c = new RawConnection(address, timeout);
        try {
            c.send(Hello.client(null, null));
            Message reply = c.receive();
            if (!(reply instanceof HelloReply h)) throw new IOException(address + " answered the Hello with " + reply);
            c.hello = h;
            return c;
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** The node's answer to the handshake: its partition index and the partition count. */
    HelloReply hello() {
        return hello;
    }

    void send(Message m) throws IOException {
        sendFrame(WireCodec.encode(m));
    }

    /** Sends {@code frame} with a correct length prefix, whatever its content. */
    void sendFrame(byte[] frame) throws IOException {
        out.writeInt(frame.length);
        out.write(frame);
        out.flush();
    }

    /** Writes bytes as they are, length prefix included (or not). */
    void sendBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    Message receive() throws IOException {
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

    /** Sends {@code request} and returns the next frame received. */
    Message exchange(Message request) throws IOException {
        send(request);
        return receive();
    }

    /**
     * Whether the node closed the connection within the socket timeout; frames it sends before closing (an error
     * reply) are skipped.
     */
    boolean closedByNode() throws IOException {
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
