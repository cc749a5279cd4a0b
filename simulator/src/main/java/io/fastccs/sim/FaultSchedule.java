package io.fastccs.sim;

import java.util.SplittableRandom;

/**
 * When faults happen: partition crashes as a Poisson process while the workload runs, and the draw that makes a
 * client die in the middle of a write. Message loss and delay spikes are the network's, while {@link #active()}.
 */
final class FaultSchedule {
    private final SimConfig cfg;
    private final SplittableRandom random;
    private final EventQueue events;
    private final SimPartitions partitions;
    private boolean active;

    FaultSchedule(SimConfig cfg, SplittableRandom random, EventQueue events, SimPartitions partitions) {
        this.cfg = cfg;
        this.random = random;
        this.events = events;
        this.partitions = partitions;
    }

    void start() {
        active = cfg.faults().any();
        if (cfg.faults().partitionCrashesPerSecond() > 0) scheduleNextCrash();
    }

    /** Faults end with the workload, so that everything can settle. */
    void stop() {
        active = false;
    }

    boolean active() {
        return active;
    }

    /** Whether the client starting a write now dies in its middle (draws only while faults are active). */
    boolean clientDiesMidWrite() {
        return active && random.nextDouble() < cfg.faults().clientCrashPerWrite();
    }

    /** The random source for the details of a client's death (which participants it reached, when it restarts). */
    SplittableRandom random() {
        return random;
    }

    private void scheduleNextCrash() {
        double rate = cfg.faults().partitionCrashesPerSecond();
        long gap = (long) (-Math.log(1 - random.nextDouble()) / rate * 1_000_000);
        events.schedule(gap, () -> {
            if (!active) return;
            int p = random.nextInt(cfg.partitions());
            if (!partitions.isDown(p)) partitions.crash(p, 1 + random.nextLong(cfg.faults().maxDowntimeMicros()));
            scheduleNextCrash();
        });
    }
}
