package io.fastccs.tools.experiment;

import io.fastccs.tools.stress.ClaretStress;
import io.fastccs.tools.stress.StressOptions;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ClaretExperimentTest {
    @Test
    void theSweepIsZipfByAddsInEveryMode() {
        assertEquals(List.of("0.6/0.2", "0.6/0.5", "1.0/0.2", "1.0/0.5", "1.4/0.2", "1.4/0.5"), ClaretExperiment.POINTS);
        for (String p : ClaretExperiment.POINTS)
            for (StressOptions.Mode m : ClaretExperiment.MODES) {
                ClaretStress.Options o = ClaretStress.parse(ClaretExperiment.arguments(p, m, 10, 5, 16, 9042, 9142, List.of("127.0.69.1")));
                assertEquals(Double.parseDouble(p.split("/")[0]), o.zipf());
                assertEquals(Double.parseDouble(p.split("/")[1]), o.adds());
                assertEquals(m, o.stress().mode);
            }
        assertThrows(IllegalArgumentException.class, () -> ClaretExperiment.arguments("1.0", StressOptions.Mode.FASTCCS, 1, 0, 1, 1, 1, List.of("h")));
    }
}
