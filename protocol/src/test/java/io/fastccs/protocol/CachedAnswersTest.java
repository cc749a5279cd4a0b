package io.fastccs.protocol;

import static io.fastccs.protocol.TestCluster.bytes;
import static io.fastccs.protocol.TestCluster.str;
import static org.assertj.core.api.Assertions.assertThat;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.spi.PartitionAnswer;

import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * Reads of which a client cache answers part, against real partitions (docs/design/client-cache.md, "Full hits, partial
 * hits, misses"): the answers an earlier read handed over are served when they fit, read again when not.
 */
class CachedAnswersTest {
    private final TestCluster c = new TestCluster(2);
    private final Key a = c.key(0, 0), b = c.key(1, 0);
    /** Each write from a new session: a session's transaction ids are its id and a count from 1. */
    private long nextWriter = 100;

    private void writeBoth(String value) {
        assertThat(c.runWrite(c.session(nextWriter++).write(Map.of(a, bytes(value), b, bytes(value)), new Random(7))).isConfirmed()).isTrue();
        c.stabilizeAll();
    }

    /** What a read of both keys by a new session handed over for partition 1 (key b). */
    private PartitionAnswer answerForB(long session) {
        ReadTransaction read = c.runRead(c.session(session).read(List.of(a, b)));
        return read.result().answers().stream().filter(x -> x.partition() == 1).findFirst().orElseThrow();
    }

    @Test
    void aCachedAnswerThatStillFitsIsServedInOneRound() {
        writeBoth("v1");
        PartitionAnswer cachedB = answerForB(2);
        ReadTransaction read = c.runRead(c.session(3).read(List.of(a, b), List.of(cachedB)));
        assertThat(read.result().rounds()).isEqualTo(1);
        assertThat(str(read.result().values().get(a))).isEqualTo("v1");
        assertThat(read.result().values().get(b)).isEqualTo(cachedB.values().get(0));
    }

    @Test
    void aCachedAnswerThatTheFetchedVersionOutgrewIsReadAgainAndTheReadIsAtomic() {
        writeBoth("v1");
        PartitionAnswer staleB = answerForB(2);
        writeBoth("v2");
        ReadTransaction read = c.runRead(c.session(3).read(List.of(a, b), List.of(staleB)));
        assertThat(read.succeeded()).as("%s", read.failure()).isTrue();
        assertThat(read.result().rounds()).isEqualTo(2);
        assertThat(str(read.result().values().get(a))).isEqualTo("v2");
        assertThat(str(read.result().values().get(b))).isEqualTo("v2");
    }
}
