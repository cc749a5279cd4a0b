package io.fastccs.core.spi;

import io.fastccs.core.Outgoing;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ErrorReply;

import java.util.List;

/**
 * A read-only transaction as a step machine: {@link #start()} gives the first requests, each response may give more,
 * until {@link #isFinished()}. Pure state: the host sends and delivers.
 */
public interface ReadStep {
    List<Outgoing> start();

    /** Feeds one response; returns the requests to send next (often none). Late or unknown responses are ignored. */
    List<Outgoing> onResponse(ClientResponse response);

    boolean isFinished();

    /** Finished with values (not with an error). */
    boolean succeeded();

    /** The values; only once {@link #succeeded()}. */
    ReadResult result();

    /** Why it failed; only once finished without success. */
    ErrorReply failure();
}
