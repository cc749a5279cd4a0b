package io.fastccs.core.primitives;

/**
 * A write transaction's id: the issuing client's random 64-bit id and that client's own counter,
 * so ids are unique without coordination (thesis section 3.5).
 */
public record TxnId(long client, long sequence) implements Comparable<TxnId> {
    @Override
    public int compareTo(TxnId o) {
        int c = Long.compare(client, o.client);
        return c != 0 ? c : Long.compare(sequence, o.sequence);
    }

    @Override
    public String toString() {
        return Long.toHexString(client) + ":" + sequence;
    }
}
