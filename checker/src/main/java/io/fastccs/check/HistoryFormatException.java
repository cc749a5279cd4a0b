package io.fastccs.check;

import java.io.IOException;

/** A history file is malformed; the message names the offending line. */
public final class HistoryFormatException extends IOException {

    private final long line;

    HistoryFormatException(long line, String message) {
        super("line " + line + ": " + message);
        this.line = line;
    }

    /** The 1-based line number of the malformed line. */
    public long line() {
        return line;
    }
}
