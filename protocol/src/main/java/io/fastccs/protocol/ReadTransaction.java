package io.fastccs.protocol;

import io.fastccs.core.Outgoing;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.spi.PartitionAnswer;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.WaitingVersion;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.core.primitives.KeyType;
import io.fastccs.protocol.typed.TypedFold;
import io.fastccs.core.typed.TypedValues;
import io.fastccs.core.primitives.WriteKind;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A read-only transaction (algorithm 1, lines 2-19): one round to every partition holding a key, then, only for
 * partitions whose snapshot does not cover what another partition returned, a second round at the merged clock.
 * Never more than two rounds, and no partition ever blocks it.
 */
public final class ReadTransaction {
    /**
     * The outcome of a finished read. {@code values} keeps the order the keys were given in.
     *
     * @param secondRoundsRuledOut partitions that failed the pairwise check but were not read again: the client worked
     *                             out from their answers what a round two would return (see {@link #afterFirstRound()})
     * @param answers              each partition's final answer, with the clock it read at, for the client cache
     */
    public record Result(Map<Key, ReadValue> values, int rounds, int secondRoundPartitions, int secondRoundsRuledOut,
                         List<PartitionAnswer> answers) {
    }

    private enum State { NEW, FIRST_ROUND, SECOND_ROUND, DONE, FAILED }

    private final ClientSession session;
    private final List<Key> keys;
    private final TreeMap<Integer, List<Key>> keysByPartition = new TreeMap<>();
    private final Map<Long, Integer> awaiting = new HashMap<>();
    private final Map<Integer, ReadReply> firstRound = new HashMap<>();
    private final Map<Integer, ReadReply> secondRound = new HashMap<>();
    /** Answers of partitions not read again, as a round two would have answered at the merged clock. */
    private final Map<Integer, ReadReply> resolved = new HashMap<>();
    /**
     * Keys the client's cache answers, by partition, none on a partition read in round one: each the newest of its key
     * up to its {@code readAt} (docs/design/client-cache.md, "Full hits, partial hits, misses").
     */
    private final TreeMap<Integer, List<PartitionAnswer>> served = new TreeMap<>();
    /** Served keys that do not fit the merged clock, by partition: read in round two. */
    private final Map<Integer, List<Key>> servedAgain = new HashMap<>();
    /** Round one's clock: the session's, joined with the served versions' commit clocks. */
    private final VectorClock roundOneClock;
    private State state = State.NEW;
    private VectorClock merged;
    private int ruledOut;
    private Result result;
    private ErrorReply failure;

    ReadTransaction(ClientSession session, Collection<Key> keys) {
        this(session, keys, List.of());
    }

    /** @param cached answers of the client's cache for some of {@code keys}, on partitions holding no other key read */
    ReadTransaction(ClientSession session, Collection<Key> keys, List<PartitionAnswer> cached) {
        if (keys.isEmpty()) throw new IllegalArgumentException("a read needs at least one key");
        this.session = session;
        this.keys = List.copyOf(new LinkedHashSet<>(keys));
        VectorClock clock = session.clock();
        Set<Key> servedKeys = new HashSet<>();
        for (PartitionAnswer a : cached) {
            served.computeIfAbsent(a.partition(), p -> new ArrayList<>()).add(a);
            for (ReadValue v : a.values()) servedKeys.add(v.key());
            clock = clock.max(a.maxCommitClock());
        }
        roundOneClock = clock;
        for (Key k : this.keys)
            if (!servedKeys.contains(k))
                keysByPartition.computeIfAbsent(session.topology().ownerOf(k), p -> new ArrayList<>()).add(k);
        if (keysByPartition.isEmpty() || servedKeys.size() + keysByPartition.values().stream().mapToInt(List::size).sum()
                != this.keys.size() || keysByPartition.keySet().stream().anyMatch(served::containsKey))
            throw new IllegalArgumentException("cached answers must be for some of the keys, on partitions read for no other");
    }

    /** The partitions this read touches. */
    public Collection<Integer> partitions() {
        return keysByPartition.keySet();
    }

    /** Round one: a request to every partition that holds one of the keys. */
    public List<Outgoing> start() {
        if (state != State.NEW) throw new IllegalStateException("already started");
        state = State.FIRST_ROUND;
        List<Outgoing> out = new ArrayList<>(keysByPartition.size());
        for (Map.Entry<Integer, List<Key>> e : keysByPartition.entrySet()) {
            long id = session.nextRequestId();
            awaiting.put(id, e.getKey());
            out.add(new Outgoing(e.getKey(), new FirstRoundRead(id, e.getValue(), roundOneClock)));
        }
        return out;
    }

