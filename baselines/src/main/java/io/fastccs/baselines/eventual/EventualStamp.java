package io.fastccs.baselines.eventual;

/**
 * Where a write sits in last-writer-wins order, as Cassandra's client timestamps place it: a Lamport time the client
 * picks (above every time it heard of), then the client and its transaction to break ties.
 */
public record EventualStamp(long time, long clientId, long txnSequence) implements Comparable<EventualStamp> {
    @Override
    public int compareTo(EventualStamp o) {
        int c = Long.compare(time, o.time);
        if (c != 0) return c;
        c = Long.compare(clientId, o.clientId);
        return c != 0 ? c : Long.compare(txnSequence, o.txnSequence);
    }
}
