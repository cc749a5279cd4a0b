package io.fastccs.protocol.wire;

import io.fastccs.core.wire.WireCodec;
import io.fastccs.core.messages.Message;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The codec writes the bytes it wrote before the wire was split into a core and one mapping per protocol: nodes of
 * either build must read each other. {@code golden-frames.txt} holds the frames captured from the codec as it was, of
 * {@link WireTestMessages#samples()} (every message type) and of seeded random messages.
 */
class WireGoldenFramesTest {
    private static final long RANDOM_SEED = 20261201;
    private static final int RANDOM_MESSAGES = 300;
    /** Frames up to this length are stored whole; longer ones by their SHA-256. */
    private static final int WHOLE_UP_TO = 4096;
    private static final String HASHED = "sha256:";

    private record Golden(int index, String type, int length, String bytes) {
        boolean whole() {
            return !bytes.startsWith(HASHED);
        }
    }

    @Test
    void everyMessageEncodesToTheFrameCapturedBeforeTheSplit() {
        List<Golden> golden = golden();
        List<Message> messages = messages();
        assertThat(messages).hasSameSizeAs(golden);
        for (int i = 0; i < golden.size(); i++) {
            Golden g = golden.get(i);
            Message m = messages.get(i);
            assertThat(typeName(m)).as("message %d", i).isEqualTo(g.type());
            byte[] frame = WireCodec.encode(m);
            assertThat(frame.length).as("length of frame %d (%s)", i, g.type()).isEqualTo(g.length());
            assertThat(stored(frame)).as("frame %d (%s)", i, g.type()).isEqualTo(g.bytes());
        }
    }

    /** Independent of how the samples are made: each captured frame decodes, and encodes back to itself. */
    @Test
    void everyCapturedFrameDecodesAndEncodesToItself() throws Exception {
        int whole = 0;
        for (Golden g : golden()) {
            if (!g.whole()) continue;
            byte[] frame = HexFormat.of().parseHex(g.bytes());
            Message m = WireCodec.decode(frame);
            assertThat(typeName(m)).as("frame %d", g.index()).isEqualTo(g.type());
            assertThat(WireCodec.encode(m)).as("frame %d (%s)", g.index(), g.type()).isEqualTo(frame);
            whole++;
        }
        assertThat(whole).isGreaterThan(300);
    }

    @Test
    void theCapturedFramesCoverEveryMessageType() {
        Set<String> captured = new TreeSet<>();
        for (Golden g : golden()) captured.add(g.type());
        Set<String> sampled = new TreeSet<>();
        for (Message m : WireTestMessages.samples()) sampled.add(typeName(m));
        assertThat(captured).isEqualTo(sampled);
    }

    private static List<Message> messages() {
        List<Message> out = new ArrayList<>(WireTestMessages.samples());
        Random rnd = new Random(RANDOM_SEED);
        for (int i = 0; i < RANDOM_MESSAGES; i++) out.add(WireTestMessages.random(rnd));
        return out;
    }

    /** The class name within its package: {@code FirstRoundRead}, {@code EigerMessages$Read1}. */
    private static String typeName(Message m) {
        return m.getClass().getName().substring(m.getClass().getPackageName().length() + 1);
    }

    private static String stored(byte[] frame) {
        if (frame.length <= WHOLE_UP_TO) return HexFormat.of().formatHex(frame);
        try {
            return HASHED + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(frame));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Golden> golden() {
        List<Golden> out = new ArrayList<>();
        try (var in = new BufferedReader(new InputStreamReader(Objects.requireNonNull(
                WireGoldenFramesTest.class.getResourceAsStream("golden-frames.txt"), "golden-frames.txt"),
                StandardCharsets.US_ASCII))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("#") || line.isBlank()) continue;
                String[] f = line.split(" ");
                out.add(new Golden(Integer.parseInt(f[0]), f[1], Integer.parseInt(f[2]), f[3]));
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        for (int i = 0; i < out.size(); i++) assertThat(out.get(i).index()).isEqualTo(i);
        return out;
    }
}
