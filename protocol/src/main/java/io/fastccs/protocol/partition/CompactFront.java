package io.fastccs.protocol.partition;

import io.fastccs.protocol.ClockCompaction;
import io.fastccs.core.api.ClientReply;
import io.fastccs.protocol.messages.BasedClock;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.protocol.messages.CompactCommit;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.primitives.VectorClock;

/**
 * Clocks relative to a stable base in front of the partition, as the client's {@code FastCcsProtocol.Wire} does on its
 * side: a compact request is expanded on our base of its epoch before the roles see it, and its reply compacted on the
 * way out, its clocks as differences from the request's (docs/design/stable-bases.md, "Requests"). The roles
 * behind it see full clocks only.
 */
final class CompactFront {
    private final PartitionState state;
    private final Stabilization stabilization;

    CompactFront(PartitionState state, Stabilization stabilization) {
        this.state = state;
        this.stabilization = stabilization;
    }

    /**
     * A compact request as the partition handles it: the full request, the reply that compacts what it is answered,
     * and the epoch of the base the client named.
     */
    record Expanded(ClientRequest request, ClientReply reply, long baseEpoch) {
    }

    /**
     * {@code compact} expanded, or null when it is refused (answered already): when we do not know the base of its
     * epoch, the client sends it again relative to epoch 0.
     */
    Expanded expand(ClientReply reply, ClientRequest compact) {
        BasedClock based = ClockCompaction.basedClockOf(compact);
        long[] base = stabilization.baseOf(based.epoch());
        if (base == null) {
            state.metrics.baseUnknown++;
            state.refuse(reply, ErrorReply.of(compact.requestId(), ErrorCode.BASE_UNKNOWN, "partition " + state.self
                    + " does not know the stable base of epoch " + based.epoch() + "; send the clock relative to epoch 0"));
            return null;
        }
        ClientRequest full;
        try {
            full = ClockCompaction.expand(compact, base);
        } catch (IllegalArgumentException e) {
            state.refuse(reply, ErrorReply.of(compact.requestId(), ErrorCode.INVALID_REQUEST, e.getMessage()));
            return null;
        }
        VectorClock requestClock = ClockCompaction.clockOf(full);
        long rebaseTo = compact instanceof CompactFirstRoundRead r ? r.rebaseTo() : 0;
        int self = state.self;
        ClientReply compacting = response -> reply.reply(ClockCompaction.compact(response, requestClock, self,
                ClockCompaction.shows(response, self), stabilization.stableEpoch(),
                rebaseTo > 0 ? stabilization.rebase(requestClock, rebaseTo) : null));
        return new Expanded(full, compacting, based.epoch());
    }

    /**
     * A commit decision relative to a stable base, expanded; null when we cannot expand it (we do not know its base),
     * and the participant then asks the coordinator, which answers relative to a newer base, or whole.
     */
    Commit expand(CompactCommit c) {
        long[] base = stabilization.baseOf(c.commitClock().epoch());
        if (base == null || c.commitClock().size() > state.n) {
            state.metrics.commitsUnexpanded++;
            return null;
        }
        return new Commit(c.txnId(), c.commitClock().expand(base), c.commitTime());
    }
}
