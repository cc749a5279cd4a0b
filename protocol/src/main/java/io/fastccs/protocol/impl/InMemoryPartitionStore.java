package io.fastccs.protocol.impl;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.core.messages.Outcome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link PartitionStore} in memory. It survives the {@code Partition} object that uses it, so the simulator
 * "crashes" a partition by dropping the partition and starting a new one on the same store: exactly what was
 * written is what a durable store would have kept.
 */
public final class InMemoryPartitionStore implements PartitionStore {
    private final Map<Key, ArrayList<Version>> versions = new HashMap<>();
    private final TreeMap<Long, TxnRecord> transactions = new TreeMap<>();
    private final Map<TxnId, Long> sequenceOf = new HashMap<>();
    private final Map<TxnId, Decision> decisions = new LinkedHashMap<>();
    private VectorClock snapshot;
    private long versionCount;

    @Override
    public void savePrepared(TxnRecord record) {
        transactions.put(record.sequence(), record);
        sequenceOf.put(record.txnId(), record.sequence());
    }

    @Override
    public void saveOutcome(TxnId txnId, long sequence, Outcome outcome, VectorClock commitClock, long commitTime) {
        TxnRecord r = transactions.get(sequence);
        if (r != null && r.txnId().equals(txnId)) transactions.put(sequence, r.withOutcome(outcome, commitClock, commitTime));
    }

    @Override
    public void saveSnapshot(VectorClock snapshot, int self, long recordsUpTo) {
        this.snapshot = snapshot;
        var head = transactions.headMap(Math.min(recordsUpTo, snapshot.get(self)), true);
        for (TxnRecord r : head.values()) sequenceOf.remove(r.txnId());
        head.clear();
    }

    @Override
    public void saveDecision(Decision decision) {
        decisions.put(decision.txnId(), decision);
    }

    @Override
    public void forgetDecision(TxnId txnId) {
        decisions.remove(txnId);
    }

    @Override
    public List<Version> versions(Key key) {
        List<Version> list = versions.get(key);
        return list == null ? List.of() : list;
    }

    @Override
    public void putVersion(Key key, Version version) {
        ArrayList<Version> list = versions.computeIfAbsent(key, k -> new ArrayList<>(2));
        for (Version v : list) if (v.sequence() == version.sequence()) return;
        int i = 0;
        while (i < list.size() && Version.NEWEST_FIRST.compare(list.get(i), version) < 0) i++;
        list.add(i, version); // newest first; usually i is 0
        versionCount++;
    }

    @Override
    public void removeVersionsOlderThan(Key key, Version newestKept) {
        ArrayList<Version> list = versions.get(key);
        if (list == null) return;
        int before = list.size();
        list.removeIf(v -> Version.NEWEST_FIRST.compare(v, newestKept) > 0);
        versionCount -= before - list.size();
    }

    @Override
    public void replaceVersions(Key key, List<Version> folded, Version base) {
        ArrayList<Version> list = versions.get(key);
        if (list == null) return;
        int before = list.size();
        for (Version f : folded) list.removeIf(v -> v.sequence() == f.sequence());
        versionCount -= before - list.size();
        putVersion(key, base);
    }

    @Override
    public Recovered recover() {
        return new Recovered(snapshot, List.copyOf(transactions.values()), List.copyOf(decisions.values()));
    }

    @Override
    public java.util.Collection<Key> keysWithOlderVersions() {
        List<Key> keys = new ArrayList<>();
        for (Map.Entry<Key, ArrayList<Version>> e : versions.entrySet()) if (e.getValue().size() > 1) keys.add(e.getKey());
        return keys;
    }

    /** An independent copy with the same contents (a replica that holds what this one holds). */
    public InMemoryPartitionStore copy() {
        InMemoryPartitionStore c = new InMemoryPartitionStore();
        versions.forEach((key, list) -> c.versions.put(key, new ArrayList<>(list)));
        c.transactions.putAll(transactions);
        c.sequenceOf.putAll(sequenceOf);
        c.decisions.putAll(decisions);
        c.snapshot = snapshot;
        c.versionCount = versionCount;
        return c;
    }

    /** Number of stored versions over all keys. */
    public long versionCount() {
        return versionCount;
    }

    public int keyCount() {
        return versions.size();
    }

    public int decisionCount() {
        return decisions.size();
    }

    public int transactionRecordCount() {
        return transactions.size();
    }
}
