package io.fastccs.tools.stress;

import io.fastccs.workload.KeyDistribution;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClaretStressTest {
    @Test
    void defaultsAreClaretsMix() {
        ClaretStress.Options o = ClaretStress.parse("duration=10s");
        assertEquals(0.6, o.zipf());
        assertEquals(0.5, o.adds());
        assertEquals(10_000, o.keys());
        assertEquals(10_000, o.stress().population.size());
        assertTrue(o.typed());
        assertFalse(ClaretStress.parse("-mode", "eventual").typed());
        assertFalse(ClaretStress.parse("zipf=1.4", "adds=0.2", "-mode", "cql").typed());
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ClaretStress.parse("adds=1.5"));
        assertThrows(IllegalArgumentException.class, () -> ClaretStress.parse("zipf=0"));
        assertThrows(IllegalArgumentException.class, () -> ClaretStress.parse("keys=3"));
        assertThrows(IllegalArgumentException.class, () -> ClaretStress.parse("-mode", "batch"));
        assertThrows(IllegalArgumentException.class, () -> ClaretStress.parse("-pop", "dist=uniform(1..10)"));
    }

    @Test
    void aTransactionHasFourDistinctKeysEvenWhenSkewed() {
        KeyDistribution d = KeyDistribution.zipf(1, 10, 1.4);
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 1000; i++) {
            long[] ks = ClaretStress.pick(d, r, 4);
            assertEquals(4, java.util.Arrays.stream(ks).distinct().count());
            for (long k : ks) assertTrue(k >= 1 && k <= 10);
        }
    }

    @Test
    void emulatedSetsRoundTrip() {
        String v = ClaretStress.encode(42, List.of("7", "9"));
        assertEquals(42, ClaretStress.writeId(v));
        assertEquals(List.of("7", "9"), ClaretStress.elements(v));
        assertEquals(List.of(), ClaretStress.elements(ClaretStress.encode(3, List.of())));
        assertEquals(List.of(), ClaretStress.elements(null));
        assertEquals(0, ClaretStress.writeId(null));
    }

    @Test
    void lostAddsAreAcknowledgedElementsTheFinalReadMisses() {
        ClaretStress.Acknowledged a = new ClaretStress.Acknowledged();
        a.added(1, "10");
        a.added(1, "11");
        a.added(2, "12");
        assertEquals(3, a.count());
        assertEquals(1, a.lost(1, List.of("10", "99")));
        assertEquals(0, a.lost(2, List.of("12")));
        assertEquals(0, a.lost(3, List.of()));
    }
}
