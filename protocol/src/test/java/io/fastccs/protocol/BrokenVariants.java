package io.fastccs.protocol;

import io.fastccs.core.PartitionConfig;
import io.fastccs.protocol.spi.FastCcsProtocol;
import io.fastccs.core.spi.ProtocolSession;
import java.util.EnumSet;
import java.util.function.Consumer;

/**
 * Test-only access to the deliberately broken protocol variants of {@link Bug}: the only way to switch them on.
 * Lives in the test tree (shipped to other modules' tests as the test-jar), so production code cannot reach it.
 */
public final class BrokenVariants {
    private BrokenVariants() {
    }

    /** Whether the bug lives in the client library rather than in the partitions. */
    public static boolean clientSide(Bug bug) {
        return bug == Bug.SKIP_SECOND_ROUND || bug == Bug.WAITING_VERSION_UNCHECKED || bug == Bug.REBASE_WITHOUT_LIFT;
    }

    /** {@code base} with the bug switched on, if it is a partition bug. */
    public static PartitionConfig partitionConfig(PartitionConfig base, Bug bug) {
        // The tree's bugs need the tree (and its stable bases): with fan-out 1 (a chain), every configuration beyond
        // two partitions has one.
        if (bug == Bug.TREE_REPORTS_UNSETTLED || bug == Bug.REBASE_WITHOUT_LIFT)
            base = base.toBuilder().stabilizationFanout(1).build();
        return clientSide(bug) ? base : base.withBugs(EnumSet.of(bug));
    }

    /** A hook for new client sessions that switches the bug on, if it is a client bug. */
    public static Consumer<ProtocolSession> sessionHook(Bug bug) {
        return session -> {
            if (clientSide(bug)) ((FastCcsProtocol.Session) session).session().withBugs(EnumSet.of(bug));
        };
    }
}
