package io.fastccs.client.internal;

import io.fastccs.client.WriteResult;

/** A confirmed write. */
record DefaultWriteResult(String transactionId, int size, int partitionsTouched) implements WriteResult {
}
