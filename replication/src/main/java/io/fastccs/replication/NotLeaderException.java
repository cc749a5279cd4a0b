package io.fastccs.replication;

import java.util.Optional;

/** This member does not lead its group (or its lease ran out): retry at the leader it names, if it knows one. */
public final class NotLeaderException extends Exception {
    private final String leaderHint;

    public NotLeaderException(String message, String leaderHint) {
        super(message);
        this.leaderHint = leaderHint;
    }

    /** The node id of the member believed to lead, if any. */
    public Optional<String> leaderHint() {
        return Optional.ofNullable(leaderHint);
    }
}
