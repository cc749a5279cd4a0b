package io.fastccs.server.storage;

import io.fastccs.protocol.primitives.CommitOrder;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordCodecTest {

    @Test
    void clocksRoundTripCompactly() {
        VectorClock small = VectorClock.of(0, 1, 127);
        byte[] bytes = RecordCodec.encodeClock(small);
        assertThat(bytes).containsExactly(3, 0, 1, 127);
        assertThat(RecordCodec.decodeClock(ByteBuffer.wrap(bytes))).isEqualTo(small);

        VectorClock large = VectorClock.of(128, Long.MAX_VALUE, 1L << 35);
        byte[] largeBytes = RecordCodec.encodeClock(large);
        assertThat(largeBytes).hasSize(1 + 2 + 9 + 6);
        assertThat(RecordCodec.decodeClock(ByteBuffer.wrap(largeBytes))).isEqualTo(large);
    }

    @Test
    void commitsCarryTheirTimeAndBlobsWrittenBeforeCommitTimesReadAsTimeZero() {
        VectorClock clock = VectorClock.of(4, 0, 9);
        long time = 1_764_201_600_000_123L;
        CommitOrder decoded = RecordCodec.decodeCommit(ByteBuffer.wrap(RecordCodec.encodeCommit(clock, time)));
        assertThat(decoded).isEqualTo(new CommitOrder(time, clock));
        assertThat(RecordCodec.decodeCommit(ByteBuffer.wrap(RecordCodec.encodeClock(clock))))
                .as("a commit clock stored before commit times existed").isEqualTo(new CommitOrder(0, clock));
        byte[] trailing = java.util.Arrays.copyOf(RecordCodec.encodeCommit(clock, time), RecordCodec.encodeCommit(clock, time).length + 1);
        assertThatThrownBy(() -> RecordCodec.decodeCommit(ByteBuffer.wrap(trailing))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RecordCodec.encodeCommit(clock, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void decodingLeavesTheBufferPositionAlone() {
        ByteBuffer buffer = ByteBuffer.allocate(10);
        buffer.put((byte) 9).put(RecordCodec.encodeClock(VectorClock.of(5, 6))).flip().position(1);
        assertThat(RecordCodec.decodeClock(buffer)).isEqualTo(VectorClock.of(5, 6));
        assertThat(buffer.position()).isEqualTo(1);
    }

    @Test
    void writesAndParticipantsRoundTrip() {
        List<KeyValue> writes = List.of(new KeyValue(Key.of("a"), new byte[0]), new KeyValue(Key.of(new byte[300]), new byte[]{1, 2, 3}));
        assertThat(RecordCodec.decodeWrites(ByteBuffer.wrap(RecordCodec.encodeWrites(writes)))).isEqualTo(writes);
        assertThat(RecordCodec.decodeWrites(ByteBuffer.wrap(RecordCodec.encodeWrites(List.of())))).isEmpty();
        assertThat(RecordCodec.decodeParticipants(ByteBuffer.wrap(RecordCodec.encodeParticipants(List.of(0, 5, 1000)))))
                .containsExactly(0, 5, 1000);
    }

    @Test
    void outcomesHaveFixedCodes() {
        assertThat(RecordCodec.encodeOutcome(Outcome.UNDECIDED)).isEqualTo((byte) 0);
        assertThat(RecordCodec.encodeOutcome(Outcome.COMMITTED)).isEqualTo((byte) 1);
        assertThat(RecordCodec.encodeOutcome(Outcome.ABORTED)).isEqualTo((byte) 2);
        for (Outcome o : Outcome.values()) assertThat(RecordCodec.decodeOutcome(RecordCodec.encodeOutcome(o))).isEqualTo(o);
        assertThatThrownBy(() -> RecordCodec.decodeOutcome((byte) 3)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void malformedInputIsRejected() {
        assertThatThrownBy(() -> RecordCodec.decodeClock(ByteBuffer.wrap(new byte[]{2, 1}))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RecordCodec.decodeClock(ByteBuffer.wrap(new byte[]{1, 1, 1}))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RecordCodec.decodeClock(ByteBuffer.wrap(new byte[]{0}))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RecordCodec.decodeWrites(ByteBuffer.wrap(new byte[]{(byte) 0xFF, (byte) 0xFF, 0x7F})))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RecordCodec.decodeWrites(ByteBuffer.wrap(new byte[]{1, 5, 1}))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void startupHookNamesTheFactory() {
        assertThat(StorageStartupHook.FACTORY_CLASS).isEqualTo(LocalKeyspaceSchemaHook.class.getName());
    }
}
