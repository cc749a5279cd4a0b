package io.fastccs.replication.ratis;

import io.fastccs.replication.GroupMember;
import io.fastccs.replication.ReplicaSettings;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class RatisPropertiesTest {
    private final RaftProperties properties = RatisProperties.of(new GroupMember("n1", "127.0.0.1", 9143, 0),
            Path.of("/var/lib/fastccs-raft"), ReplicaSettings.DEFAULT);

    @Test
    void aFollowerAnswersAnAppendOnlyForEntriesItWrote() {
        // See org.apache.ratis.server.impl.ComposedAppendsTest for what composing appends does in Ratis 3.3.0.
        assertThat(RaftServerConfigKeys.Log.appendEntriesComposeEnabled(properties)).isFalse();
        assertThat(RaftServerConfigKeys.Log.unsafeFlushEnabled(properties)).isFalse();
    }

    @Test
    void theLogLivesInTheNodesOwnDirectoryNotInTmp() {
        assertThat(RaftServerConfigKeys.storageDir(properties)).singleElement()
                .satisfies(dir -> assertThat(dir.toPath()).isEqualTo(Path.of("/var/lib/fastccs-raft/groups")));
    }
}
