package io.fastccs.core.primitives;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The consistency protocol a cluster runs, chosen at start and named by the same word everywhere: the nodes'
 * {@code protocol} setting, the client builder, the stress tool's {@code -mode} and the simulator's {@code --protocol}.
 */
public enum Protocol {
    /** Transactional causal consistency as the thesis's chapter 3 builds it: usually one round per read. */
    FASTCCS,
    /** Eiger (NSDI 2013): Lamport clocks and validity intervals; a second round, sometimes a third, when they disagree. */
    EIGER,
    /** Wren (DSN 2018): hybrid clocks and a stable snapshot fixed by a start round; two rounds per read. */
    WREN,
    /** No guarantees beyond convergence: one round, newest value, writes applied at once (the thesis's baseline). */
    EVENTUAL;

    /** The word used in settings and command lines. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The protocol named {@code word} (any case); a clear error naming the known words otherwise. */
    public static Protocol parse(String word) {
        for (Protocol p : values())
            if (p.word().equalsIgnoreCase(word.trim())) return p;
        throw new IllegalArgumentException("unknown protocol '" + word + "'; known: "
                + Arrays.stream(values()).map(Protocol::word).collect(Collectors.joining(", ")));
    }
}
