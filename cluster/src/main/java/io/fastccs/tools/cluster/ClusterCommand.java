package io.fastccs.tools.cluster;

import io.fastccs.core.spi.Capability;
import io.fastccs.core.spi.Protocols;
import io.fastccs.core.primitives.Protocol;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.LinkedHashMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** {@code bin/fastccs cluster}: a local Cassandra 5.0 cluster with the FastCCS plugin, in the spirit of ccm. */
@Command(name = "fastccs cluster", mixinStandardHelpOptions = true,
        description = "Starts, inspects and stops a local Cassandra 5.0.9 cluster: node k listens on 127.0.S.k "
                + "(S the subnet, 0 unless --subnet; CQL 9042, FastCCS 9142, JMX 127.0.0.1:7199+300S+k), runs from the Maven jars the server-patch module "
                + "lists, and loads the FastCCS plugin unless told not to. State lives in the cluster directory, so "
                + "each subcommand is a separate invocation. bin/fastccs builds the project first when needed (mvn -DskipTests package).",
        subcommands = {ClusterCommand.Start.class, ClusterCommand.Status.class, ClusterCommand.Stop.class,
                ClusterCommand.Kill.class, ClusterCommand.Restart.class, ClusterCommand.Replace.class, ClusterCommand.Nodetool.class,
                ClusterCommand.Remove.class})
