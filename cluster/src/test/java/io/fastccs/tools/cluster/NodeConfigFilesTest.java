package io.fastccs.tools.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.yaml.snakeyaml.Yaml;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeConfigFilesTest {
    private static final BigInteger RING = BigInteger.ONE.shiftLeft(64);

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void tokensAreEvenlySpacedOverTheMurmur3Range(int nodes) {
        List<Long> tokens = NodeConfigFiles.initialTokens(nodes);

        assertThat(tokens).hasSize(nodes).first().isEqualTo(Long.MIN_VALUE);
        BigInteger step = RING.divide(BigInteger.valueOf(nodes));
        for (int i = 1; i < nodes; i++)
            assertThat(BigInteger.valueOf(tokens.get(i)).subtract(BigInteger.valueOf(tokens.get(i - 1))))
                    .as("gap before token %d of %d", i, nodes).isEqualTo(step);
        // The range from the last token round to the first is the same step, give or take the division's remainder.
        BigInteger wrapGap = RING.subtract(BigInteger.valueOf(tokens.get(nodes - 1)).subtract(BigInteger.valueOf(tokens.get(0))));
        assertThat(wrapGap).isGreaterThanOrEqualTo(step).isLessThan(step.add(BigInteger.valueOf(nodes)));
    }

    @Test
    void tokensForSmallClustersAreTheFamiliarOnes() {
        assertThat(NodeConfigFiles.initialTokens(2)).containsExactly(Long.MIN_VALUE, 0L);
        assertThat(NodeConfigFiles.initialTokens(4)).containsExactly(Long.MIN_VALUE, -(1L << 62), 0L, 1L << 62);
        assertThat(NodeConfigFiles.initialTokens(3)).containsExactly(
                -9223372036854775808L, -3074457345618258603L, 3074457345618258602L);
    }

    @Test
    void noTokensForAnEmptyCluster() {
        assertThatThrownBy(() -> NodeConfigFiles.initialTokens(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 8})
    void everyNodeOfAClusterGetsItsAddressAndToken(int nodes) {
        List<Long> tokens = NodeConfigFiles.initialTokens(nodes);
        for (int node = 1; node <= nodes; node++) {
            Map<String, Object> yaml = parse(node, nodes, Path.of("/c/node" + node));
            assertThat(yaml.get("listen_address")).isEqualTo("127.0.0." + node);
            assertThat(yaml.get("rpc_address")).isEqualTo("127.0.0." + node);
            assertThat(((Number) yaml.get("initial_token")).longValue()).isEqualTo(tokens.get(node - 1));
        }
    }

    @Test
    void yamlHoldsWhatALocalNodeNeeds() {
        Path nodeDir = Path.of("/tmp/my cluster/node2");
        Map<String, Object> yaml = parse(2, 3, nodeDir);

        assertThat(yaml).containsEntry("cluster_name", "fastccs")
                .containsEntry("partitioner", "org.apache.cassandra.dht.Murmur3Partitioner")
                .containsEntry("endpoint_snitch", "SimpleSnitch")
                .containsEntry("num_tokens", 1)
                .containsEntry("auto_bootstrap", false)
                .containsEntry("storage_port", 7000)
                .containsEntry("native_transport_port", 9042)
                .containsEntry("commitlog_sync", "batch")
                .containsEntry("data_file_directories", List.of("/tmp/my cluster/node2/data"))
                .containsEntry("commitlog_directory", "/tmp/my cluster/node2/commitlog")
                .containsEntry("hints_directory", "/tmp/my cluster/node2/hints")
                .containsEntry("saved_caches_directory", "/tmp/my cluster/node2/saved_caches")
                .containsEntry("memtable_heap_space", "64MiB");
        // Cassandra refuses batch sync with a period, and a fresh seed with token allocation waits 30 s.
        assertThat(yaml).doesNotContainKeys("commitlog_sync_period", "commitlog_sync_period_in_ms",
                "allocate_tokens_for_local_replication_factor");
        Object seeds = ((Map<?, ?>) ((List<?>) ((Map<?, ?>) ((List<?>) yaml.get("seed_provider")).get(0)).get("parameters")).get(0)).get("seeds");
        assertThat(seeds).isEqualTo("127.0.0.1:7000");
    }

    @Test
    void aNodeReplacingItselfIsNotItsOwnSeedSoThatItBootstraps() {
        Ports ports = Ports.forSubnet(60);
        String node1 = NodeConfigFiles.cassandraYaml(1, 3, ports, Path.of("/tmp/c/node1"), ClusterSecurity.NONE, 2);
        Map<String, Object> yaml = new Yaml().load(node1);
        Object seeds = ((Map<?, ?>) ((List<?>) ((Map<?, ?>) ((List<?>) yaml.get("seed_provider")).get(0)).get("parameters")).get(0)).get("seeds");
        assertThat(seeds).isEqualTo("127.0.60.2:7000");
    }

    @Test
    void quotesInPathsStayValidYaml() {
        Map<String, Object> yaml = parse(1, 1, Path.of("/tmp/it's/node1"));
        assertThat(yaml).containsEntry("commitlog_directory", "/tmp/it's/node1/commitlog");
    }

    @Test
    void logbackWritesSystemLogInTheNodesLogDirectory() throws Exception {
        Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(
                NodeConfigFiles.logbackXml(Path.of("/c/node1/logs")).getBytes(StandardCharsets.UTF_8)));

        assertThat(xml.getElementsByTagName("file").item(0).getTextContent()).isEqualTo("/c/node1/logs/system.log");
        assertThat(xml.getElementsByTagName("root").item(0).getAttributes().getNamedItem("level").getTextContent()).isEqualTo("INFO");
        assertThat(NodeConfigFiles.logbackXml(Path.of("/c/node1/logs"))).doesNotContain("ConsoleAppender");
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(
                NodeConfigFiles.toolsLogbackXml().getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aClusterOnAnotherSubnetListensAndSeedsThere() {
        Ports ports = Ports.forSubnet(7);
        Map<String, Object> yaml = new Yaml().load(NodeConfigFiles.cassandraYaml(2, 3, ports, Path.of("/data/node2")));
        assertThat(yaml.get("listen_address")).isEqualTo("127.0.7.2");
        assertThat(yaml.get("rpc_address")).isEqualTo("127.0.7.2");
        assertThat(yaml.toString()).contains("seeds=127.0.7.1:7000");
        assertThat(ports.jmx(2)).isEqualTo(7199 + 300 * 7 + 2);
        assertThat(Ports.DEFAULT.jmx(2)).isEqualTo(7201);
    }

    private static Map<String, Object> parse(int node, int nodes, Path nodeDir) {
        return new Yaml().load(NodeConfigFiles.cassandraYaml(node, nodes, Ports.DEFAULT, nodeDir));
    }
}
