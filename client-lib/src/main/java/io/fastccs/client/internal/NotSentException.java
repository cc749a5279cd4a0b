package io.fastccs.client.internal;

import io.fastccs.client.PartitionUnavailableException;

/**
 * A request that never left the client: there was no open connection to its partition. Nothing was done, so even a
 * write request may be sent again.
 */
final class NotSentException extends PartitionUnavailableException {
    private static final long serialVersionUID = 1L;

    NotSentException(int partition, String message) {
        super(partition, message);
    }
}
