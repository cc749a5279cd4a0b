package io.fastccs.protocol;

import io.fastccs.protocol.messages.BasedClock;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.protocol.messages.ClockDiff;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.protocol.messages.CompactReadReply;
import io.fastccs.protocol.messages.CompactSecondRoundRead;
import io.fastccs.protocol.messages.CompactWaitingVersion;
import io.fastccs.protocol.messages.CompactWriteReply;
import io.fastccs.protocol.messages.CompactWriteRequest;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.protocol.messages.Rebase;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.WaitingVersion;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.primitives.VectorClock;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The wire forms of FastCCS's client messages and back (docs/design/stable-bases.md, "Clocks relative to a stable
 * base"): a request's clock relative to a stable base the client names; a reply's clocks as differences from the
 * request's clock, the maximum commit clock and the waiting versions' commit clocks first raised to it. Pure functions;
 * the partition holds the bases, the client session what it names.
 */
public final class ClockCompaction {
    private ClockCompaction() {
    }

    /** The request's clock, if it has one (reads and writes). */
    public static VectorClock clockOf(ClientRequest request) {
        if (request instanceof FirstRoundRead r) return r.clock();
        if (request instanceof SecondRoundRead r) return r.clock();
        if (request instanceof WriteRequest w) return w.clock();
        return null;
    }

    /**
     * {@code request} with its clock relative to the base of {@code epoch}, naming the entries in {@code explicit};
     * requests without a clock as they are.
     */
    public static ClientRequest compact(ClientRequest request, long epoch, BitSet explicit, long rebaseTo) {
        if (request instanceof FirstRoundRead r)
            return new CompactFirstRoundRead(r.requestId(), r.keys(), BasedClock.of(epoch, r.clock(), explicit), rebaseTo);
        if (request instanceof SecondRoundRead r)
            return new CompactSecondRoundRead(r.requestId(), r.keys(), BasedClock.of(epoch, r.clock(), explicit),
                    r.firstRoundTime());
        if (request instanceof WriteRequest w)
            return new CompactWriteRequest(w.requestId(), w.txnId(), w.coordinator(), w.participants(), w.writes(),
                    BasedClock.of(epoch, w.clock(), explicit), w.dependencyTime());
        return request;
    }

    /**
     * The highest sequence number of partition {@code self} a read answer, full or compact, shows (its snapshot's or
     * returned versions' own entry): what a host holds it back for until durable; -1 for any other response.
     */
    public static long shows(ClientResponse response, int self) {
        if (response instanceof ReadReply r) return Math.max(r.snapshot().get(self), r.maxCommitClock().get(self));
        if (response instanceof CompactReadReply r) return r.shows();
        return -1;
    }

    /** The clock of a compact request, null for others. */
    public static BasedClock basedClockOf(ClientRequest request) {
        if (request instanceof CompactFirstRoundRead r) return r.clock();
        if (request instanceof CompactSecondRoundRead r) return r.clock();
        if (request instanceof CompactWriteRequest w) return w.clock();
        return null;
    }

    /** A compact request with its clock expanded on {@code base} (the base of its epoch). */
    public static ClientRequest expand(ClientRequest request, long[] base) {
        if (request instanceof CompactFirstRoundRead r)
            return new FirstRoundRead(r.requestId(), r.keys(), r.clock().expand(base));
        if (request instanceof CompactSecondRoundRead r)
            return new SecondRoundRead(r.requestId(), r.keys(), r.clock().expand(base), r.firstRoundTime());
        if (request instanceof CompactWriteRequest w)
            return new WriteRequest(w.requestId(), w.txnId(), w.coordinator(), w.participants(), w.writes(),
                    w.clock().expand(base), w.dependencyTime());
        return request;
    }

    /**
     * A reply of partition {@code self} to a request whose clock was {@code requestClock}, as it goes on the wire. The
     * maximum commit clock and the waiting versions' commit clocks are raised to the request's clock first: the client
     * merges its clock with them anyway, and compares them only with clocks at least its own, so nothing it decides
     * changes, and what is left to send is what the request did not know. The snapshot goes as its own entry only,
     * the request's clock standing for the others: a lower bound of it, which only makes the client's pairwise check
     * stricter, while the check that rules a round two out uses the own entry alone (docs/design/stable-bases.md,
     * "Answers").
     */
    public static ClientResponse compact(ClientResponse response, VectorClock requestClock, int self, long shows,
                                         long stableEpoch, Rebase rebase) {
        if (response instanceof ReadReply r) {
            List<CompactWaitingVersion> waiting = new ArrayList<>(r.waiting().size());
            for (WaitingVersion w : r.waiting())
                waiting.add(new CompactWaitingVersion(w.key(), w.value(), w.sequence(),
                        ClockDiff.between(requestClock, w.commitClock().max(requestClock)), w.commitTime(), w.kind()));
            VectorClock ownEntry = r.snapshot().get(self) == requestClock.get(self) ? requestClock
                    : requestClock.with(self, r.snapshot().get(self));
            return new CompactReadReply(r.requestId(), r.values(), ClockDiff.between(requestClock, ownEntry),
                    ClockDiff.between(requestClock, r.maxCommitClock().max(requestClock)), r.maxCommitTime(), r.serverTime(),
                    waiting, r.waitingComplete(), shows, stableEpoch, rebase);
        }
        if (response instanceof WriteReply w)
            return new CompactWriteReply(w.requestId(), w.txnId(), w.outcome(),
                    w.commitClock() == null ? null : ClockDiff.between(requestClock, w.commitClock()), w.commitTime());
        return response;
    }

    /**
     * A compact reply as the full one, given the clock of the request it answers.
     *
     * @throws IllegalArgumentException when a difference does not fit that clock (a reply to another request)
     */
    public static ClientResponse expand(ClientResponse response, VectorClock requestClock) {
        if (response instanceof CompactReadReply r) {
            List<WaitingVersion> waiting = new ArrayList<>(r.waiting().size());
            for (CompactWaitingVersion w : r.waiting())
                waiting.add(new WaitingVersion(w.key(), w.value(), w.sequence(), w.commitClock().applyTo(requestClock),
                        w.commitTime(), w.kind()));
            return new ReadReply(r.requestId(), r.values(), r.snapshot().applyTo(requestClock),
                    r.maxCommitClock().applyTo(requestClock), r.maxCommitTime(), r.serverTime(), waiting, r.waitingComplete(),
                    r.stableEpoch());
        }
        if (response instanceof CompactWriteReply w)
            return new WriteReply(w.requestId(), w.txnId(), w.outcome(),
                    w.commitClock() == null ? null : w.commitClock().applyTo(requestClock), w.commitTime());
        return response;
    }
}
