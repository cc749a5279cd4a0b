package io.fastccs.server.storage;

import org.apache.cassandra.db.Mutation;
import org.apache.cassandra.io.util.DataInputBuffer;
import org.apache.cassandra.io.util.DataOutputBuffer;
import org.apache.cassandra.net.MessagingService;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of a replica group's log: the mutations of one protocol step, in Cassandra's own mutation serialization
 * under the messaging version it was written with (named in the entry, so a log written before an upgrade still reads).
 */
final class MutationBatch {
    private MutationBatch() {
    }

    static byte[] encode(List<Mutation> mutations) {
        int version = MessagingService.current_version;
        try (DataOutputBuffer out = new DataOutputBuffer()) {
            out.writeInt(version);
            out.writeInt(mutations.size());
            for (Mutation m : mutations) Mutation.serializer.serialize(m, out, version);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("could not serialize a FastCCS log entry", e);
        }
    }

    static List<Mutation> decode(byte[] entry) {
        if (entry.length == 0) return List.of(); // a barrier: no writes
        try (DataInputBuffer in = new DataInputBuffer(entry)) {
            int version = in.readInt();
            int count = in.readInt();
            if (count < 0) throw new IOException("negative mutation count " + count);
            List<Mutation> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) out.add(Mutation.serializer.deserialize(in, version));
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("a FastCCS log entry of " + entry.length + " bytes does not decode", e);
        }
    }
}
