package io.fastccs.it;

import io.fastccs.tools.cluster.Ports;
import io.fastccs.tools.stress.StressCommand;
import io.fastccs.tools.stress.StressOptions;
import io.fastccs.tools.stress.StressResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.fastccs.it.TestCluster.log;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The four protocols the thesis compares, on one cluster of three real nodes that runs all of them on its FastCCS port
 * ({@code protocol: fastccs,eiger,wren,eventual}): the stress tool's checked mixed workload on hot keys in each mode,
 * one after the other on the same nodes. FastCCS, Eiger and Wren must give TCC-clean histories without errors; eventual
 * is reported (its anomalies are expected, but a short run on a real cluster need not meet one).
 */
class ComparedProtocolsIT {
    private static final int SUBNET = 54;
    private static final int NODES = 3;
    private static final List<String> TCC_MODES = List.of("fastccs", "eiger", "wren");

    private static SubnetCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = SubnetCluster.start("compared", SUBNET, NODES, Map.of("protocol", "fastccs,eiger,wren,eventual"));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) cluster.close();
    }

    @Test
    void everyProtocolServesTheCheckedWorkloadAndTheTransactionalOnesAreTccClean() throws Exception {
        Ports ports = cluster.local().ports();
        List<String> hosts = new ArrayList<>();
        for (int k = 1; k <= NODES; k++) hosts.add(ports.address(k));
        for (String mode : List.of("fastccs", "eiger", "wren", "eventual")) {
            StressOptions o = StressOptions.parse(new String[] {"mixed", "duration=12s", "-rate", "threads=8",
                    "-pop", "dist=gaussian(1..200)", "-txn", "write-fraction=0.3", "-warmup", "duration=2s",
                    "-mode", mode, "-check", "-port", "native=" + ports.cql(), "fastccs=" + ports.fastccs(),
                    "-node", String.join(",", hosts)});
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            StressResult r;
            try (PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
                r = StressCommand.run(o, out);
            }
            String report = printed.toString(StandardCharsets.UTF_8);
            log(String.format("%s: %,.0f txn/s, %d reads (%.2f%% in a second round), %d writes, %d errors, check %s",
                    mode, r.opRate(), r.reads(), 100 * r.secondRoundShare(), r.writes(), r.errors(),
                    r.check() == null ? "none" : r.check().ok() ? "clean" : r.check().counts()));
            assertThat(r.reads()).as(mode + ": reads\n" + report).isPositive();
            assertThat(r.writes()).as(mode + ": writes\n" + report).isPositive();
            assertThat(r.check()).as(mode + ": the history was checked\n" + report).isNotNull();
            if (TCC_MODES.contains(mode)) {
                assertThat(r.errors()).as(mode + ": errors\n" + report).isZero();
                assertThat(r.check().ok()).as(mode + ": TCC anomalies " + r.check().counts() + "\n" + report).isTrue();
            }
            if (mode.equals("wren")) // a start round and a read round, unless every key came from the session's write cache
                assertThat(r.roundsPerRead()).as("Wren's rounds per read").isGreaterThan(1.8).isLessThanOrEqualTo(2.0);
        }
    }
}
