package io.fastccs.sim;

import io.fastccs.core.messages.Message;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

/**
 * The network model: each message is serialized on its sender's NIC at the configured bandwidth, then delayed by an
 * exponentially distributed latency; with faults on, messages may be lost or delayed by a spike. Links keep FIFO
 * order unless the run reorders. Counts messages and bytes.
 */
final class SimNetwork {
    private final SimConfig cfg;
    private final SplittableRandom random;
    private final EventQueue events;
    private final SimStats stats;
    private final BooleanSupplier faultsActive;
    private final MessageSizes sizes = new MessageSizes();
    private final int nodeCount;
    private final long[] nicFreeAt;
    private final Map<Long, Long> linkLastDelivery = new HashMap<>();

    SimNetwork(SimConfig cfg, SplittableRandom random, EventQueue events, SimStats stats, int nodeCount, BooleanSupplier faultsActive) {
        this.cfg = cfg;
        this.random = random;
        this.events = events;
        this.stats = stats;
        this.faultsActive = faultsActive;
        this.nodeCount = nodeCount;
        this.nicFreeAt = new long[nodeCount];
    }

    /** One message over the wire from node {@code from} to node {@code to}; {@code deliver} runs on arrival. */
    void transmit(int from, int to, Message message, Runnable deliver) {
        int bytes = sizes.size(message);
        stats.messages++;
        stats.bytes += bytes;
        stats.payloadBytes += message.payloadBytes();
        if (message.isStabilization()) {
            stats.stabilizationMessages++;
            stats.stabilizationBytes += bytes;
        }
        boolean faulty = faultsActive.getAsBoolean() && cfg.faults().any();
        if (faulty && cfg.faults().messageLoss() > 0 && random.nextDouble() < cfg.faults().messageLoss()) {
            stats.messagesLost++;
            return;
        }
        long now = events.now();
        long start = Math.max(now, nicFreeAt[from]);
        nicFreeAt[from] = start + (long) Math.ceil(bytes * 8 / cfg.bandwidthBitsPerMicro());
        long delay = (long) (-Math.log(1 - random.nextDouble()) * cfg.meanDelayMicros());
        if (faulty && cfg.faults().delaySpikeProbability() > 0 && random.nextDouble() < cfg.faults().delaySpikeProbability()) {
            delay += random.nextLong(cfg.faults().delaySpikeMaxMicros() + 1);
            stats.delaySpikes++;
        }
        long at = nicFreeAt[from] + delay;
        if (cfg.fifo()) {
            long link = (long) from * nodeCount + to;
            Long last = linkLastDelivery.get(link);
            if (last != null && last > at) at = last;
            linkLastDelivery.put(link, at);
        }
        events.schedule(at - now, deliver);
    }
}
