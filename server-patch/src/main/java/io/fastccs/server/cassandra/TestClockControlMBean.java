package io.fastccs.server.cassandra;

/**
 * Test only: the FastCCS clock offset of a running node, the writable attribute {@code ClockOffset} of
 * {@code io.fastccs:type=TestClock}, registered only when the node was started with the setting
 * {@code test_clock_offset} (the nemesis's clock fault steps it).
 */
public interface TestClockControlMBean {
    /** The offset now, as a signed duration in microseconds ({@code +0us}, {@code -700000us}). */
    String getClockOffset();

    /**
     * Steps the node's FastCCS clock to the wall clock plus {@code offset}, a signed duration such as {@code -700ms}
     * or {@code +2s}; a step back makes the clock stand still until the wall clock catches up (see NodeClock).
     */
    void setClockOffset(String offset);
}
