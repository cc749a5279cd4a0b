package io.fastccs.tools.progress;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressTest {
    @Test
    void lineSaysDoneTotalRateElapsedAndWhatIsLeft() {
        assertThat(Progress.line("populate", "keys", 120_000, 1_000_000, 40))
                .isEqualTo("populate: 120,000 / 1,000,000 keys (12.0%), 3,000 keys/s, 40 s elapsed, about 4 min 53 s left");
        assertThat(Progress.line("populate", "keys", 0, 10, 0)).isEqualTo("populate: 0 / 10 keys (0.0%), 0 keys/s, 0 s elapsed");
        assertThat(Progress.duration(3725)).isEqualTo("1 h 02 min");
    }

    @Test
    void reportsWhileWorkRuns() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        try (Progress p = Progress.start("work", "items", 10, Duration.ofMillis(20), lines::add)) {
            p.add(4);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (lines.isEmpty() && System.nanoTime() < deadline) Thread.sleep(5);
        }
        assertThat(lines).isNotEmpty();
        assertThat(lines.get(0)).startsWith("work: 4 / 10 items (40.0%)");
    }
}
