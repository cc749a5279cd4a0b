package io.fastccs.tools.experiment;

import io.fastccs.tools.stress.RetwisStress;
import io.fastccs.tools.stress.StressOptions;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RetwisExperimentTest {
    @Test
    void everyModeParsesAsARetwisRun() {
        for (StressOptions.Mode m : RetwisExperiment.MODES) {
            RetwisStress.Options o = RetwisStress.parse(RetwisExperiment.arguments(m, 10, 5, 16, 9042, 9142, List.of("127.0.69.1")));
            assertEquals(m, o.stress().mode);
            assertEquals(16, o.stress().threads);
            assertEquals(m == StressOptions.Mode.FASTCCS, o.typed());
        }
    }
}
