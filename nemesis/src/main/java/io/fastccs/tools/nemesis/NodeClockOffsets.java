package io.fastccs.tools.nemesis;

import io.fastccs.tools.cluster.Ports;

import java.util.Optional;

/**
 * Steps a running node's FastCCS clock over JMX ({@code io.fastccs:type=TestClock}, open only on nodes started with
 * the test-only setting {@code test_clock_offset}): the clock-offset fault, as an NTP step would, forwards or back.
 */
public final class NodeClockOffsets {
    /** The node setting that opens the control; the nemesis starts its clusters with it at zero. */
    public static final String SETTING = "test_clock_offset";

    private final NodeJmx jmx;

    public NodeClockOffsets(Ports ports) {
        this.jmx = new NodeJmx(ports, "io.fastccs:type=TestClock", "ClockOffset", SETTING, "0ms", "test clock control",
                "clock offset");
    }

    /** Empty if {@code node} offers the control; else why not. */
    public Optional<String> unusableReason(int node) {
        return jmx.unusableReason(node);
    }

    /** The node's offset now, as it reports it ({@code +0us}). */
    public String get(int node) {
        return jmx.get(node);
    }

    /** Steps node's FastCCS clock to the wall clock plus {@code offset} (a signed duration: {@code -700ms}, {@code +2s}). */
    public void set(int node, String offset) {
        jmx.set(node, offset);
    }
}
