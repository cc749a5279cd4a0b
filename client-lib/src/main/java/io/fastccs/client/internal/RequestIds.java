package io.fastccs.client.internal;

import java.util.concurrent.atomic.AtomicLong;

/** Request ids for every message the client sends: unique client-wide, hence unique on every connection. */
final class RequestIds {
    private final AtomicLong last = new AtomicLong();

    long next() {
        return last.incrementAndGet();
    }
}
