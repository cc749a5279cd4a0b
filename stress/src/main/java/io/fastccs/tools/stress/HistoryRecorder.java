package io.fastccs.tools.stress;

import io.fastccs.check.CheckResult;
import io.fastccs.check.History;
import io.fastccs.check.Op;
import io.fastccs.check.PlumeText;
import io.fastccs.check.TccChecker;
import io.fastccs.check.Txn;

import java.io.IOException;
import java.io.PrintStream;
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

    /**
     * The end of a recorded run: the history goes to {@code o.history} if given (said on {@code out} unless the run is
     * quiet), and is checked if {@code o.check}. Returns the check, or null.
     */
    public CheckResult writeAndCheck(StressOptions o, PrintStream out) throws IOException {
        if (o.history != null) {
            writeTo(o.history);
            if (!o.quiet) out.printf(java.util.Locale.ROOT, "History: %,d transactions written to %s (check: bin/fastccs check %s "
                    + "--final-session 0)%n", size(), o.history, o.history);
        }
        return o.check ? TccChecker.check(build()) : null;
    }

    /** The summary line of a history check and its first anomalies, as every stress command prints them. */
    public static void printCheck(CheckResult check, PrintStream out) {
        if (check == null) return;
        out.printf("History check (TCC)       : %s%n", check.summary());
        check.anomalies().stream().limit(5).forEach(a -> out.println("  " + a));
    }
}
