package io.fastccs.replication;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Ratis inside a JVM whose classpath is a Cassandra node's (cassandra-all 5.0.9 and its Netty 4.1.130): each keeps its
 * own Netty, and a group still elects and commits.
 */
class BesideCassandraTest {
    @TempDir
    Path dir;

    @Test
    void ratisRunsWithCassandrasNettyOnTheClasspath() throws Exception {
        // Cassandra's Netty, loaded first as in a node.
        Class<?> epoll = Class.forName("io.netty.channel.epoll.Epoll");
        String cassandraNetty = io.netty.util.Version.identify().get("netty-common").artifactVersion();
        Class.forName("org.apache.cassandra.utils.FBUtilities");

        try (TestGroups g = new TestGroups(dir, 3, 1, TestGroups.FAST)) {
            int leader = g.awaitLeader(0, Duration.ofSeconds(20));
            assertThat(g.log(leader, 0).append("x".getBytes()).get(30, TimeUnit.SECONDS)).isPositive();
        }

        Class<?> ratisNetty = Class.forName("org.apache.ratis.thirdparty.io.netty.util.Version");
        assertThat(cassandraNetty).isEqualTo("4.1.130.Final");
        assertThat(ratisNetty.getClassLoader()).isSameAs(epoll.getClassLoader());
        assertThat(ratisNetty.getName()).as("Ratis's Netty is relocated").isNotEqualTo(io.netty.util.Version.class.getName());
        assertThat(io.netty.util.Version.identify().get("netty-common").artifactVersion())
                .as("Cassandra's Netty is still the one io.netty names").isEqualTo("4.1.130.Final");
        // Both native epoll libraries load in one JVM: Ratis's is renamed (liborg_apache_ratis_thirdparty_netty_...).
        // Skipped where Cassandra's own epoll cannot load (not Linux x86_64 or aarch64), but never in CI, whose machines
        // are the ones we deploy on: there a skip would hide a broken check.
        if ("true".equals(System.getenv("CI")))
            assertThat(epollAvailable(epoll)).as("Cassandra's native epoll loads on this CI machine").isTrue();
        else
            assumeTrue(epollAvailable(epoll), "Cassandra's native epoll loads on this machine");
        assertThat(epollAvailable(Class.forName("org.apache.ratis.thirdparty.io.netty.channel.epoll.Epoll")))
                .as("Ratis's native epoll loads beside Cassandra's").isTrue();
    }

    private static boolean epollAvailable(Class<?> epoll) throws ReflectiveOperationException {
        return (Boolean) epoll.getMethod("isAvailable").invoke(null);
    }
}
