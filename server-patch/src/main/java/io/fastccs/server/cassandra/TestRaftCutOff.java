package io.fastccs.server.cassandra;

import io.fastccs.replication.LinkFaults;
import io.fastccs.server.config.FastCcsProperty;
import io.fastccs.server.config.FastCcsSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.StandardMBean;
import java.util.Set;

/** The {@link TestRaftCutOffMBean} of a node started with {@code test_raft_cut_off}. */
final class TestRaftCutOff implements TestRaftCutOffMBean {
    static final String NAME = "io.fastccs:type=TestRaftCutOff";
    private static final Logger logger = LoggerFactory.getLogger(TestRaftCutOff.class);

    private final LinkFaults faults;

    private TestRaftCutOff(LinkFaults faults) {
        this.faults = faults;
    }

    /** Link faults the control switches, cut off from {@code initially} from the start, and the control registered. */
    static LinkFaults register(Set<String> initially) throws Exception {
        LinkFaults faults = LinkFaults.controllable();
        faults.cutOff(initially);
        JmxBeans.replace(NAME, new StandardMBean(new TestRaftCutOff(faults), TestRaftCutOffMBean.class));
        logger.warn("FastCCS test consensus cut-off control open on JMX ({}), cut off from {}: for tests only", NAME, describe(initially));
        return faults;
    }

    @Override
    public String getCutOff() {
        return describe(faults.cutOff());
    }

    @Override
    public void setCutOff(String addresses) {
        // An IllegalArgumentException reaches the JMX caller with its message (a bad value names the setting).
        Set<String> hosts = FastCcsSettings.parseHosts(FastCcsProperty.TEST_RAFT_CUT_OFF.key, addresses);
        logger.warn("FastCCS test consensus cut-off changed from {} to {}", describe(faults.cutOff()), describe(hosts));
        faults.cutOff(hosts);
    }

    private static String describe(Set<String> hosts) {
        return hosts.isEmpty() ? "none" : String.join(",", hosts.stream().sorted().toList());
    }
}
