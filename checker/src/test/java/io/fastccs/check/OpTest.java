package io.fastccs.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OpTest {

    @Test
    void registerOperationsAreUnchanged() {
        Op r = Op.read(1, 2);
        assertThat(r).isEqualTo(new Op(Op.Kind.READ, 1, 2));
        assertThat(r.isRead()).isTrue();
        assertThat(r.isTyped()).isFalse();
        assertThat(Op.write(1, 2).isRead()).isFalse();
        assertThat(r.toString()).isEqualTo("r(1,2)");
        assertThat(r.elements()).isEmpty();
        assertThat(r.dataType()).isEqualTo(Op.DataType.REGISTER);
    }

    @Test
    void typedOperationsCarryTheirFields() {
        assertThat(Op.add(1, -3).delta()).isEqualTo(-3);
        assertThat(Op.setRemove(1, 7).element()).isEqualTo(7);
        Op insert = Op.topkInsert(1, 4, 90);
        assertThat(insert.item()).isEqualTo(4);
        assertThat(insert.score()).isEqualTo(90);
        Op top = Op.readTopk(1, 3, new long[] {4, 2}, new long[] {90, 80});
        assertThat(top.k()).isEqualTo(3);
        assertThat(top.items()).containsExactly(4, 2);
        assertThat(top.scores()).containsExactly(90, 80);
        assertThat(top.toString()).isEqualTo("rt(1,3,[4:90 2:80])");
        for (Op op : new Op[] {Op.add(1, 1), Op.max(1, 1), Op.setAdd(1, 1), Op.setRemove(1, 1), insert,
                Op.readCounter(1, 1), Op.readMax(1, 1), Op.readSet(1), top}) {
            assertThat(op.isTyped()).as("%s", op).isTrue();
            assertThat(op.isRead()).as("%s", op).isEqualTo(op.kind().name().startsWith("READ"));
        }
    }

    @Test
    void setReadsAreSortedAndDistinctAndArraysCompareByContent() {
        long[] given = {5, 1, 5, 3};
        Op s = Op.readSet(9, given);
        assertThat(s.elements()).containsExactly(1, 3, 5);
        given[0] = 99;
        assertThat(s.elements()).containsExactly(1, 3, 5);
        s.elements()[0] = 42;
        assertThat(s.elements()).containsExactly(1, 3, 5);
        assertThat(s).isEqualTo(Op.readSet(9, 3, 1, 5)).hasSameHashCodeAs(Op.readSet(9, 3, 1, 5));
        assertThat(s).isNotEqualTo(Op.readSet(9, 1, 3));
        assertThat(s.toString()).isEqualTo("rs(9,[1 3 5])");
        assertThat(Op.topkInsert(1, 2, 3)).isEqualTo(Op.topkInsert(1, 2, 3)).isNotEqualTo(Op.topkInsert(1, 2, 4));
    }

    @Test
    void malformedOperationsAndWrongAccessorsAreRejected() {
        assertThatThrownBy(() -> Op.readTopk(1, 2, new long[] {1}, new long[0]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Op.readTopk(1, -1, new long[0], new long[0]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Op(Op.Kind.ADD, 1, 1, new long[] {1}, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Op.add(1, 1).element()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> Op.readSet(1).k()).isInstanceOf(IllegalStateException.class);
    }
}