    /**
     * Feeds one response; returns the requests to send next (the second round), usually none. Responses to
     * requests this transaction is not waiting for are ignored.
     */
    public List<Outgoing> onResponse(ClientResponse response) {
        Integer partition = awaiting.remove(response.requestId());
        if (partition == null || isFinished()) return List.of();
        if (response instanceof ErrorReply e) {
            fail(e);
            return List.of();
        }
        List<Key> asked = keysByPartition.containsKey(partition) ? keysByPartition.get(partition) : servedAgain.get(partition);
        if (!(response instanceof ReadReply reply) || !answersKeys(reply, asked)
                || reply.snapshot().size() != session.clock().size()
                || reply.maxCommitClock().size() != session.clock().size()
                || reply.waiting().stream().anyMatch(w -> w.commitClock().size() != session.clock().size())) {
            fail(ErrorReply.of(response.requestId(), ErrorCode.INTERNAL, "unexpected answer to a read: " + response));
            return List.of();
        }
        if (state == State.FIRST_ROUND) {
            firstRound.put(partition, reply);
            if (firstRound.size() == keysByPartition.size()) return afterFirstRound();
        } else {
            secondRound.put(partition, reply);
            if (awaiting.isEmpty()) finish(2);
        }
        return List.of();
    }

    private static boolean answersKeys(ReadReply reply, List<Key> asked) {
        if (reply.values().size() != asked.size()) return false;
        for (int i = 0; i < asked.size(); i++) {
            ReadValue v = reply.values().get(i);
            if (v == null || !v.key().equals(asked.get(i))) return false;
            // A typed key's value is a fold of its type (what the client folds waiting operations into).
            if (v.type() != KeyType.REGISTER && (v.value() == null || TypedValues.typeOf(v.value()) != v.type())) return false;
        }
        return true;
    }

    /**
     * The check of algorithm 1, lines 7-12: partition i is re-read unless svc_i covers ctm_j of every other j, or unless
     * its answer says what a round two would return: it listed every version it left out within its snapshot's own
     * entry, and the merged clock does not go beyond that entry, so a round two at i would return, per key, the newest
     * listed version within the merged clock, else the one returned (docs/design/second-rounds.md, "Why it is the
     * answer of a round two").
     */
    private List<Outgoing> afterFirstRound() {
        VectorClock clock = roundOneClock;
        for (ReadReply r : firstRound.values()) clock = clock.max(r.maxCommitClock());
        merged = clock;
        List<Outgoing> out = new ArrayList<>();
        readServedAgain(out);
        if (!session.has(Bug.SKIP_SECOND_ROUND)) {
            for (Map.Entry<Integer, ReadReply> i : firstRound.entrySet()) {
                if (coversAll(i.getValue().snapshot())) continue;
                if (i.getValue().waitingComplete() && merged.get(i.getKey()) <= i.getValue().snapshot().get(i.getKey())
                        && !waitingRemoveWithin(i.getValue())) {
                    resolved.put(i.getKey(), atMergedClock(i.getValue()));
                    ruledOut++;
                    continue;
                }
                long id = session.nextRequestId();
                awaiting.put(id, i.getKey());
                out.add(new Outgoing(i.getKey(), new SecondRoundRead(id, keysByPartition.get(i.getKey()), merged,
                        i.getValue().serverTime())));
            }
        }
        if (out.isEmpty()) finish(1);
        else state = State.SECOND_ROUND;
        out.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
        return out;
    }

    /** Whether a set remove waits within the merged clock: the client cannot fold it in (TypedFold), so it reads again. */
    private boolean waitingRemoveWithin(ReadReply first) {
        for (WaitingVersion w : first.waiting())
            if (w.kind() == WriteKind.SET_REMOVE && w.commitClock().leq(merged)) return true;
        return false;
    }

    /**
     * {@code first} as a round two at the merged clock would answer: a listed waiting version replaces a value it covers;
     * a typed key's waiting operations within the clock are folded into its value.
     */
    private ReadReply atMergedClock(ReadReply first) {
        if (first.waiting().isEmpty()) return first;
        List<ReadValue> values = new ArrayList<>(first.values().size());
        VectorClock maxCommit = first.maxCommitClock();
        long maxCommitTime = first.maxCommitTime();
        for (ReadValue v : first.values()) {
            if (v.type() != KeyType.REGISTER) {
                TypedFold fold = new TypedFold(v.type()).addResult(v.value());
                long sequence = v.sequence();
                for (WaitingVersion w : first.waiting()) {
                    // A remove within the merged clock made the client read the partition again (waitingRemoveWithin).
                    if (!w.key().equals(v.key()) || w.kind() == WriteKind.SET_REMOVE
                            || !(session.has(Bug.WAITING_VERSION_UNCHECKED) || w.commitClock().leq(merged)))
                        continue;
                    fold.add(new Version(w.sequence(), w.commitClock(), w.commitTime(), w.value(), w.kind()));
                    maxCommit = maxCommit.max(w.commitClock());
                    maxCommitTime = Math.max(maxCommitTime, w.commitTime());
                    sequence = Math.max(sequence, w.sequence());
                }
                values.add(new ReadValue(v.key(), fold.result(), sequence, v.type()));
                continue;
            }
            WaitingVersion chosen = null;
            for (WaitingVersion w : first.waiting()) // newest first per key
                if (w.key().equals(v.key()) && (session.has(Bug.WAITING_VERSION_UNCHECKED) || w.commitClock().leq(merged))) {
                    chosen = w;
                    break;
                }
            if (chosen == null) {
                values.add(v);
            } else {
                values.add(new ReadValue(v.key(), chosen.value(), chosen.sequence()));
                maxCommit = maxCommit.max(chosen.commitClock());
                maxCommitTime = Math.max(maxCommitTime, chosen.commitTime());
            }
        }
        return new ReadReply(first.requestId(), values, first.snapshot(), maxCommit, maxCommitTime, first.serverTime(),
                List.of(), false);
    }

