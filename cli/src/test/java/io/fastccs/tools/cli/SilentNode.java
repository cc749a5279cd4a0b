package io.fastccs.tools.cli;

import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.RingMember;
import io.fastccs.core.messages.RingReply;
import io.fastccs.core.messages.RingRequest;
import io.fastccs.core.wire.WireCodec;
import io.fastccs.server.node.InProcessCluster;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A fake one-partition FastCCS node on a loopback port that never answers a transaction: with {@code handshake}, it
 * does the handshake and serves the ring (so the client connects) and then stays silent, which makes real reads and
 * writes time out; without, it accepts connections and never says a word, so connecting times out.
 */
final class SilentNode implements AutoCloseable {
    private final ServerSocket server;
    private final boolean handshake;
    private final List<Socket> connections = new CopyOnWriteArrayList<>();
    private final List<Message> received = new CopyOnWriteArrayList<>();

    SilentNode(boolean handshake) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.handshake = handshake;
        Thread acceptor = new Thread(this::accept, "silent-node-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String hostPort() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** Every message the node received (handshakes, ring requests and the requests it ignored). */
    List<Message> received() {
        return received;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                connections.add(s);
                if (handshake) {
                    Thread t = new Thread(() -> serve(s), "silent-node-conn");
                    t.setDaemon(true);
                    t.start();
                }
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s; DataInputStream in = new DataInputStream(s.getInputStream());
             DataOutputStream out = new DataOutputStream(s.getOutputStream())) {
            while (true) {
                byte[] body = new byte[in.readInt()];
                in.readFully(body);
                Message m = WireCodec.decode(body);
                received.add(m);
                Message reply = null;
                if (m instanceof Hello) reply = new HelloReply(Hello.PROTOCOL_VERSION, 0, 1);
                else if (m instanceof RingRequest r) reply = new RingReply(r.requestId(),
                        List.of(new RingMember(0, "127.0.0.1", server.getLocalPort(), InProcessCluster.evenToken(0, 1), true)));
                if (reply != null) {
                    byte[] bytes = WireCodec.encode(reply);
                    out.writeInt(bytes.length);
                    out.write(bytes);
                    out.flush();
                }
            }
        } catch (Exception e) {
            // the client went away, or the node was closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : connections) s.close();
    }
}
