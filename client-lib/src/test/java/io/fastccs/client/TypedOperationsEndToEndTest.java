package io.fastccs.client;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.ring.TokenRing;
import io.fastccs.server.node.InProcessCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Counters, max registers, sets and top-k through the client's write builder and read accessors, against real nodes
 * (in-process, real sockets, in-memory stores) of a 3-partition cluster.
 */
class TypedOperationsEndToEndTest {
    private static final int PARTITIONS = 3;
    private static InProcessCluster cluster;
    private static FastCcsClient client;

    @BeforeAll
    static void start() throws Exception {
        cluster = InProcessCluster.start(PARTITIONS);
        client = FastCcsClient.builder().addContactPoints(cluster.contactPoints()).build();
    }

    @AfterAll
    static void stop() {
        if (client != null) client.close();
        if (cluster != null) cluster.close();
    }

    /** One key with the given prefix on each partition, in partition order. */
    private static List<String> onePerPartition(String prefix) {
        TokenRing ring = TokenRing.of(cluster.node(0).ring().members());
        String[] keys = new String[PARTITIONS];
        for (int i = 0, found = 0; found < PARTITIONS; i++) {
            int p = ring.ownerOf(Key.of(prefix + i));
            if (keys[p] == null) {
                keys[p] = prefix + i;
                found++;
            }
        }
        return List.of(keys);
    }

    @Test
    void concurrentSessionsAddsAreAllCounted() {
        List<CompletableFuture<WriteResult>> writes = new ArrayList<>();
        List<CausalSession> sessions = new ArrayList<>();
        for (int s = 0; s < 4; s++) sessions.add(client.session());
        for (int i = 0; i < 50; i++)
            for (CausalSession s : sessions)
                writes.add(s.newWrite().add("e2e:hits", 1).add("e2e:hits", 1).executeAsync().toCompletableFuture());
        CompletableFuture.allOf(writes.toArray(new CompletableFuture[0])).join();
        assertThat(client.session().read("e2e:hits").counter("e2e:hits")).isEqualTo(4 * 50 * 2);
    }

    @Test
    void oneTransactionMixesPutsAndEveryOperationAtomically() {
        List<String> k = onePerPartition("e2e:mix-");
        CausalSession s = client.session();
        WriteResult w = s.newWrite().put(k.get(0), "hello").add(k.get(1), 7).setAdd(k.get(2), "alice").execute();
        assertThat(w.size()).isEqualTo(3);
        assertThat(w.partitionsTouched()).isEqualTo(PARTITIONS);
        s.newWrite().max("e2e:best", -5).topkInsert("e2e:top", 2, "p", 5).execute();
        s.newWrite().max("e2e:best", -9).topkInsert("e2e:top", 2, "q", 7).setRemove(k.get(2), "bob").execute();
        s.newWrite().topkInsert("e2e:top", 2, "r", 6).execute();
        ReadResult r = s.read(k.get(0), k.get(1), k.get(2), "e2e:best", "e2e:top", "e2e:never");
        assertThat(r.getString(k.get(0))).isEqualTo("hello");
        assertThat(r.counter(k.get(1))).isEqualTo(7);
        assertThat(r.set(k.get(2))).containsExactly("alice");
        assertThat(r.max("e2e:best")).hasValue(-5);
        assertThat(r.topk("e2e:top")).extracting(ScoredItem::toString).containsExactly("q=7", "r=6");
        assertThat(r.type(k.get(1))).isEqualTo(KeyType.COUNTER);
        assertThat(r.type("e2e:never")).isNull();
        assertThat(r.counter("e2e:never")).isZero();
        assertThat(r.max("e2e:never")).isEmpty();
        assertThatThrownBy(() -> r.get(k.get(1))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("read it with counter(key)");
    }

    @Test
    void aWrongTypedOperationIsRefusedWithTheNodesMessageAndChangesNothing() {
        List<String> k = onePerPartition("e2e:typed-");
        CausalSession s = client.session();
        s.newWrite().add(k.get(0), 5).setAdd(k.get(1), "x").put(k.get(2), "v").execute();
        // A put on the counter, with valid operations on the two other partitions.
        for (int attempt = 0; attempt < 3; attempt++) {
            assertThatThrownBy(() -> s.newWrite().put(k.get(0), "oops").setAdd(k.get(1), "y").put(k.get(2), "w").execute())
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("INVALID_REQUEST")
                    .hasMessageContaining("key " + k.get(0) + " is a counter (add): PUT refused (a key keeps the type of its first operation)");
        }
        assertThatThrownBy(() -> s.newWrite().add(k.get(1), 1).execute()).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("is a set (set add and remove): ADD refused");
        assertThatThrownBy(() -> s.write(Map.of(k.get(1), "plain"))).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("PUT refused");
        assertThatThrownBy(() -> s.newWrite().max(k.get(2), 1).execute()).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("is a plain key (put): MAX refused");
        assertThat(s.hasUnconfirmedWrite()).isFalse();
        ReadResult r = client.session().read(k);
        assertThat(r.counter(k.get(0))).isEqualTo(5);
        assertThat(r.set(k.get(1))).containsExactly("x");
        assertThat(r.getString(k.get(2))).isEqualTo("v");
    }

    @Test
    void aTopKKeepsTheKOfItsFirstInsert() {
        CausalSession s = client.session();
        s.newWrite().topkInsert("e2e:top2", 2, "a", 1).execute();
        assertThatThrownBy(() -> s.newWrite().topkInsert("e2e:top2", 3, "b", 2).execute())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("is a top-2");
    }

    @Test
    void aRemoveRemovesTheAddsItsSessionSawAndAConcurrentAddWins() {
        CausalSession adder = client.session();
        CausalSession blind = client.session();
        adder.newWrite().setAdd("e2e:set", "x").execute();
        blind.newWrite().setRemove("e2e:set", "x").execute(); // never saw the add: removes nothing
        assertThat(client.session().read("e2e:set").set("e2e:set")).containsExactly("x");
        CausalSession seer = client.session();
        assertThat(seer.read("e2e:set").set("e2e:set")).containsExactly("x");
        seer.newWrite().setRemove("e2e:set", "x").execute();
        assertThat(seer.read("e2e:set").set("e2e:set")).isEmpty();
        // A token carries what a session saw: a remove through it removes those adds.
        adder.newWrite().setAdd("e2e:set", "y").execute();
        CausalSession resumed = client.session(adder.exportToken());
        resumed.newWrite().setRemove(utf8("e2e:set"), utf8("y")).execute();
        assertThat(client.session(resumed.exportToken()).read("e2e:set").set("e2e:set")).isEmpty();
    }

    @Test
    void anEmptyWriteFailsAndTheBuilderRunsOnce() {
        CausalSession s = client.session();
        CompletionStage<WriteResult> empty = s.newWrite().executeAsync();
        assertThatThrownBy(() -> empty.toCompletableFuture().join()).hasCauseInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("at least one key");
        WriteBuilder b = s.newWrite().add("e2e:once", 1);
        b.execute();
        assertThatThrownBy(b::execute).isInstanceOf(IllegalStateException.class);
        assertThat(s.read("e2e:once").counter("e2e:once")).isEqualTo(1);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
