package io.fastccs.server.cassandra;

import io.fastccs.server.config.FastCcsProperty;
import io.fastccs.server.config.FastCcsSettings;
import io.fastccs.server.node.NodeClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.StandardMBean;

/** The {@link TestClockControlMBean} of a node started with {@code test_clock_offset}. */
final class TestClockControl implements TestClockControlMBean {
    static final String NAME = "io.fastccs:type=TestClock";
    private static final Logger logger = LoggerFactory.getLogger(TestClockControl.class);

    private final NodeClock clock;

    private TestClockControl(NodeClock clock) {
        this.clock = clock;
    }

    static void register(NodeClock clock) throws Exception {
        JmxBeans.replace(NAME, new StandardMBean(new TestClockControl(clock), TestClockControlMBean.class));
        logger.warn("FastCCS test clock control open on JMX ({}), offset {} us: for tests only", NAME, clock.offsetMicros());
    }

    @Override
    public String getClockOffset() {
        long micros = clock.offsetMicros();
        return (micros < 0 ? "-" : "+") + Math.abs(micros) + "us";
    }

    @Override
    public void setClockOffset(String offset) {
        // An IllegalArgumentException reaches the JMX caller with its message (a bad value names the setting).
        long micros = FastCcsSettings.parseSignedDuration(FastCcsProperty.TEST_CLOCK_OFFSET.key, offset);
        logger.warn("FastCCS test clock offset stepped from {} us to {} us", clock.offsetMicros(), micros);
        clock.setOffsetMicros(micros);
    }
}
