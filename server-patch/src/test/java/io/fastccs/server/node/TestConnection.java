package io.fastccs.server.node;

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

/** A blocking FastCCS connection for tests: raw frames over a plain socket. */
final class TestConnection implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    TestConnection(InetSocketAddress address) throws IOException {
        socket = new Socket(address.getAddress(), address.getPort());
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    void send(Message m) throws IOException {
        sendRaw(WireCodec.encode(m));
    }

    void sendRaw(byte[] frame) throws IOException {
        out.writeInt(frame.length);
        out.write(frame);
        out.flush();
    }

    /** Writes bytes as they are, framing included. */
    void sendBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    Message receive() throws IOException {
        int length = in.readInt();
        byte[] frame = new byte[length];
        in.readFully(frame);
        try {
            return WireCodec.decode(frame);
        } catch (MalformedFrameException e) {
            throw new IOException("server sent a malformed frame", e);
        }
    }

    /** True if the server closed the connection (within the socket timeout). */
    boolean closedByServer() throws IOException {
        try {
            while (true) receive();
        } catch (EOFException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // connection reset
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
