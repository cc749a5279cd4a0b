package io.fastccs.server.groups;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LeaderClaimsTest {
    @Test
    void claimsRoundTripAndSkipWhatDoesNotParse() {
        String encoded = LeaderClaims.encode(Map.of(3, 2L, 0, 5L));
        assertThat(encoded).isEqualTo("0@5,3@2");
        assertThat(LeaderClaims.decode(encoded)).containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of(0, 5L, 3, 2L)));
        assertThat(LeaderClaims.decode("1@x,2@4,junk,@3,")).containsExactlyEntriesOf(Map.of(2, 4L));
        assertThat(LeaderClaims.decode("")).isEmpty();
        assertThat(LeaderClaims.decode(null)).isEmpty();
    }

    @Test
    void theHighestTermAmongLiveNodesLeads() {
        List<Map<Integer, Long>> claims = new ArrayList<>();
        claims.add(Map.of(0, 4L));          // node 0: a deposed leader that has not noticed yet
        claims.add(Map.of(0, 5L, 1, 2L));   // node 1: its successor
        claims.add(null);                   // node 2: not known alive
        claims.add(Map.of());
        assertThat(LeaderClaims.leaderOf(0, claims)).isEqualTo(1);
        assertThat(LeaderClaims.leaderOf(1, claims)).isEqualTo(1);
        assertThat(LeaderClaims.leaderOf(2, claims)).isEqualTo(-1);
    }
}
