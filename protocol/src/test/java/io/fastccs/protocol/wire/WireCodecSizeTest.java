package io.fastccs.protocol.wire;

import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.primitives.VectorClock;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.Stabilize;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Prints what the common messages cost on the wire, and keeps the compact encoding from regressing. */
class WireCodecSizeTest {

    @Test
    void printsEncodedSizes() {
        List<Key> fiveKeys = new ArrayList<>();
        for (int i = 0; i < 5; i++) fiveKeys.add(Key.of("user:%05d".formatted(i))); // 10 bytes each
        assertThat(fiveKeys.get(0).length()).isEqualTo(10);

        VectorClock smallEntries = VectorClock.of(3, 0, 7, 12, 1, 0, 5, 9);
        VectorClock millionEntries = WireTestMessages.clockOf(8, i -> 1_000_000L + i * 1_234);
        int readSmall = WireCodec.encodedSize(new FirstRoundRead(123_456, fiveKeys, smallEntries));
        int readMillion = WireCodec.encodedSize(new FirstRoundRead(123_456, fiveKeys, millionEntries));
        int stabilize = WireCodec.encodedSize(new Stabilize(3, 1_000_000));

        System.out.printf("wire size: FirstRoundRead, 5 keys of 10 B, 8-entry clock: %d B (entries < 64), "
                + "%d B (entries ~10^6)%n", readSmall, readMillion);
        System.out.printf("wire size: Stabilize(3, 10^6): %d B%n", stabilize);
        for (long entry : new long[]{0, 63, 64, 8_191, 1_000_000, 1L << 40, Long.MAX_VALUE})
            System.out.printf("wire size: clock entry %d: %.2f B per entry%n", entry, perEntryCost(entry));

        assertThat(readSmall).isLessThan(5 * 11 + 8 + 16); // payload + one byte per clock entry + framing
        assertThat(stabilize).isLessThanOrEqualTo(12);
        assertThat(perEntryCost(63)).isEqualTo(1.0);
        assertThat(perEntryCost(1_000_000)).isEqualTo(3.0);
    }

    /** The bytes one more clock entry adds, from Commits with 1024 and 2048 entries of {@code entry}. */
    private static double perEntryCost(long entry) {
        int small = WireCodec.encodedSize(new Commit(WireTestMessages.TXN, WireTestMessages.clockOf(1024, i -> entry)));
        int large = WireCodec.encodedSize(new Commit(WireTestMessages.TXN, WireTestMessages.clockOf(2048, i -> entry)));
        return (large - small) / 1024.0;
    }
}
