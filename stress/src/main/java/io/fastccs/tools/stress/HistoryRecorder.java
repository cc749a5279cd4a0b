package io.fastccs.tools.stress;

import io.fastccs.check.History;
import io.fastccs.check.Op;
import io.fastccs.check.PlumeText;
import io.fastccs.check.Txn;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every transaction of a run, for the TCC checker: values are unique per run (their id leads each value), sessions
 * are numbered from 1 (0 is the final reads' session), and a session's transactions are added in its own order.
 * A disabled recorder still hands out ids but keeps nothing.
 */
public final class HistoryRecorder {
    public static final long FINAL_SESSION = 0;

    private final boolean enabled;
    private final ConcurrentLinkedQueue<Txn> txns = new ConcurrentLinkedQueue<>();
    private final AtomicLong nextTxn = new AtomicLong(1), nextSession = new AtomicLong(1), nextValue = new AtomicLong(1);

    public HistoryRecorder(boolean enabled) {
        this.enabled = enabled;
    }

    public boolean enabled() {
        return enabled;
    }

    public long newSession() {
        return nextSession.getAndIncrement();
    }

    public long nextValue() {
        return nextValue.getAndIncrement();
    }

    /** Reserves {@code count} consecutive value ids and returns the first. */
    public long reserveValues(long count) {
        return nextValue.getAndAdd(count);
    }

    public void read(long session, long[] keys, long[] values) {
        if (!enabled) return;
        List<Op> ops = new ArrayList<>(keys.length);
        for (int i = 0; i < keys.length; i++) ops.add(Op.read(keys[i], values[i]));
        txns.add(new Txn(nextTxn.getAndIncrement(), session, true, ops));
    }

    public void write(long session, long[] keys, long[] values, boolean committed) {
        if (!enabled) return;
        List<Op> ops = new ArrayList<>(keys.length);
        for (int i = 0; i < keys.length; i++) ops.add(Op.write(keys[i], values[i]));
        txns.add(new Txn(nextTxn.getAndIncrement(), session, committed, ops));
    }

    /** A transaction of any operations (typed ones included: {@link Op#add}, {@link Op#readCounter}, {@link Op#setAdd}, ...). */
    public void typed(long session, List<Op> ops, boolean committed) {
        if (!enabled) return;
        txns.add(new Txn(nextTxn.getAndIncrement(), session, committed, ops));
    }

    /** The keys some recorded transaction wrote (committed or not), ascending. */
    public List<Long> writtenKeys() {
        Set<Long> keys = new TreeSet<>();
        for (Txn t : txns) for (Op o : t.ops()) if (o.kind() == Op.Kind.WRITE) keys.add(o.key());
        return new ArrayList<>(keys);
    }

    public int size() {
        return txns.size();
    }

    public History build() {
        History.Builder h = History.builder().finalSession(FINAL_SESSION);
        for (Txn t : txns) h.add(t);
        return h.build();
    }

    public void writeTo(Path file) throws IOException {
        PlumeText.write(build(), file);
    }
}
