package io.fastccs.check;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads and writes the text history format of the Plume and AWDIT checkers: one operation per line,
 * {@code r(key,value,session,txn)} or {@code w(key,value,session,txn)}, non-negative integers, txn
 * {@code -1} for a write of an aborted transaction.
 *
 * <p>Reading: a transaction's session is the session of its first line; session order is the order
 * in which transaction ids first appear; program order is line order; lines of a transaction need
 * not be contiguous. Aborted writes of one session become one aborted transaction with id
 * {@code -(session + 1)}; {@code r(...,-1)} lines are ignored, as the other tools do. Blank lines
 * and anything else that does not match the grammar are errors.
 *
 * <p>Writing: transactions in list order, each committed one contiguously; aborted transactions
 * only as their writes with txn {@code -1}. Final sessions are not part of the format.
 */
public final class PlumeText {

    private PlumeText() {
    }

    /** Reads a history file; {@code finalSessions} marks the convergence-read sessions. */
    public static History read(Path file, Set<Long> finalSessions) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(r, finalSessions);
        }
    }

    /** Reads a history; {@code finalSessions} marks the convergence-read sessions. */
    public static History read(Reader in, Set<Long> finalSessions) throws IOException {
        BufferedReader br = in instanceof BufferedReader b ? b : new BufferedReader(in, 1 << 16);
        List<Acc> order = new ArrayList<>();
        Map<Long, Acc> committed = new HashMap<>();
        Map<Long, Acc> abortedBySession = new HashMap<>();
        long[] f = new long[4];
        String line;
        long lineNo = 0;
        while ((line = br.readLine()) != null) {
            lineNo++;
            boolean read = parseLine(line, lineNo, f);
            long key = f[0];
            long value = f[1];
            long session = f[2];
            long txn = f[3];
            Acc acc;
            if (txn == -1) {
                if (read) {
                    continue; // reads of aborted transactions carry no information
                }
                acc = abortedBySession.get(session);
                if (acc == null) {
                    acc = new Acc(-(session + 1), session, false);
                    abortedBySession.put(session, acc);
                    order.add(acc);
                }
            } else {
                acc = committed.get(txn);
                if (acc == null) {
                    acc = new Acc(txn, session, true);
                    committed.put(txn, acc);
                    order.add(acc);
                }
            }
            acc.ops.add(read ? Op.read(key, value) : Op.write(key, value));
        }
        History.Builder b = History.builder();
        for (Acc a : order) {
            b.add(new Txn(a.id, a.session, a.committed, a.ops));
        }
        for (Long s : finalSessions) {
            b.finalSession(s);
        }
        return b.build();
    }

    private static final class Acc {
        final long id;
        final long session;
        final boolean committed;
        final List<Op> ops = new ArrayList<>(4);

        Acc(long id, long session, boolean committed) {
            this.id = id;
            this.session = session;
            this.committed = committed;
        }
    }

    /** Parses {@code op(key,value,session,txn)} into {@code out}; returns true for a read. */
    private static boolean parseLine(String line, long lineNo, long[] out) throws HistoryFormatException {
        int n = line.length();
        if (n == 0 || line.isBlank()) {
            throw new HistoryFormatException(lineNo, "blank line (not allowed by the Plume format)");
        }
        char op = line.charAt(0);
        if ((op != 'r' && op != 'w') || n < 2 || line.charAt(1) != '(' || line.charAt(n - 1) != ')') {
            throw bad(lineNo, line);
        }
        int pos = 2;
        for (int field = 0; field < 4; field++) {
            char end = field == 3 ? ')' : ',';
            boolean neg = false;
            if (field == 3 && pos < n && line.charAt(pos) == '-') {
                neg = true;
                pos++;
            }
            int start = pos;
            long v = 0;
            while (pos < n && line.charAt(pos) >= '0' && line.charAt(pos) <= '9') {
                int d = line.charAt(pos) - '0';
                if (v > (Long.MAX_VALUE - d) / 10) {
                    throw new HistoryFormatException(lineNo, "number too large in \"" + line + "\"");
                }
                v = v * 10 + d;
                pos++;
            }
            if (pos == start || pos >= n || line.charAt(pos) != end) {
                throw bad(lineNo, line);
            }
            pos++;
            if (neg) {
                if (v != 1) {
                    throw new HistoryFormatException(lineNo, "txn id must be non-negative or -1 (aborted), got -"
                            + v);
                }
                v = -1;
            }
            out[field] = v;
        }
        if (pos != n) {
            throw bad(lineNo, line);
        }
        return op == 'r';
    }

    private static HistoryFormatException bad(long lineNo, String line) {
        String shown = line.length() > 80 ? line.substring(0, 80) + "..." : line;
        return new HistoryFormatException(lineNo,
                "expected r(key,value,session,txn) or w(key,value,session,txn), got \"" + shown + "\"");
    }

    /** Writes {@code h} to {@code file} (replacing it). */
    public static void write(History h, Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(h, w);
        }
    }

    /**
     * Writes {@code h}. Committed transactions with no operations are omitted (the format cannot
     * represent them).
     *
     * @throws IllegalArgumentException if a number cannot be represented (negative key, value or
     *                                  session, or negative id of a committed transaction)
     */
    public static void write(History h, Writer out) throws IOException {
        BufferedWriter w = out instanceof BufferedWriter b ? b : new BufferedWriter(out, 1 << 16);
        StringBuilder sb = new StringBuilder(48);
        for (Txn t : h.transactions()) {
            if (t.session() < 0 || (t.committed() && t.id() < 0)) {
                throw new IllegalArgumentException("cannot represent " + t + ": negative session or txn id");
            }
            for (Op op : t.ops()) {
                if (!t.committed() && op.isRead()) {
                    continue;
                }
                if (op.key() < 0 || op.value() < 0) {
                    throw new IllegalArgumentException("cannot represent " + op + " of T" + t.id()
                            + ": negative key or value");
                }
                sb.setLength(0);
                sb.append(op.isRead() ? "r(" : "w(").append(op.key()).append(',').append(op.value()).append(',')
                        .append(t.session()).append(',').append(t.committed() ? t.id() : -1).append(")\n");
                w.append(sb);
            }
        }
        w.flush();
    }
}
