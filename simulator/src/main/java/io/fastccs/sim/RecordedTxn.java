package io.fastccs.sim;

import io.fastccs.check.Op;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.spi.WriteStep;
import io.fastccs.core.messages.Outcome;

import java.util.ArrayList;
import java.util.List;

/** One transaction as the history will show it, with what the verifier needs beyond the history. */
final class RecordedTxn {
    final long txnId;
    final long session;
    final boolean write;
    final List<Op> ops = new ArrayList<>();
    Outcome outcome = Outcome.UNDECIDED;
    /** The write's place in the protocol's arbitration order, once known. */
    Object commitStamp;
    WriteStep transaction;
    boolean acknowledged;
    /** What the write's participants answered its requests, seen where they answered (the network may lose them). */
    final List<ClientResponse> answers = new ArrayList<>(0);

    RecordedTxn(long txnId, long session, boolean write) {
        this.txnId = txnId;
        this.session = session;
        this.write = write;
    }

    /** The keys of its plain reads and writes, in order (typed operations have no value that names a write). */
    long[] keys() {
        return ops.stream().filter(o -> !o.isTyped()).mapToLong(Op::key).toArray();
    }

    /** The values its plain operations read or wrote, in the order of {@link #keys()}. */
    long[] values() {
        return ops.stream().filter(o -> !o.isTyped()).mapToLong(Op::value).toArray();
    }
}
