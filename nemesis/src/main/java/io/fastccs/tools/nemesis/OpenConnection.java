package io.fastccs.tools.nemesis;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A TCP connection of one process with its IPv4 endpoints, read from Linux's /proc (the process's socket inodes in
 * {@code fd/}, the connections in {@code net/tcp} and {@code net/tcp6}; Java's sockets are often IPv6 with IPv4-mapped
 * addresses). Listening sockets are left out.
 */
record OpenConnection(String localAddress, int localPort, String remoteAddress, int remotePort) {
    private static final String TCP_LISTEN = "0A";
    private static final String V4_MAPPED_PREFIX = "0000000000000000FFFF0000";

    /** The process's TCP connections now; empty if it is gone. */
    static List<OpenConnection> of(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) inodes.add(target.substring(8, target.length() - 1));
                } catch (IOException closedMeanwhile) {
                    // the descriptor went away while we listed: not a connection to cut
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        List<OpenConnection> out = new ArrayList<>();
        for (String table : List.of("tcp", "tcp6")) {
            List<String> lines;
            try {
                lines = Files.readAllLines(proc.resolve("net").resolve(table));
            } catch (IOException e) {
                continue;
            }
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 10 || f[3].equals(TCP_LISTEN) || !inodes.contains(f[9])) continue;
                OpenConnection c = parse(f[1], f[2]);
                if (c != null) out.add(c);
            }
        }
        return out;
    }

    /** From /proc's "ADDR:PORT" hex pairs; null for an IPv6 address that is not IPv4-mapped. */
    static OpenConnection parse(String local, String remote) {
        String[] l = local.split(":"), r = remote.split(":");
        String la = ipv4(l[0]), ra = ipv4(r[0]);
        if (la == null || ra == null) return null;
        return new OpenConnection(la, Integer.parseInt(l[1], 16), ra, Integer.parseInt(r[1], 16));
    }

    /** /proc prints each 32-bit word of an address in host (little-endian) byte order. */
    private static String ipv4(String hex) {
        String word;
        if (hex.length() == 8) word = hex;
        else if (hex.length() == 32 && hex.startsWith(V4_MAPPED_PREFIX)) word = hex.substring(24);
        else return null;
        long v = Long.parseLong(word, 16);
        return (v & 0xff) + "." + ((v >> 8) & 0xff) + "." + ((v >> 16) & 0xff) + "." + ((v >> 24) & 0xff);
    }
}
