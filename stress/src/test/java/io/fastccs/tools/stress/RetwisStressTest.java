package io.fastccs.tools.stress;

import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetwisStressTest {
    @Test
    void theMixIsRetwis() {
        Map<RetwisStress.Action, Integer> n = new EnumMap<>(RetwisStress.Action.class);
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < 200_000; i++) n.merge(RetwisStress.action(r.nextDouble()), 1, Integer::sum);
        assertEquals(0.05, n.get(RetwisStress.Action.ADD_USER) / 200_000.0, 0.005);
        assertEquals(0.15, (n.get(RetwisStress.Action.FOLLOW) + n.get(RetwisStress.Action.UNFOLLOW)) / 200_000.0, 0.005);
        assertEquals(0.30, n.get(RetwisStress.Action.POST) / 200_000.0, 0.005);
        assertEquals(0.50, n.get(RetwisStress.Action.TIMELINE) / 200_000.0, 0.005);
    }

    @Test
    void followersArePowerLawAndNobodyFollowsThemselves() {
        Map<Long, Set<Long>> g = RetwisStress.followerGraph(1000, 10, 15);
        assertEquals(1000, g.size());
        long edges = g.values().stream().mapToLong(Set::size).sum();
        assertEquals(10_000, edges);
        g.forEach((u, fs) -> assertFalse(fs.contains(u)));
        int top = g.get(1L).size(), median = g.values().stream().mapToInt(Set::size).sorted().toArray()[500];
        assertTrue(top > 500, "the most popular user has most users as followers: " + top);
        assertTrue(median < 10, "the median user has few: " + median);
        assertEquals(g, RetwisStress.followerGraph(1000, 10, 15));
    }

    @Test
    void options() {
        RetwisStress.Options o = RetwisStress.parse("duration=10s", "-mode", "eventual");
        assertEquals(1000, o.users());
        assertEquals(10, o.follows());
        assertEquals(200, o.fanout());
        assertFalse(o.typed());
        assertTrue(RetwisStress.parse("users=50", "follows=3", "fanout=20").typed());
        assertThrows(IllegalArgumentException.class, () -> RetwisStress.parse("follows=1000"));
        assertThrows(IllegalArgumentException.class, () -> RetwisStress.parse("-mode", "batch"));
        assertEquals(42, RetwisStress.postId("42#tweet by 7"));
        assertEquals(0, RetwisStress.postId(null));
        String e = RetwisStress.follower(17, 90210);
        assertEquals(17, RetwisStress.userOf(e));
        assertEquals(90210, RetwisStress.elementId(e));
        assertEquals(55, RetwisStress.elementId("55"));
    }
}
