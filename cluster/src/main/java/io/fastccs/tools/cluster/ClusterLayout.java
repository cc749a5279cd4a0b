package io.fastccs.tools.cluster;

import java.nio.file.Path;

/** Where things live in a cluster directory: {@code node<k>/} per node, the state file and nodetool's files. */
record ClusterLayout(Path dir) {
    ClusterLayout {
        dir = dir.toAbsolutePath().normalize();
    }

    Path stateFile() {
        return dir.resolve(ClusterState.FILE_NAME);
    }

    Path nodeDir(int node) {
        return dir.resolve("node" + node);
    }

    Path confDir(int node) {
        return nodeDir(node).resolve("conf");
    }

    Path cassandraYaml(int node) {
        return confDir(node).resolve("cassandra.yaml");
    }

    Path logbackXml(int node) {
        return confDir(node).resolve("logback.xml");
    }

    Path logDir(int node) {
        return nodeDir(node).resolve("logs");
    }

    Path stdoutLog(int node) {
        return logDir(node).resolve("stdout.log");
    }

    Path systemLog(int node) {
        return logDir(node).resolve("system.log");
    }

    Path pidFile(int node) {
        return nodeDir(node).resolve("pid");
    }

    /** nodetool writes its history under {@code user.home}; give it a writable one of its own. */
    Path nodetoolHome() {
        return dir.resolve("nodetool-home");
    }

    Path toolsLogbackXml() {
        return nodetoolHome().resolve("logback-tools.xml");
    }

    /** The config URL a node is started with; also how a running node is recognised as this cluster's. */
    String configUrl(int node) {
        return cassandraYaml(node).toUri().toString();
    }
}
