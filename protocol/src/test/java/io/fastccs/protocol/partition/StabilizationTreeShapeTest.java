package io.fastccs.protocol.partition;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shape of the stabilization tree (docs/design/stabilization-tree.md, "Stabilization up and down a tree"); what
 * goes up and down it, StabilizationTreeTest.
 */
class StabilizationTreeShapeTest {
    @Test
    void shapeIsAHeapOfTheFanout() {
        StabilizationTree root = new StabilizationTree(0, 7, 2), one = new StabilizationTree(1, 7, 2),
                six = new StabilizationTree(6, 7, 2);
        assertThat(root.parent()).isEqualTo(-1);
        assertThat(root.children()).containsExactly(1, 2);
        assertThat(one.parent()).isZero();
        assertThat(one.children()).containsExactly(3, 4);
        assertThat(six.parent()).isEqualTo(2);
        assertThat(six.children()).isEmpty();
        assertThat(one.inSubtree(1, 4)).isTrue();
        assertThat(one.inSubtree(1, 5)).isFalse();
        assertThat(one.inSubtree(1, 0)).isFalse();
        assertThat(new StabilizationTree(0, 1024, 32).children()).hasSize(32);
        assertThat(new StabilizationTree(31, 1024, 32).children()).containsExactly(993, 994, 995, 996, 997, 998, 999,
                1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 1015, 1016,
                1017, 1018, 1019, 1020, 1021, 1022, 1023);
        assertThat(StabilizationTree.direct(33, 32)).isTrue();
        assertThat(StabilizationTree.direct(34, 32)).isFalse();
    }
}