    private boolean coversAll(VectorClock snapshot) {
        for (ReadReply j : firstRound.values())
            if (!j.maxCommitClock().leq(snapshot)) return false;
        for (List<PartitionAnswer> answers : served.values())
            for (PartitionAnswer a : answers) if (!a.maxCommitClock().leq(snapshot)) return false;
        return true;
    }

    /**
     * Served keys not the newest of their keys at the merged clock (a fetched version depends on a newer write on their
     * partition) are read in round two at it, echoing the oldest round one time their entries rest on, so the
     * partition's retention check holds for each (docs/design/client-cache.md, "Full hits, partial hits, misses").
     */
    private void readServedAgain(List<Outgoing> out) {
        for (Map.Entry<Integer, List<PartitionAnswer>> e : served.entrySet()) {
            List<Key> again = new ArrayList<>();
            long roundOneTime = Long.MAX_VALUE;
            for (PartitionAnswer a : e.getValue()) {
                if (merged.leq(a.readAt())) continue;
                for (ReadValue v : a.values()) again.add(v.key());
                roundOneTime = Math.min(roundOneTime, a.roundOneTime());
            }
            if (again.isEmpty()) continue;
            long id = session.nextRequestId();
            awaiting.put(id, e.getKey());
            servedAgain.put(e.getKey(), again);
            out.add(new Outgoing(e.getKey(), new SecondRoundRead(id, again, merged, roundOneTime)));
        }
    }

    private void finish(int rounds) {
        Map<Key, ReadValue> byKey = new HashMap<>();
        List<PartitionAnswer> answers = new ArrayList<>(firstRound.size());
        VectorClock clock = merged;
        long time = 0;
        for (Map.Entry<Integer, ReadReply> e : firstRound.entrySet()) {
            int p = e.getKey();
            ReadReply first = e.getValue();
            ReadReply r = secondRound.containsKey(p) ? secondRound.get(p) : resolved.getOrDefault(p, first);
            clock = clock.max(r.maxCommitClock());
            time = Math.max(time, r.maxCommitTime());
            for (ReadValue v : r.values()) byKey.put(v.key(), v);
            answers.add(new PartitionAnswer(p, r.values(), readAt(p, first, r), r.maxCommitClock(), r.maxCommitTime(),
                    first.serverTime()));
        }
        for (Map.Entry<Integer, List<PartitionAnswer>> e : served.entrySet()) {
            ReadReply again = secondRound.get(e.getKey());
            for (PartitionAnswer a : e.getValue()) {
                if (again != null && !merged.leq(a.readAt())) continue;
                clock = clock.max(a.maxCommitClock());
                time = Math.max(time, a.maxCommitTime());
                for (ReadValue v : a.values()) byKey.put(v.key(), v);
            }
            if (again == null) continue;
            clock = clock.max(again.maxCommitClock());
            time = Math.max(time, again.maxCommitTime());
            for (ReadValue v : again.values()) byKey.put(v.key(), v);
            long roundOneTime = e.getValue().stream().mapToLong(PartitionAnswer::roundOneTime).min().orElseThrow();
            answers.add(new PartitionAnswer(e.getKey(), again.values(), readAt(e.getKey(), null, again),
                    again.maxCommitClock(), again.maxCommitTime(), roundOneTime));
        }
        Map<Key, ReadValue> ordered = new LinkedHashMap<>();
        for (Key k : keys) ordered.put(k, byKey.get(k));
        session.advance(clock, time);
        result = new Result(ordered, rounds, secondRound.size(), ruledOut, answers);
        state = State.DONE;
    }

    /**
     * The clock partition {@code p}'s final answer {@code r} read at: round one's snapshot; a round two's (asked or
     * worked out) is the merged clock, its own entry capped at what the partition settled, which the client knows
     * only as far as the answer's snapshot (docs/design/client-cache.md, "What an entry holds").
     */
    private VectorClock readAt(int p, ReadReply first, ReadReply r) {
        if (r == first) return first.snapshot();
        return merged.with(p, Math.min(merged.get(p), r.snapshot().get(p)));
    }

    private void fail(ErrorReply e) {
        failure = e;
        state = State.FAILED;
        awaiting.clear();
    }

    public boolean isFinished() {
        return state == State.DONE || state == State.FAILED;
    }

    public boolean succeeded() {
        return state == State.DONE;
    }

    /** The result, once {@link #succeeded()}. */
    public Result result() {
        if (state != State.DONE) throw new IllegalStateException("read not done: " + state);
        return result;
    }

    /** Why the read failed, once finished without success. */
    public ErrorReply failure() {
        return failure;
    }

    /** 1 or 2 while running. */
    public int round() {
        return state == State.SECOND_ROUND ? 2 : 1;
    }
}
