package io.fastccs.tools.stress;

import io.fastccs.check.PlumeText;
import io.fastccs.check.TccChecker;
import io.fastccs.server.node.InProcessCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The fastccs mode for a few seconds against three real FastCCS nodes in-process: the history must be TCC-clean. */
class StressInProcessTest {
    @Test
    void fastccsModeRunIsTccClean(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("h.txt");
        try (InProcessCluster cluster = InProcessCluster.start(3)) {
            StressOptions o = StressOptions.parse("mixed", "ratio(write=1,read=3)", "duration=3s", "-rate", "threads=6",
                    "-pop", "dist=gaussian(1..300)", "-warmup", "duration=500ms", "-log", "interval=1s", "-check",
                    "--history", file.toString());
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            StressResult r;
            try (StressBackend b = new FastCcsBackend(cluster.contactPoints(), o.valueSize, 4)) {
                r = new StressRun(o, b, new PrintStream(bytes, true), PacedClock.SYSTEM).run();
            }
            System.out.print(bytes);
            assertThat(r.reads()).isPositive();
            assertThat(r.writes()).isPositive();
            assertThat(r.roundsPerRead()).isBetween(1.0, 2.0);
            assertThat(r.check().ok()).as(r.check().summary()).isTrue();
            assertThat(TccChecker.check(PlumeText.read(file, Set.of(0L))).ok()).isTrue();
            assertThat(bytes.toString()).contains("Populated 300 keys", "total,", "Rounds per read");
        }
    }
}
