package io.fastccs.tools.cluster;

import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.messages.Message;
import io.fastccs.core.wire.WireCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/** The handshake against small fake servers on 127.0.0.1. */
class FastCcsHandshakeTest {
    private static final Duration TIMEOUT = Duration.ofMillis(500);
    private ServerSocket server;

    @AfterEach
    void closeServer() throws IOException {
        if (server != null)
            server.close();
    }

    @Test
    void aNodeThatAnswersHelloIsUp() throws IOException {
        AtomicReference<Message> received = new AtomicReference<>();
        int port = serve(hello -> {
            received.set(hello);
            return WireCodec.encode(new HelloReply(Hello.PROTOCOL_VERSION, 2, 3));
        });

        FastCcsHandshake.Result result = FastCcsHandshake.probe("127.0.0.1", port, TIMEOUT);

        assertThat(result.ok()).as(result.problem()).isTrue();
        assertThat(result.reply()).isEqualTo(new HelloReply(Hello.PROTOCOL_VERSION, 2, 3));
        assertThat(received.get()).isEqualTo(Hello.client(null, null));
    }

    @Test
    void aNodeThatRefusesAnAnonymousPlainClientForSecurityIsUp() throws IOException {
        int port = serve(hello -> WireCodec.encode(ErrorReply.of(0, ErrorCode.UNAUTHORIZED, "client encryption is on: connect with TLS")));

        FastCcsHandshake.Result result = FastCcsHandshake.probe("127.0.0.1", port, TIMEOUT);

        assertThat(result.ok()).as(result.problem()).isTrue();
        assertThat(result.reply()).isNull();
    }

    @Test
    void aRefusalIsReportedWithItsMessage() throws IOException {
        int port = serve(hello -> WireCodec.encode(ErrorReply.of(0, ErrorCode.OVERLOADED, "not ready")));

        FastCcsHandshake.Result result = FastCcsHandshake.probe("127.0.0.1", port, TIMEOUT);

        assertThat(result.ok()).isFalse();
        assertThat(result.problem()).contains("refused the handshake", "not ready");
    }

    @Test
    void aServerThatHangsUpIsDown() throws IOException {
        int port = serve(hello -> null);

        assertThat(FastCcsHandshake.probe("127.0.0.1", port, TIMEOUT).problem()).contains("closed the connection");
    }

    @Test
    void garbageIsAMalformedReply() throws IOException {
        int port = serve(hello -> new byte[] {1, 2, 3});

        assertThat(FastCcsHandshake.probe("127.0.0.1", port, TIMEOUT).problem()).contains("malformed");
    }

    @Test
    void aSilentServerTimesOutInsteadOfHanging() throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()); // accepts (backlog) but never answers
        long started = System.nanoTime();

        FastCcsHandshake.Result result = FastCcsHandshake.probe("127.0.0.1", server.getLocalPort(), TIMEOUT);

        assertThat(result.problem()).contains("no answer within 500 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void nothingListeningIsConnectionRefused() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }

        assertThat(FastCcsHandshake.probe("127.0.0.1", port, TIMEOUT).problem()).contains("connection refused");
    }

    /** One connection: reads a framed Hello, answers with {@code reply}'s frame, or hangs up when it is null. */
    private int serve(Function<Message, byte[]> reply) throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread thread = new Thread(() -> {
            try (Socket socket = server.accept()) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                byte[] frame = new byte[in.readInt()];
                in.readFully(frame);
                byte[] answer = reply.apply(WireCodec.decode(frame));
                if (answer != null) {
                    DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                    out.writeInt(answer.length);
                    out.write(answer);
                    out.flush();
                }
            } catch (Exception e) {
                // The test's assertions tell what went wrong; the fake server only stops.
            }
        }, "fake-fastccs-node");
        thread.setDaemon(true);
        thread.start();
        return server.getLocalPort();
    }
}
