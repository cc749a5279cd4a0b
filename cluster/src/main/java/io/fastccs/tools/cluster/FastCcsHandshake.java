package io.fastccs.tools.cluster;

import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.messages.Message;
import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.core.wire.WireCodec;
import io.fastccs.core.wire.WireLimits;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * Asks a node's FastCCS port whether it serves: one {@link Hello} from a client, one {@link HelloReply} back,
 * each a frame prefixed by its 4-byte big-endian length.
 */
final class FastCcsHandshake {
    /** Either the node's reply or why there is none. */
    record Result(HelloReply reply, String problem) {
        /** The node answered the handshake: accepted it, or refused it for security (login or TLS required). */
        boolean ok() {
            return problem == null;
        }
    }

    private FastCcsHandshake() {
    }

    /** A FastCCS node; see {@link #probe(String, int, Duration, Protocol)}. */
    static Result probe(String host, int port, Duration timeout) {
        return probe(host, port, timeout, Protocol.FASTCCS);
    }

    /**
     * Shakes hands as a client of {@code protocol} (a node refuses a client of another protocol). Never blocks longer
     * than about twice {@code timeout}: once to connect, once to read the reply.
     */
    static Result probe(String host, int port, Duration timeout, Protocol protocol) {
        int millis = (int) timeout.toMillis();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), millis);
            socket.setSoTimeout(millis);
            byte[] hello = WireCodec.encode(Hello.client(null, null).speaking(protocol));
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(hello.length);
            out.write(hello);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int length = in.readInt();
            if (length <= 0 || length > WireLimits.DEFAULT.maxFrameBytes())
                return failed("answered with a frame length of " + length + " bytes");
            byte[] frame = new byte[length];
            in.readFully(frame);
            Message reply = WireCodec.decode(frame);
            if (reply instanceof HelloReply helloReply)
                return new Result(helloReply, null);
            if (reply instanceof ErrorReply error && error.code() == ErrorCode.UNAUTHORIZED)
                return new Result(null, null); // serving, and refuses an anonymous plain client: security is on
            if (reply instanceof ErrorReply error)
                return failed("refused the handshake: " + error.code() + " " + error.message());
            return failed("answered the handshake with a " + reply.getClass().getSimpleName());
        } catch (ConnectException e) {
            return failed("connection refused (nothing listens on " + host + ":" + port + ")");
        } catch (SocketTimeoutException e) {
            return failed("no answer within " + millis + " ms");
        } catch (EOFException e) {
            return failed("closed the connection without a complete reply");
        } catch (MalformedFrameException e) {
            return failed("answered with a malformed frame: " + e.getMessage());
        } catch (IOException e) {
            return failed(e.toString());
        }
    }

    private static Result failed(String problem) {
        return new Result(null, problem);
    }
}
