package io.fastccs.protocol;

import io.fastccs.protocol.messages.BasedClock;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.protocol.messages.ClockDiff;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.protocol.messages.CompactReadReply;
import io.fastccs.protocol.messages.CompactWriteReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.protocol.messages.WaitingVersion;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;

import static io.fastccs.protocol.TestCluster.clock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The wire forms of clocks: relative to a stable base in requests, differences from the request's clock in replies. */
class ClockCompactionTest {
    private static final Key A = Key.of("a");

    @Test
    void aRequestNamesOnlyItsEntriesAboveTheBaseAndExpandsBackOnThatBase() {
        long[] base = {5, 5, 5, 5};
        VectorClock c = clock(5, 9, 5, 6);
        BitSet above = new BitSet();
        above.set(1);
        above.set(3);
        var compact = (CompactFirstRoundRead) ClockCompaction.compact(new FirstRoundRead(1, List.of(A), c), 7, above, 8);
        assertThat(compact.clock()).isEqualTo(BasedClock.of(7, new int[]{1, 3}, new long[]{9, 6}));
        assertThat(compact.rebaseTo()).isEqualTo(8);
        assertThat(ClockCompaction.expand(compact, base)).isEqualTo(new FirstRoundRead(1, List.of(A), c));
    }

    @Test
    void aReplyGoesAsDifferencesWithTheCommitClocksRaisedToTheRequestAndTheSnapshotsOwnEntryOnly() {
        VectorClock c = clock(4, 4, 4);
        ReadReply full = new ReadReply(3, List.of(new ReadValue(A, "v".getBytes(), 2)), clock(9, 6, 9), clock(1, 2, 7), 11, 12,
                List.of(new WaitingVersion(A, "w".getBytes(), 5, clock(5, 5, 0), 13)), true, 40);
        var compact = (CompactReadReply) ClockCompaction.compact(full, c, 1, 6, 40, null);
        assertThat(compact.snapshot()).as("own entry only").isEqualTo(ClockDiff.of(new int[]{1}, new long[]{2}));
        assertThat(compact.maxCommitClock()).isEqualTo(ClockDiff.of(new int[]{2}, new long[]{3}));
        assertThat(compact.shows()).isEqualTo(6);
        ReadReply back = (ReadReply) ClockCompaction.expand(compact, c);
        assertThat(back.snapshot()).as("a lower bound of the partition's").isEqualTo(clock(4, 6, 4));
        assertThat(back.maxCommitClock()).isEqualTo(clock(4, 4, 7));
        assertThat(back.waiting().get(0).commitClock()).isEqualTo(clock(5, 5, 4));
        assertThat(back.values()).isEqualTo(full.values());
        assertThat(back.stableEpoch()).isEqualTo(40);
    }

    @Test
    void aWriteReplyKeepsItsCommitClockExactly() {
        VectorClock c = clock(4, 4, 4);
        TxnId t = new TxnId(1, 1);
        ClientResponse compact = ClockCompaction.compact(new WriteReply(2, t, Outcome.COMMITTED, clock(4, 8, 9), 5), c, 0, 0, 0, null);
        assertThat(((CompactWriteReply) compact).commitClock()).isEqualTo(ClockDiff.of(new int[]{1, 2}, new long[]{4, 5}));
        assertThat(ClockCompaction.expand(compact, c)).isEqualTo(new WriteReply(2, t, Outcome.COMMITTED, clock(4, 8, 9), 5));
        assertThat(ClockCompaction.expand(ClockCompaction.compact(new WriteReply(2, t, Outcome.ABORTED, null, 0), c, 0, 0, 0, null), c))
                .isEqualTo(new WriteReply(2, t, Outcome.ABORTED, null, 0));
    }

    @Test
    void differencesThatDoNotFitTheClockAreRefused() {
        assertThatThrownBy(() -> ClockDiff.of(new int[]{5}, new long[]{1}).applyTo(clock(1, 1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClockDiff.of(new int[]{0}, new long[]{-2}).applyTo(clock(1, 1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BasedClock.of(1, new int[]{2}, new long[]{1}).expand(new long[2])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BasedClock.of(1, new int[]{2, 1}, new long[]{1, 1})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BasedClock.of(-1, new int[]{}, new long[]{})).isInstanceOf(IllegalArgumentException.class);
    }
}
