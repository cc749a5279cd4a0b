package io.fastccs.tools.stress;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CounterStressTest {
    @Test
    void defaultsAreOneHotKeyWithAdd() {
        CounterStress.Options o = CounterStress.parse("duration=10s", "-rate", "threads=64");
        assertEquals(1, o.keys());
        assertEquals(CounterStress.CounterOp.ADD, o.op());
        assertEquals(64, o.stress().threads);
        assertEquals(StressOptions.Mode.FASTCCS, o.stress().mode);
        assertFalse(o.stress().populate);
    }

    @Test
    void keysOpAndModes() {
        CounterStress.Options o = CounterStress.parse("keys=1000", "op=rmw", "-mode", "eventual");
        assertEquals(1000, o.keys());
        assertEquals(CounterStress.CounterOp.RMW, o.op());
        assertEquals(StressOptions.Mode.EVENTUAL, o.stress().mode);
        assertEquals(StressOptions.Mode.CQL, CounterStress.parse("op=add", "-mode", "cql").stress().mode);
        assertEquals(CounterStress.CounterOp.PUT, CounterStress.parse("op=put", "-mode", "wren").op());
    }

    @Test
    void addIsFastCcsOrCassandrasCounterOnly() {
        for (String mode : new String[] {"eiger", "wren", "eventual"})
            assertTrue(assertThrows(IllegalArgumentException.class, () -> CounterStress.parse("op=add", "-mode", mode))
                    .getMessage().contains("op=rmw"));
        assertThrows(IllegalArgumentException.class, () -> CounterStress.parse("op=rmw", "-mode", "batch"));
        assertThrows(IllegalArgumentException.class, () -> CounterStress.parse("op=incr"));
        assertThrows(IllegalArgumentException.class, () -> CounterStress.parse("keys=0"));
        assertThrows(IllegalArgumentException.class, () -> CounterStress.parse("-pop", "dist=uniform(1..10)"));
    }

    @Test
    void plainCounterValuesCarryTheCountAndAUniqueId() {
        String v = CounterStress.plainValue(41, 977);
        assertEquals(41, CounterStress.count(v));
        assertEquals(977, CounterStress.id(v));
        assertEquals(0, CounterStress.count(null));
        assertEquals(0, CounterStress.id(null));
        assertEquals(12, CounterStress.count("12"));
    }

    @Test
    void verdictCountsLostAndOvercountedPerKey() {
        CounterStress.Tally t = new CounterStress.Tally(2);
        for (int i = 0; i < 10; i++) t.acknowledged(0);
        for (int i = 0; i < 5; i++) t.acknowledged(1);
        t.unconfirmed(1);
        t.unconfirmed(1);
        CounterStress.Verdict exact = t.verdict(new long[] {10, 6});
        assertTrue(exact.exact());
        assertEquals(16, exact.finalValue());
        assertEquals(15, exact.acknowledged());
        assertEquals(2, exact.unconfirmed());
        // key 0 lost 3 while key 1 counted one more than it could: the two do not cancel out
        CounterStress.Verdict broken = t.verdict(new long[] {7, 8});
        assertEquals(3, broken.lost());
        assertEquals(1, broken.overcounted());
        assertFalse(broken.exact());
    }
}
