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
 * <p><b>Our extension</b> for typed operations (a file with only {@code r}/{@code w} lines is exactly
 * Plume's format). Updates: {@code add(key,delta,s,t)} (counter), {@code max(key,value,s,t)} (max
 * register), {@code sadd(key,element,s,t)} and {@code srem(key,element,s,t)} (set),
 * {@code topk(key,item:score,s,t)} (top-k). Reads: {@code rc(key,value,s,t)} (counter),
 * {@code rm(key,value,s,t)} (max register), {@code rs(key,[e1 e2 ...],s,t)} (set; {@code []} when empty,
 * elements separated by one space, any order) and {@code rt(key,k,[item:score item:score ...],s,t)}
 * (top-k, in the order returned). Deltas, max values, counter and max reads and scores may be negative
 * ({@code -?\d+}); keys, elements, items, k and sessions may not.
 *
 * <p>Reading: a transaction's session is the session of its first line; session order is the order
 * in which transaction ids first appear; program order is line order; lines of a transaction need
 * not be contiguous. Aborted writes of one session become one aborted transaction with id
 * {@code -(session + 1)}; reads with txn {@code -1} are ignored, as the other tools do. Blank lines
 * and anything else that does not match the grammar are errors.
 *
 * <p>Writing: transactions in list order, each committed one contiguously; aborted transactions
 * only as their updates with txn {@code -1}. Final sessions are not part of the format.
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
        LineParser p = new LineParser();
        String line;
        long lineNo = 0;
        while ((line = br.readLine()) != null) {
            lineNo++;
            Op op = p.parse(line, lineNo);
            long session = p.session;
            long txn = p.txn;
            Acc acc;
            if (txn == -1) {
                if (op.isRead()) {
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
            acc.ops.add(op);
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

    /** Parses one line {@code name(fields...,session,txn)}; reused across lines. */
    private static final class LineParser {
        private String line;
        private long lineNo;
        private int pos;
        private final LongList list = new LongList(8);
        private final LongList listScores = new LongList(8);
        long session;
        long txn;

        Op parse(String text, long number) throws HistoryFormatException {
            line = text;
            lineNo = number;
            pos = 0;
            if (line.isEmpty() || line.isBlank()) {
                throw new HistoryFormatException(lineNo, "blank line (not allowed by the Plume format)");
            }
            int open = line.indexOf('(');
            if (open <= 0) {
                throw bad();
            }
            // Register lines are most lines: no substring for them.
            String name = open == 1 && line.charAt(0) == 'r' ? "r" : open == 1 && line.charAt(0) == 'w' ? "w"
                    : line.substring(0, open);
            pos = open + 1;
            long key = number(false, ',');
            Op op = switch (name) {
                case "r" -> Op.read(key, number(false, ','));
                case "w" -> Op.write(key, number(false, ','));
                case "add" -> Op.add(key, number(true, ','));
                case "max" -> Op.max(key, number(true, ','));
                case "sadd" -> Op.setAdd(key, number(false, ','));
                case "srem" -> Op.setRemove(key, number(false, ','));
                case "topk" -> {
                    long item = number(false, ':');
                    yield Op.topkInsert(key, item, number(true, ','));
                }
                case "rc" -> Op.readCounter(key, number(true, ','));
                case "rm" -> Op.readMax(key, number(true, ','));
                case "rs" -> {
                    list(false);
                    yield Op.readSet(key, list.toArray());
                }
                case "rt" -> {
                    long k = number(false, ',');
                    if (k > Integer.MAX_VALUE) {
                        throw new HistoryFormatException(lineNo, "top-k read with k too large in \"" + shown() + "\"");
                    }
                    list(true);
                    yield Op.readTopk(key, (int) k, list.toArray(), listScores.toArray());
                }
                default -> throw bad();
            };
            session = number(false, ',');
            txn = number(true, ')');
            if (pos != line.length()) {
                throw bad();
            }
            if (txn < -1) {
                throw new HistoryFormatException(lineNo, "txn id must be non-negative or -1 (aborted), got " + txn);
            }
            return op;
        }

        /** A decimal number (optionally negative) followed by {@code end}, which is consumed. */
        private long number(boolean signed, char end) throws HistoryFormatException {
            int n = line.length();
            boolean neg = signed && pos < n && line.charAt(pos) == '-';
            if (neg) {
                pos++;
            }
            int start = pos;
            long v = 0; // accumulated negatively, so Long.MIN_VALUE fits
            while (pos < n && line.charAt(pos) >= '0' && line.charAt(pos) <= '9') {
                int d = line.charAt(pos) - '0';
                if (v < (Long.MIN_VALUE + d) / 10) {
                    throw new HistoryFormatException(lineNo, "number too large in \"" + shown() + "\"");
                }
                v = v * 10 - d;
                pos++;
            }
            if (pos == start || pos >= n || line.charAt(pos) != end) {
                throw bad();
            }
            pos++;
            if (!neg && v == Long.MIN_VALUE) {
                throw new HistoryFormatException(lineNo, "number too large in \"" + shown() + "\"");
            }
            return neg ? v : -v;
        }

        /** {@code [a b ...],} or, with scores, {@code [item:score ...],}. */
        private void list(boolean scores) throws HistoryFormatException {
            list.size = 0;
            listScores.size = 0;
            if (pos >= line.length() || line.charAt(pos) != '[') {
                throw bad();
            }
            pos++;
            if (pos < line.length() && line.charAt(pos) == ']') {
                pos++;
            } else {
                char end;
                do {
                    if (scores) {
                        list.add(number(false, ':'));
                        listScores.add(number(true, ' ', ']'));
                    } else {
                        list.add(number(false, ' ', ']'));
                    }
                    end = line.charAt(pos - 1);
                } while (end == ' ');
            }
            if (pos >= line.length() || line.charAt(pos) != ',') {
                throw bad();
            }
            pos++;
        }

        /** A number followed by either separator. */
        private long number(boolean signed, char end1, char end2) throws HistoryFormatException {
            int n = line.length();
            int stop = pos;
            if (signed && stop < n && line.charAt(stop) == '-') {
                stop++;
            }
            while (stop < n && line.charAt(stop) >= '0' && line.charAt(stop) <= '9') {
                stop++;
            }
            char end = stop < n && line.charAt(stop) == end2 ? end2 : end1;
            return number(signed, end);
        }

        private String shown() {
            return line.length() > 80 ? line.substring(0, 80) + "..." : line;
        }

        private HistoryFormatException bad() {
            return new HistoryFormatException(lineNo, "expected r(key,value,session,txn), w(key,value,session,txn) or "
                    + "a typed operation (add, max, sadd, srem, topk, rc, rm, rs, rt), got \"" + shown() + "\"");
        }
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
     * @throws IllegalArgumentException if a number cannot be represented (negative key, register value,
     *                                  element, item or session, or negative id of a committed transaction)
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
                if (!representable(op)) {
                    throw new IllegalArgumentException("cannot represent " + op + " of T" + t.id()
                            + ": negative key, value, element or item");
                }
                sb.setLength(0);
                if (op.isTyped()) {
                    String text = op.toString(); // name(key,fields) in the file's syntax
                    sb.append(text, 0, text.length() - 1);
                } else {
                    sb.append(op.isRead() ? "r(" : "w(").append(op.key()).append(',').append(op.value());
                }
                sb.append(',').append(t.session()).append(',').append(t.committed() ? t.id() : -1).append(")\n");
                w.append(sb);
            }
        }
        w.flush();
    }

    /** Whether the format can hold {@code op}: its unsigned fields are non-negative. */
    private static boolean representable(Op op) {
        if (op.key() < 0) {
            return false;
        }
        return switch (op.kind()) {
            case READ, WRITE, SET_ADD, SET_REMOVE, TOPK_INSERT -> op.value() >= 0;
            case READ_SET, READ_TOPK -> {
                for (int i = 0; i < op.size(); i++) {
                    if (op.elementAt(i) < 0) {
                        yield false;
                    }
                }
                yield true;
            }
            default -> true;
        };
    }
}
