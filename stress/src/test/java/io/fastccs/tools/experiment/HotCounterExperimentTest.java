package io.fastccs.tools.experiment;

import io.fastccs.tools.stress.CounterStress;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HotCounterExperimentTest {
    @Test
    void everyPointParsesAsACounterRun() {
        for (String p : HotCounterExperiment.POINTS) {
            CounterStress.Options o = CounterStress.parse(HotCounterExperiment.arguments(p, 10, 5, 64, 9042, 9142, List.of("127.0.69.1")));
            assertEquals(64, o.stress().threads);
            assertEquals(p.split("/")[1], o.stress().mode.word());
            assertEquals(p.endsWith("/1000") ? 1000 : 1, o.keys());
        }
    }

    @Test
    void aBadPointIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> HotCounterExperiment.arguments("add", 10, 5, 64, 9042, 9142, List.of("h")));
        assertThrows(IllegalArgumentException.class, () -> CounterStress.parse(
                HotCounterExperiment.arguments("add/eiger", 10, 5, 64, 9042, 9142, List.of("h"))));
    }
}