public final class ClusterCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "name a subcommand: start, status, stop, kill, restart, replace, nodetool or remove");
    }

    /** {@code --dir}, shared by every subcommand. */
    static final class DirOption {
        @Option(names = "--dir", paramLabel = "DIR", description = "the cluster directory (default: <repo>/.cluster)")
        Path dir;

        LocalCluster cluster(PrintStream out) {
            return LocalCluster.at(dir != null ? dir : LocalCluster.defaultDir(), out::println);
        }
    }

    @Command(name = "start", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Creates the cluster if needed and starts every node in parallel; returns once each node "
                    + "serves CQL (and, with the plugin, answers the FastCCS handshake) and sees all the others live, "
                    + "and with replicated partitions once every group is led by its preferred member (up to 30 s more). "
                    + "A stopped cluster with the same node count starts again on its data.")
    static final class Start implements Callable<Integer> {
        @Mixin
        DirOption dir;
        @Option(names = "--nodes", paramLabel = "N", description = "number of nodes, 1 to 254 (default: ${DEFAULT-VALUE})")
        int nodes = 3;
        @Option(names = "--subnet", paramLabel = "S",
                description = "put node k on 127.0.S.k, 0 to 99 (default: 0 for a new cluster, a stopped one's own); clusters on different subnets run side by side")
        Integer subnet;
        @Option(names = "--no-plugin", description = "plain Cassandra: no -javaagent, no FastCCS port")
        boolean noPlugin;
        @Option(names = "--heap", paramLabel = "SIZE", description = "maximum heap per node, -Xmx (default: ${DEFAULT-VALUE})")
        String heap = StartOptions.DEFAULT_HEAP_MAX;
        @Option(names = "--heap-min", paramLabel = "SIZE",
                description = "initial heap per node, -Xms; a node's RSS starts near it (default: 256M, or --heap if smaller)")
        String heapMin;
        @Option(names = "--timeout", paramLabel = "SECONDS", description = "how long to wait for the nodes (default: ${DEFAULT-VALUE})")
        long timeoutSeconds = StartOptions.DEFAULT_TIMEOUT.toSeconds();
        @Option(names = "--node-classpath", paramLabel = "FILE",
                description = "the nodes' classpath (default: server-patch/target/node-classpath.txt)")
        Path nodeClasspath;
        @Option(names = "--agent", paramLabel = "JAR",
                description = "the plugin (default: server-patch/target/fastccs-server-patch-0.1.0-SNAPSHOT-agent.jar)")
        Path agent;
        @Option(names = "--java", paramLabel = "PATH", description = "java for the nodes, JDK 11 or 17 (default: this JVM if 17, else the system JDK 17)")
        Path java;
        @Option(names = "--auth", description = "PasswordAuthenticator and CassandraAuthorizer (superuser cassandra/cassandra); "
                + "the FastCCS port then requires the same logins and permissions")
        boolean auth;
        @Option(names = "--client-tls", description = "client_encryption_options on (a self-signed keystore in DIR/tls/); "
                + "the FastCCS port then requires TLS from clients")
        boolean clientTls;
        @Option(names = "--internode-tls", description = "internode_encryption: all (node certificates verified); "
                + "FastCCS peer links then use TLS too")
        boolean internodeTls;
        @Option(names = "--secure", description = "--auth --client-tls --internode-tls")
        boolean secure;
        @Option(names = "--rf", paramLabel = "R",
                description = "replicas per partition: 3 makes each partition a Raft group of three nodes (one node down "
                        + "stops nothing); 1 is one node per partition, as in the thesis (default: 3 for a new cluster of "
                        + "3 or more nodes, else 1; a stopped cluster keeps its own; same as --node-setting replication_factor=R)")
        Integer rf;
        @Option(names = "--protocol", paramLabel = "NAME[,NAME...]",
                description = "the consistency protocols the nodes run, all on the FastCCS port: fastccs (default), and/or "
                        + "eiger, wren, eventual, the protocols the thesis compares it with (one node per partition, "
                        + "versions in memory; with any of them --rf defaults to 1); a client names one with "
                        + "withProtocol, the stress tool with -mode; same as --node-setting protocol=NAME[,NAME...]; a stopped "
                        + "cluster keeps its own unless given again")
        String protocol;
        @Option(names = "--cassandra-setting", paramLabel = "NAME=VALUE",
                description = "a cassandra.yaml setting for every node, over the tool's own (e.g. commitlog_sync=periodic "
                        + "with commitlog_sync_period=10000ms, Cassandra's default, instead of the tool's batch); repeatable; "
                        + "a stopped cluster keeps its own unless given again")
        Map<String, String> cassandraSettings = new LinkedHashMap<>();
        @Option(names = "--node-setting", paramLabel = "NAME=VALUE",
                description = "a FastCCS setting for every node, as in fastccs.yaml (e.g. transaction_timeout=2s); repeatable; "
                        + "a stopped cluster keeps its own unless given again")
        Map<String, String> nodeSettings = new LinkedHashMap<>();

        @Override
        public Integer call() {
            ClusterSecurity security = new ClusterSecurity(auth || secure, clientTls || secure, internodeTls || secure);
            LocalCluster cluster = dir.cluster(System.out);
            cassandraSettings.forEach((k, v) -> nodeSettings.put(LocalCluster.CASSANDRA_SETTING_PREFIX + k, v));
            if (protocol != null) nodeSettings.put(LocalCluster.PROTOCOL, protocol);
            if (nodeSettings.containsKey(LocalCluster.PROTOCOL)) {
                List<Protocol> chosen;
                try {
                    chosen = LocalCluster.protocols(nodeSettings.get(LocalCluster.PROTOCOL));
                } catch (IllegalArgumentException e) {
                    throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "--protocol: " + e.getMessage());
                }
                nodeSettings.put(LocalCluster.PROTOCOL, chosen.stream().map(Protocol::word).collect(Collectors.joining(",")));
                // A protocol without replicated partitions runs one node per partition.
                if (rf == null && chosen.stream().anyMatch(p -> !Protocols.factory(p).has(Capability.REPLICATION))) rf = 1;
            }
            if (rf != null) {
                if (rf < 1 || rf > nodes) throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                        "--rf must be between 1 and the number of nodes (" + nodes + "), not " + rf);
                nodeSettings.put(LocalCluster.REPLICATION_FACTOR, Integer.toString(rf));
            } else if (!nodeSettings.containsKey(LocalCluster.REPLICATION_FACTOR) && !cluster.exists() && !noPlugin) {
                // Replicated by default, as a Cassandra operator runs: one node down then stops nothing.
                nodeSettings.put(LocalCluster.REPLICATION_FACTOR, Integer.toString(LocalCluster.defaultReplicationFactor(nodes)));
            }
            StartOptions options = StartOptions.nodes(nodes).onSubnet(subnet != null ? subnet : StartOptions.SAME_SUBNET).withPlugin(!noPlugin).withHeap(heap)
                    .withTimeout(Duration.ofSeconds(timeoutSeconds)).withNodeClasspathFile(nodeClasspath)
                    .withAgentJar(agent).withJava(java).withSecurity(security).withNodeSettings(nodeSettings);
            if (heapMin != null)
                options = options.withHeap(heapMin, heap);
            LocalCluster.StartReport report = cluster.start(options);
            System.out.printf("%ncluster serving: %d node%s in %.1f s, ring converged at %.1f s%n", nodes,
                    nodes == 1 ? "" : "s", seconds(report.toServing()), seconds(report.toRing()));
            Ports ports = cluster.ports();
            System.out.println("  CQL      " + addresses(nodes, ports, ports.cql()));
            System.out.println("  FastCCS  " + (noPlugin ? "off (--no-plugin)" : addresses(nodes, ports, ports.fastccs())));
            if (!noPlugin) {
                int replicas = cluster.replicationFactor();
                List<Protocol> inMemory = cluster.protocols().stream()
                        .filter(p -> !Protocols.factory(p).has(Capability.CRASH_RECOVERY)).toList();
                if (cluster.protocols().size() > 1 || !inMemory.isEmpty())
                    System.out.println("  protocols " + cluster.protocols().stream().map(Protocol::word).collect(Collectors.joining(", "))
                            + " on the FastCCS port" + (inMemory.isEmpty() ? "" : " (" + inMemory.stream().map(Protocol::word)
                            .collect(Collectors.joining(", ")) + (inMemory.size() == 1 ? " keeps its" : " keep their") + " versions in memory)"));
                System.out.println("  replicas " + replicas + " per partition" + (replicas == 1
                        ? " (one node per partition, as in the thesis)" : " (each partition a Raft group; one node down stops nothing)"));
            }
            System.out.println("  logs     " + cluster.dir().resolve("node<k>/logs/system.log"));
            if (security.enabled()) {
                System.out.println("  security " + security + (security.authentication() ? "; superuser "
                        + ClusterSecurity.SUPERUSER + "/" + ClusterSecurity.SUPERUSER_PASSWORD : ""));
                if (security.clientTls())
                    System.out.println("  trust    " + ClusterSecurity.truststore(cluster.dir()) + " (password "
                            + ClusterSecurity.STORE_PASSWORD + "): --ssl-truststore for the command-line client");
            }
            System.out.println();
            printStatus(cluster, cluster.status());
            return 0;
        }

        private static String addresses(int nodes, Ports ports, int port) {
            List<String> list = new ArrayList<>();
            for (int node = 1; node <= nodes; node++)
                list.add(ports.address(node) + ":" + port);
            return String.join(", ", list);
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Per node: is its process alive, does it serve CQL and FastCCS, its RSS, and how many "
                    + "nodes its gossip sees live. Exit code 0 when every node serves, 1 otherwise.")
    static final class Status implements Callable<Integer> {
        @Mixin
        DirOption dir;

        @Override
        public Integer call() {
            LocalCluster cluster = dir.cluster(System.out);
            List<NodeStatus> statuses = cluster.status();
            printStatus(cluster, statuses);
            return statuses.stream().allMatch(NodeStatus::serving) ? 0 : 1;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = "SIGTERM to every node this tool started; SIGKILL to any still up 30 s later. Keeps the data.")
    static final class Stop implements Callable<Integer> {
        @Mixin
        DirOption dir;

        @Override
        public Integer call() {
            List<LocalCluster.Stopped> stopped = dir.cluster(System.out).stop();
            if (stopped.isEmpty())
                System.out.println("no node was running");
            for (LocalCluster.Stopped node : stopped)
                System.out.printf("node %d (pid %d) %s after %.1f s%n", node.node(), node.pid(),
                        node.killed() ? "killed" : "stopped", seconds(node.took()));
            return 0;
        }
    }

    @Command(name = "kill", mixinStandardHelpOptions = true,
            description = "SIGKILL to node K, as a crash: for fault tests. Start it again with restart K.")
    static final class Kill implements Callable<Integer> {
        @Mixin
        DirOption dir;
        @Parameters(paramLabel = "K", description = "the node number")
        int node;

        @Override
        public Integer call() {
            dir.cluster(System.out).kill(node);
            return 0;
        }
    }

    @Command(name = "restart", mixinStandardHelpOptions = true,
            description = "Starts node K again with its configuration and data, and waits until it serves and the ring sees it.")
    static final class Restart implements Callable<Integer> {
        @Mixin
        DirOption dir;
        @Parameters(paramLabel = "K", description = "the node number")
        int node;
        @Option(names = "--timeout", paramLabel = "SECONDS", description = "how long to wait (default: ${DEFAULT-VALUE})")
        long timeoutSeconds = StartOptions.DEFAULT_TIMEOUT.toSeconds();

        @Override
        public Integer call() {
            LocalCluster.StartReport report = dir.cluster(System.out).restart(node, Duration.ofSeconds(timeoutSeconds));
            System.out.printf("node %d serving after %.1f s, ring converged at %.1f s%n", node,
                    seconds(report.toServing()), seconds(report.toRing()));
            return 0;
        }
    }

    @Command(name = "replace", aliases = "wipe", mixinStandardHelpOptions = true,
            description = "Node K lost its disk: SIGKILL if it runs, deletes its data, commitlog, saved_caches, hints, "
                    + "cdc_raw and consensus (fastccs-raft) directories, keeps its configuration and logs, and starts it as "
                    + "a replacement of itself (-Dcassandra.replace_address_first_boot=<its address>; Cassandra bootstraps "
                    + "it, about half a minute more than a restart). With replicated partitions its groups take it back "
                    + "under a new member id and catch it up from the others. Refused at replication factor 1, where the "
                    + "node holds the only copy of its partition. Later restarts are plain ones.")
    static final class Replace implements Callable<Integer> {
        @Mixin
        DirOption dir;
        @Parameters(paramLabel = "K", description = "the node number")
        int node;
        @Option(names = "--timeout", paramLabel = "SECONDS", description = "how long to wait for it to serve (default: ${DEFAULT-VALUE})")
        long timeoutSeconds = StartOptions.DEFAULT_TIMEOUT.toSeconds();

        @Override
        public Integer call() {
            LocalCluster.StartReport report = dir.cluster(System.out).replace(node, Duration.ofSeconds(timeoutSeconds));
            System.out.printf("node %d replaced: serving after %.1f s, ring converged at %.1f s%n", node,
                    seconds(report.toServing()), seconds(report.toRing()));
            return 0;
        }
    }

    @Command(name = "nodetool", mixinStandardHelpOptions = true,
            description = "Runs Cassandra's nodetool against node K's JMX port, from the nodes' classpath. "
                    + "Everything after K goes to nodetool, e.g. bin/fastccs cluster nodetool 1 status")
    static final class Nodetool implements Callable<Integer> {
        @Mixin
        DirOption dir;
        @Parameters(index = "0", paramLabel = "K", description = "the node number")
        int node;
        @Parameters(index = "1..*", paramLabel = "ARGS", description = "nodetool's arguments")
        List<String> args = new ArrayList<>();

        @Override
        public Integer call() throws InterruptedException {
            Process nodetool = dir.cluster(System.out).startNodetool(node, args, true);
            return nodetool.waitFor();
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = "Stops the cluster and deletes its directory (only a directory holding a cluster).")
    static final class Remove implements Callable<Integer> {
        @Mixin
        DirOption dir;

        @Override
        public Integer call() {
            dir.cluster(System.out).remove();
            return 0;
        }
    }

    static void printStatus(LocalCluster cluster, List<NodeStatus> statuses) {
        System.out.printf("cluster %s: %d node%s, plugin %s%n", cluster.dir(), statuses.size(),
                statuses.size() == 1 ? "" : "s", cluster.pluginEnabled() ? "on" : "off");
        System.out.printf("%-5s %-11s %-8s %-8s %-5s %-8s %9s  %s%n", "node", "address", "pid", "process", "CQL",
                "FastCCS", "RSS", "sees live");
        for (NodeStatus s : statuses)
            System.out.printf("%-5d %-11s %-8s %-8s %-5s %-8s %9s  %s%n", s.node(), s.address(),
                    s.pid() > 0 ? Long.toString(s.pid()) : "-", s.processAlive() ? "up" : "down", s.cqlUp() ? "up" : "down",
                    s.fastccs().name().toLowerCase(), s.rssBytes() >= 0 ? s.rssBytes() / (1024 * 1024) + " MiB" : "-",
                    s.liveNodesSeen() >= 0 ? s.liveNodesSeen() + " nodes" : "-");
        for (NodeStatus s : statuses)
            if (s.pluginProblem() != null)
                System.out.printf("node %d: the FastCCS plugin FAILED (JMX io.fastccs:type=FastCcs): %s%n", s.node(), s.pluginProblem());
        long total = statuses.stream().filter(s -> s.rssBytes() > 0).mapToLong(NodeStatus::rssBytes).sum();
        String serving = statuses.stream().filter(NodeStatus::serving).map(s -> Integer.toString(s.node()))
                .collect(Collectors.joining(", "));
        System.out.printf("serving: %s%s%n", serving.isEmpty() ? "none" : "nodes " + serving,
                total > 0 ? "; total RSS " + total / (1024 * 1024) + " MiB" : "");
    }

    private static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }

    /** The command line with its error handling: a {@link ClusterException} is a one-line message, exit code 1. */
    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new ClusterCommand());
        // nodetool's own options (-r, --resolve-ip...) follow K and must reach nodetool untouched.
        commandLine.getSubcommands().get("nodetool").setStopAtPositional(true);
        commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof ClusterException || e instanceof IllegalArgumentException) {
                cmd.getErr().println("cluster " + cmd.getCommandName() + ": " + e.getMessage());
                return 1;
            }
            throw e;
        });
        return commandLine;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
