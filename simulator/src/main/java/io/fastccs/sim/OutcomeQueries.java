package io.fastccs.sim;

import io.fastccs.core.Outgoing;
import io.fastccs.core.messages.Outcome;

/**
 * A client that lost track of a write asks its coordinator (as the restarted client would, at once and then every
 * 200 ms) until the outcome is decided; coordinators keep decisions long enough for that.
 */
final class OutcomeQueries {
    private final EventQueue events;
    private final SimPartitions partitions;
    private final SimStats stats;
    private final int node;

    /** @param node the network node the questions come from */
    OutcomeQueries(EventQueue events, SimPartitions partitions, SimStats stats, int node) {
        this.events = events;
        this.partitions = partitions;
        this.stats = stats;
        this.node = node;
    }

    void ask(RecordedTxn rec, long delay) {
        events.schedule(delay, () -> {
            if (rec.outcome != Outcome.UNDECIDED) return;
            Outgoing q = rec.transaction.queryOutcome();
            if (q == null) return; // nothing to ask in this protocol
            partitions.sendToPartition(node, q.partition(), q.request(), response -> {
                rec.transaction.onResponse(response);
                if (rec.outcome == Outcome.UNDECIDED && rec.transaction.outcome() != Outcome.UNDECIDED) {
                    rec.outcome = rec.transaction.outcome();
                    rec.commitStamp = rec.transaction.commitStamp();
                    stats.outcomesResolved.merge(rec.outcome, 1L, Long::sum);
                }
            });
            ask(rec, 200_000);
        });
    }
}
