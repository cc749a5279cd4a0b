package io.fastccs.server.groups;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The member id a node runs its groups under, kept in a small file: in the consensus storage (which id that storage
 * belongs to) and in Cassandra's data directory (this node's data was a group member's: if the consensus storage is
 * then missing, it was lost, not never made).
 */
final class MemberIdFile {
    static final String NAME = "fastccs-member-id";

    private MemberIdFile() {
    }

    static Optional<String> read(Path dir) throws IOException {
        Path file = dir.resolve(NAME);
        if (!Files.isRegularFile(file)) return Optional.empty();
        String id = Files.readString(file, StandardCharsets.UTF_8).trim();
        if (id.isEmpty() || !id.matches("[A-Za-z0-9_.-]+"))
            throw new IOException(file + " does not hold a member id: '" + id + "'");
        return Optional.of(id);
    }

    /** Written aside, synced and moved into place, so a crash leaves the old file or the new one. */
    static void write(Path dir, String id) throws IOException {
        Files.createDirectories(dir);
        Path tmp = dir.resolve(NAME + ".tmp");
        Files.writeString(tmp, id + "\n", StandardCharsets.UTF_8);
        try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            c.force(true);
        }
        Files.move(tmp, dir.resolve(NAME), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
