package io.fastccs.baselines.wren;

import io.fastccs.core.primitives.TxnId;

/**
 * Where a committed Wren write sits in the arbitration order: its commit time, ties broken by the transaction id. A
 * partition shows the greatest stamp at or below a snapshot time as a key's value.
 */
public record WrenStamp(long ct, TxnId txn) implements Comparable<WrenStamp> {
    @Override
    public int compareTo(WrenStamp o) {
        int c = Long.compare(ct, o.ct);
        return c != 0 ? c : txn.compareTo(o.txn);
    }

    @Override
    public String toString() {
        return Hlc.format(ct) + "/" + txn;
    }
}
