package io.fastccs.server.node;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class NodeClockTest {
    @Test
    void followsTheWallClockPlusItsOffset() {
        AtomicLong wall = new AtomicLong(1_000_000);
        NodeClock clock = new NodeClock(wall::get, 500);
        assertThat(clock.getAsLong()).isEqualTo(1_000_500);
        wall.addAndGet(10);
        assertThat(clock.getAsLong()).isEqualTo(1_000_510);
        clock.setOffsetMicros(2_000_000);
        assertThat(clock.getAsLong()).as("a forward step shows at once").isEqualTo(3_000_010);
    }

    @Test
    void standsStillWhenTheWallClockOrTheOffsetStepsBack() {
        AtomicLong wall = new AtomicLong(5_000_000);
        NodeClock clock = new NodeClock(wall::get, 0);
        assertThat(clock.getAsLong()).isEqualTo(5_000_000);
        clock.setOffsetMicros(-700_000);
        assertThat(clock.getAsLong()).as("stands still after a step back").isEqualTo(5_000_000);
        wall.addAndGet(600_000);
        assertThat(clock.getAsLong()).isEqualTo(5_000_000);
        wall.addAndGet(200_000);
        assertThat(clock.getAsLong()).as("runs again once the wall clock caught up").isEqualTo(5_100_000);
        wall.set(1_000_000); // an NTP step of the host's clock itself
        assertThat(clock.getAsLong()).isEqualTo(5_100_000);
        assertThat(clock.offsetMicros()).isEqualTo(-700_000);
    }
}
