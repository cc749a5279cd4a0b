package io.fastccs.server.groups;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How a node's consensus server starts, from what Cassandra, its storage and its groups say (pitfall 5). */
class ConsensusStartTest {
    private static final String HOST_ID = "6f1c3a52-8d4e-4c1b-9f0a-2b7e5d9c1a10";
    private static final List<Integer> GROUPS = List.of(1, 0, 2);
    private static final String DIR = "/data/fastccs-raft";
    private static final String ADDRESS = "10.0.0.2";

    private static ConsensusStart.NodeFacts node(boolean replacingItself, String memberBefore) {
        return new ConsensusStart.NodeFacts(HOST_ID, replacingItself, null, memberBefore);
    }

    private static ConsensusStart.GroupFacts empty(Map<Integer, Optional<String>> named) {
        return new ConsensusStart.GroupFacts(false, Optional.empty(), named, GROUPS);
    }

    private static ConsensusStart decide(ConsensusStart.NodeFacts node, ConsensusStart.GroupFacts groups) {
        return ConsensusStart.decide(node, groups, DIR, ADDRESS);
    }

    @Test
    void aRestartResumesUnderTheIdItsStorageRecords() {
        var stored = new ConsensusStart.GroupFacts(true, Optional.of(HOST_ID + ".2"), Map.of(), GROUPS);
        assertThat(decide(node(false, "anything"), stored)).isEqualTo(new ConsensusStart(ConsensusStart.Mode.RESUME, HOST_ID + ".2", null));
        var legacy = new ConsensusStart.GroupFacts(true, Optional.empty(), Map.of(), GROUPS);
        assertThat(decide(node(false, null), legacy).memberId()).as("storage made before ids were recorded").isEqualTo(HOST_ID);
        assertThat(decide(node(true, null), stored).mode()).as("Cassandra's data wiped, the consensus storage kept: a restart")
                .isEqualTo(ConsensusStart.Mode.RESUME);
    }

    @Test
    void aNewRingFormsItsGroupsUnderTheHostIdEvenIfOthersFormedThemFirst() {
        assertThat(decide(node(false, null), empty(Map.of()))).isEqualTo(new ConsensusStart(ConsensusStart.Mode.FORM, HOST_ID, null));
        assertThat(decide(node(false, null), empty(Map.of(0, Optional.of(HOST_ID))))).as("a faster node formed group 0, naming this one")
                .isEqualTo(new ConsensusStart(ConsensusStart.Mode.FORM, HOST_ID, null));
    }

    @Test
    void aLostStorageThatIsNotAReplacementIsRefusedWithWhatToDo() {
        assertThatThrownBy(() -> decide(node(false, "its data directory names it member " + HOST_ID), empty(Map.of())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(DIR + " is empty")
                .hasMessageContaining("-Dcassandra.replace_address_first_boot=" + ADDRESS);
        assertThatThrownBy(() -> decide(node(false, null), empty(Map.of(1, Optional.of(HOST_ID + ".2")))))
                .as("its groups know it under a later id").isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("its groups name it {1=" + HOST_ID + ".2}");
    }

    @Test
    void aReplacementOfItselfRejoinsUnderTheNextIdInPlaceOfTheOneItsGroupsName() {
        var named = Map.of(0, Optional.of(HOST_ID), 1, Optional.of(HOST_ID), 2, Optional.of(HOST_ID));
        assertThat(decide(node(true, null), empty(named)))
                .isEqualTo(new ConsensusStart(ConsensusStart.Mode.REPLACE, HOST_ID + ".2", HOST_ID));
        var again = Map.of(0, Optional.of(HOST_ID + ".2"), 1, Optional.of(HOST_ID + ".2"), 2, Optional.of(HOST_ID + ".2"));
        assertThat(decide(node(true, null), empty(again)).memberId()).as("wiped a second time").isEqualTo(HOST_ID + ".3");
    }

    @Test
    void aReplacementThatStoppedBetweenItsTwoStepsIsFinished() {
        // Group 1 dropped the old member, the new one not added yet: it gets the new member added, the others replace.
        var some = Map.of(0, Optional.of(HOST_ID + ".2"), 1, Optional.<String>empty(), 2, Optional.of(HOST_ID + ".2"));
        assertThat(decide(node(true, null), empty(some)))
                .isEqualTo(new ConsensusStart(ConsensusStart.Mode.REPLACE, HOST_ID + ".3", HOST_ID + ".2"));
        // Every group dropped it: the old id is unknown, and one that no group holds is taken.
        var none = Map.of(0, Optional.<String>empty(), 1, Optional.<String>empty(), 2, Optional.<String>empty());
        assertThat(decide(node(true, null), empty(none)))
                .isEqualTo(new ConsensusStart(ConsensusStart.Mode.REPLACE, HOST_ID + ".2", null));
    }

    @Test
    void aReplacementRefusesWhatItCannotDoSafely() {
        assertThatThrownBy(() -> decide(node(true, null), empty(Map.of(0, Optional.of(HOST_ID), 1, Optional.of(HOST_ID)))))
                .hasMessageContaining("no member of groups [2] answered");
        assertThatThrownBy(() -> decide(node(true, null), empty(Map.of(0, Optional.of(HOST_ID), 1, Optional.of(HOST_ID + ".2"), 2, Optional.of(HOST_ID)))))
                .hasMessageContaining("name different members at " + ADDRESS);
        var other = new ConsensusStart.NodeFacts(HOST_ID, false, "/10.0.0.9:7000", null);
        assertThatThrownBy(() -> decide(other, empty(Map.of()))).hasMessageContaining("another node's address");
    }

    @Test
    void memberIdsCountIncarnationsOfOneHostId() {
        assertThat(MemberIds.first(HOST_ID)).isEqualTo(HOST_ID);
        assertThat(MemberIds.next(HOST_ID)).isEqualTo(HOST_ID + ".2");
        assertThat(MemberIds.next(HOST_ID + ".9")).isEqualTo(HOST_ID + ".10");
        assertThat(MemberIds.hostIdOf(HOST_ID + ".3")).isEqualTo(HOST_ID);
        assertThat(MemberIds.hostIdOf(HOST_ID)).isEqualTo(HOST_ID);
        assertThatThrownBy(() -> MemberIds.next(HOST_ID + ".x")).isInstanceOf(IllegalArgumentException.class);
    }
}
