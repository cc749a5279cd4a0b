package io.fastccs.baselines.eventual;

import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.ClientReply;
import io.fastccs.core.api.Topology;
import io.fastccs.core.api.WriteLog;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.spi.PartitionServer;
import io.fastccs.core.RequestChecks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A partition without causal guarantees, as the thesis's "original Cassandra": a read returns each key's newest value
 * at once; a write is applied at once, the later stamp winning. Partitions never talk to each other.
 */
final class EventualPartition implements PartitionServer {
    private record Version(byte[] value, EventualStamp stamp) {
    }

    private final int self;
    private final RequestChecks checks;
    private final Map<Key, Version> newest = new HashMap<>();
    private long time;

    /** Where applied writes are made durable (the nodes); nowhere in the simulator. */
    private final WriteLog writeLog;

    EventualPartition(int self, PartitionConfig config, Topology topology, WriteLog writeLog) {
        this.self = self;
        this.writeLog = writeLog;
        this.checks = new RequestChecks(config, topology, self);
    }

    @Override
    public int self() {
        return self;
    }

    @Override
    public void onClientRequest(ClientReply reply, ClientRequest request) {
        if (request instanceof EventualMessages.Read r) onRead(reply, r);
        else if (request instanceof EventualMessages.Write w) onWrite(reply, w);
        else reply.reply(ErrorReply.of(request.requestId(), ErrorCode.UNKNOWN_MESSAGE,
                    "the eventual protocol does not know " + request.getClass().getSimpleName()));
    }

    private void onRead(ClientReply reply, EventualMessages.Read r) {
        ErrorReply error = checks.keys(r.requestId(), r.keys());
        if (error != null) {
            reply.reply(error);
            return;
        }
        List<ReadValue> values = new ArrayList<>(r.keys().size());
        for (Key k : r.keys()) {
            Version v = newest.get(k);
            values.add(v == null ? new ReadValue(k, null, 0) : new ReadValue(k, v.value(), v.stamp().time()));
        }
        reply.reply(new EventualMessages.ReadAnswer(r.requestId(), values, time));
    }

    private void onWrite(ClientReply reply, EventualMessages.Write w) {
        ErrorReply error = checks.writes(w.requestId(), w.writes());
        if (error == null && (w.stamp() == null || w.stamp().time() <= 0))
            error = RequestChecks.invalid(w.requestId(), "no stamp");
        if (error != null) {
            reply.reply(error);
            return;
        }
        time = Math.max(time, w.stamp().time());
        writeLog.accepted(w.txnId(), w.writes());
        for (KeyValue kv : w.writes()) {
            Version current = newest.get(kv.key());
            if (current == null || current.stamp().compareTo(w.stamp()) < 0)
                newest.put(kv.key(), new Version(kv.value().clone(), w.stamp()));
        }
        reply.reply(new EventualMessages.WriteAnswer(w.requestId(), time));
    }

    @Override
    public void onPeerMessage(int from, PeerMessage message) {
        // Eventual partitions send nothing to each other: a peer message is a host error, dropped.
    }

    @Override
    public void tick() {
        // Nothing periodic: writes apply at once, and there is no history to collect.
    }
}
