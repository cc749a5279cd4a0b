package io.fastccs.check;

import java.util.List;

/**
 * A transaction of a history.
 *
 * @param id        transaction id, unique within a history
 * @param session   client session that ran it; session order is the order of a session's
 *                  transactions in {@link History#transactions()}
 * @param committed {@code false} for an aborted transaction: its writes exist (so that reading
 *                  them is reported as an aborted read) but no committed transaction may read them
 * @param ops       operations in program order
 */
public record Txn(long id, long session, boolean committed, List<Op> ops) {

    public Txn {
        ops = List.copyOf(ops);
    }

    @Override
    public String toString() {
        return (committed ? "T" : "aborted T") + id + "@s" + session + ops;
    }
}
