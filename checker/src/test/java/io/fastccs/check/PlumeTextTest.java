package io.fastccs.check;

import static io.fastccs.check.Op.read;
import static io.fastccs.check.Op.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PlumeTextTest {

    static History parse(String text, Long... finals) throws IOException {
        return PlumeText.read(new StringReader(text), Set.of(finals));
    }

    static String format(History h) throws IOException {
        StringWriter w = new StringWriter();
        PlumeText.write(h, w);
        return w.toString();
    }

    @Test
    void parsesTheExampleOfTheFormatNote() throws IOException {
        // From shared/notes/history-format.md: T1 atomic write, T2 read-only, T3 aborted.
        History h = parse("w(1,1,1,1)\nw(2,1,1,1)\nr(1,1,2,2)\nr(2,1,2,2)\nw(1,2,1,-1)\n");
        assertThat(h.transactions()).containsExactly(
                new Txn(1, 1, true, List.of(write(1, 1), write(2, 1))),
                new Txn(2, 2, true, List.of(read(1, 1), read(2, 1))),
                new Txn(-2, 1, false, List.of(write(1, 2))));
        assertThat(TccChecker.check(h).ok()).isTrue();
    }

    @Test
    void writesTheDocumentedLayout() throws IOException {
        History h = History.builder()
                .committed(1, 1, write(1, 1), write(2, 1))
                .committed(2, 2, read(1, 1), read(2, 1))
                .aborted(3, 1, write(1, 2), read(2, 1))
                .build();
        assertThat(format(h)).isEqualTo("w(1,1,1,1)\nw(2,1,1,1)\nr(1,1,2,2)\nr(2,1,2,2)\nw(1,2,1,-1)\n");
    }

    @Test
    void roundTripsRandomHistories() throws IOException {
        for (long seed = 1; seed <= 20; seed++) {
            History h = HistoryGen.serial(new Random(seed),
                    new HistoryGen.Params(300, 7, 40, 4, 0.4, 0.0, seed % 2 == 0, 2, 10));
            History back = PlumeText.read(new StringReader(format(h)), h.finalSessions());
            assertThat(back).as("seed %d", seed).isEqualTo(h);
        }
    }

    @Test
    void roundTripsAbortedTransactionsInTheirCanonicalForm(@TempDir Path dir) throws IOException {
        // The reader names each session's aborted writes -(session + 1); with that id they round-trip exactly.
        History h = History.builder()
                .committed(10, 0, write(5, 1))
                .aborted(-4, 3, write(5, 2), write(6, 1))
                .committed(11, 3, read(5, 1), write(6, 2))
                .committed(12, 0, read(6, 2))
                .finalSession(0)
                .build();
        Path file = dir.resolve("h.txt");
        PlumeText.write(h, file);
        assertThat(PlumeText.read(file, Set.of(0L))).isEqualTo(h);
    }

    @Test
    void acceptsInterleavedLinesCrLfAndMissingFinalNewline() throws IOException {
        History h = parse("r(1,1,2,2)\r\nw(1,1,1,1)\r\nw(3,5,7,-1)\r\nr(4,0,2,2)\r\nw(2,4,1,1)\r\nr(9,9,9,-1)\r\nw(3,6,7,-1)");
        assertThat(h.transactions()).containsExactly(
                new Txn(2, 2, true, List.of(read(1, 1), read(4, 0))),
                new Txn(1, 1, true, List.of(write(1, 1), write(2, 4))),
                new Txn(-8, 7, false, List.of(write(3, 5), write(3, 6))));
        assertThat(TccChecker.check(h).ok()).isTrue();
    }

    @Test
    void sessionOfATransactionIsTheSessionOfItsFirstLine() throws IOException {
        History h = parse("w(1,1,4,1)\nw(2,1,5,1)\n");
        assertThat(h.transactions()).containsExactly(new Txn(1, 4, true, List.of(write(1, 1), write(2, 1))));
    }

    @Test
    void emptyInputIsAnEmptyHistory() throws IOException {
        assertThat(parse("").transactions()).isEmpty();
    }

    @Test
    void finalSessionsArePassedThrough() throws IOException {
        assertThat(parse("r(1,0,3,1)\n", 3L).finalSessions()).containsExactly(3L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"r(1,1,1)", "x(1,1,1,1)", " r(1,1,1,1)", "r(1,1,1,1) ", "r(1, 1,1,1)", "r(1,1,1,1",
            "r1,1,1,1)", "r(1,1,1,-2)", "r(-1,1,1,1)", "r(1,1,-1,1)", "r(1,1,1,1))", "w(1,1,1,--1)", "w()",
            "r(99999999999999999999,1,1,1)", "r(1,1,1,1)#c", "R(1,1,1,1)", "r(a,1,1,1)", "r(,1,1,1)"})
    void rejectsMalformedLinesWithTheLineNumber(String bad) {
        assertThatThrownBy(() -> parse("w(1,1,1,1)\n" + bad + "\nr(1,1,2,2)\n"))
                .isInstanceOf(HistoryFormatException.class)
                .hasMessageStartingWith("line 2: ")
                .satisfies(e -> assertThat(((HistoryFormatException) e).line()).isEqualTo(2));
    }

    @Test
    void rejectsBlankLines() {
        assertThatThrownBy(() -> parse("w(1,1,1,1)\n\nr(1,1,2,2)\n"))
                .isInstanceOf(HistoryFormatException.class).hasMessageContaining("line 2: blank line");
        assertThatThrownBy(() -> parse("w(1,1,1,1)\n   \n"))
                .isInstanceOf(HistoryFormatException.class).hasMessageContaining("line 2");
        assertThatThrownBy(() -> parse("w(1,1,1,1)\n\n"))
                .isInstanceOf(HistoryFormatException.class).hasMessageContaining("line 2");
    }

    @Test
    void writerRejectsWhatTheFormatCannotHold() {
        History negativeKey = History.builder().committed(1, 1, write(-1, 1)).build();
        assertThatThrownBy(() -> format(negativeKey)).isInstanceOf(IllegalArgumentException.class);
        History negativeId = History.builder().committed(-1, 1, write(1, 1)).build();
        assertThatThrownBy(() -> format(negativeId)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void builderRejectsDuplicateTransactionIds() {
        assertThatThrownBy(() -> History.builder().committed(1, 1).committed(1, 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duplicate transaction id 1");
    }

    @Test
    void readsFiles(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("x.txt");
        Files.writeString(f, "w(1,1,1,1)\nr(1,1,2,2)\n");
        assertThat(PlumeText.read(f, Set.of()).transactions()).hasSize(2);
    }

    // ---------------------------------------------------------------- typed operations (our extension)

    @Test
    void parsesTypedLines() throws IOException {
        History h = parse("add(1,4,1,1)\nadd(1,-3,1,1)\nmax(2,9,1,1)\nsadd(3,7,1,1)\nsrem(3,8,1,1)\ntopk(4,5:-2,1,1)\n"
                + "rc(1,-7,2,2)\nrm(2,0,2,2)\nrs(3,[9 7 8],2,2)\nrs(5,[],2,2)\nrt(4,3,[5:-2 6:-9],2,2)\nrt(4,0,[],2,2)\n"
                + "add(1,16,3,-1)\nrc(1,16,3,-1)\n");
        assertThat(h.transactions()).containsExactly(
                new Txn(1, 1, true, List.of(Op.add(1, 4), Op.add(1, -3), Op.max(2, 9), Op.setAdd(3, 7),
                        Op.setRemove(3, 8), Op.topkInsert(4, 5, -2))),
                new Txn(2, 2, true, List.of(Op.readCounter(1, -7), Op.readMax(2, 0), Op.readSet(3, 7, 8, 9),
                        Op.readSet(5), Op.readTopk(4, 3, new long[] {5, 6}, new long[] {-2, -9}),
                        Op.readTopk(4, 0, new long[0], new long[0]))),
                new Txn(-4, 3, false, List.of(Op.add(1, 16))));
    }

    @Test
    void writesTypedLinesAndReadsThemBack() throws IOException {
        History h = History.builder()
                .committed(1, 1, Op.add(1, -3), Op.max(2, 9), Op.setAdd(3, 7), Op.setRemove(3, 7),
                        Op.topkInsert(4, 5, 10), write(9, 1))
                .committed(2, 2, Op.readCounter(1, -3), Op.readMax(2, 9), Op.readSet(3, 8, 7), Op.readSet(6),
                        Op.readTopk(4, 2, new long[] {5, 1}, new long[] {10, -4}), read(9, 1))
                .aborted(-3, 2, Op.add(1, 8), Op.readCounter(1, 5))
                .build();
        String text = format(h);
        assertThat(text).isEqualTo("add(1,-3,1,1)\nmax(2,9,1,1)\nsadd(3,7,1,1)\nsrem(3,7,1,1)\ntopk(4,5:10,1,1)\n"
                + "w(9,1,1,1)\nrc(1,-3,2,2)\nrm(2,9,2,2)\nrs(3,[7 8],2,2)\nrs(6,[],2,2)\nrt(4,2,[5:10 1:-4],2,2)\n"
                + "r(9,1,2,2)\nadd(1,8,2,-1)\n");
        History back = parse(text);
        assertThat(back.transactions().subList(0, 2)).isEqualTo(h.transactions().subList(0, 2));
        assertThat(back.transactions().get(2)).isEqualTo(new Txn(-3, 2, false, List.of(Op.add(1, 8))));
    }

    @Test
    void extremeNumbersRoundTrip() throws IOException {
        History h = History.builder()
                .committed(1, 1, Op.add(1, Long.MIN_VALUE), Op.add(1, Long.MAX_VALUE), Op.max(2, Long.MAX_VALUE),
                        Op.readCounter(1, -1), Op.readTopk(3, Integer.MAX_VALUE, new long[] {Long.MAX_VALUE},
                                new long[] {Long.MIN_VALUE}))
                .build();
        assertThat(parse(format(h))).isEqualTo(h);
    }

    @Test
    void roundTripsRandomTypedHistories() throws IOException {
        for (long seed = 1; seed <= 20; seed++) {
            History h = TypedHistoryGen.serial(new Random(seed), 150, 5, 2, 0.0);
            History back = PlumeText.read(new StringReader(format(h)), h.finalSessions());
            assertThat(back).as("seed %d", seed).isEqualTo(h);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"add(1,--1,1,1)", "add(1,1,1)", "add(1,+1,1,1)", "ADD(1,1,1,1)", "add (1,1,1,1)",
            "max(1,1,1,1,1)", "sadd(1,-1,1,1)", "srem(1,a,1,1)", "topk(1,1,1,1)", "topk(1,1:,1,1)", "topk(1,:1,1,1)",
            "topk(1,-1:1,1,1)", "rc(1,1,1,1) ", "rm(1,1,1)", "rs(1,[1,2],1,1)", "rs(1,[ ],1,1)", "rs(1,[1 ],1,1)",
            "rs(1,[1  2],1,1)", "rs(1,1,1,1)", "rs(1,[1,1,1)", "rs(1,[-1],1,1)", "rt(1,2,[1:5 2],1,1)",
            "rt(1,2,[1:5],1)", "rt(1,-1,[],1,1)", "rt(1,99999999999,[],1,1)", "rt(1,[1:5],1,1)", "rt(1,2,[1:5:6],1,1)",
            "add(1,99999999999999999999,1,1)", "add(1,-99999999999999999999,1,1)", "rc(1,1,1,-2)", "(1,1,1,1)"})
    void rejectsMalformedTypedLinesWithTheLineNumber(String bad) {
        assertThatThrownBy(() -> parse("add(1,1,1,1)\n" + bad + "\nrc(1,1,2,2)\n"))
                .isInstanceOf(HistoryFormatException.class)
                .hasMessageStartingWith("line 2: ")
                .satisfies(e -> assertThat(((HistoryFormatException) e).line()).isEqualTo(2));
    }

    @Test
    void writerRejectsNegativeElementsAndItems() {
        History element = History.builder().committed(1, 1, Op.setAdd(1, -1)).build();
        assertThatThrownBy(() -> format(element)).isInstanceOf(IllegalArgumentException.class);
        History item = History.builder().committed(1, 1, Op.readTopk(1, 1, new long[] {-1}, new long[] {1})).build();
        assertThatThrownBy(() -> format(item)).isInstanceOf(IllegalArgumentException.class);
    }
}
