package io.fastccs.client.internal;

import io.fastccs.client.WriteResult;

/** A confirmed write. */
record DefaultWriteResult(String transactionId, int size, int partitionsTouched, long[] clock, long commitTime)
        implements WriteResult {
    @Override
    public long[] commitClock() {
        return clock.clone();
    }
}
