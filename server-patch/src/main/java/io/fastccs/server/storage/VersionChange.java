package io.fastccs.server.storage;

import io.fastccs.protocol.primitives.Version;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A change to one key's version list. The store applies each change to its cached list at once and replays the
 * changes whose mutations are not applied yet on a list it reads from the table, so a read never misses a write.
 * Both kinds are idempotent, and replaying a sequence of them in issue order gives the same list whatever subset
 * of them the table already holds.
 */
sealed interface VersionChange {

    /** The list after the change; {@code versions} is newest first and is not modified. */
    List<Version> applyTo(List<Version> versions);

    /** Adds a version unless one with its sequence number is there already. */
    record Put(Version version) implements VersionChange {
        @Override
        public List<Version> applyTo(List<Version> versions) {
            return VersionChange.insert(versions, version);
        }
    }

    /** Removes the versions older than {@code newestKept} in {@link Version#NEWEST_FIRST} order. */
    record RemoveOlderThan(Version newestKept) implements VersionChange {
        @Override
        public List<Version> applyTo(List<Version> versions) {
            int keep = keptCount(versions, newestKept);
            return keep == versions.size() ? versions : freeze(versions.subList(0, keep).toArray(new Version[0]));
        }
    }

    /** Replaces a typed key's folded versions by their base (which may take one of their sequence numbers). */
    record Replace(List<Version> folded, Version base) implements VersionChange {
        @Override
        public List<Version> applyTo(List<Version> versions) {
            List<Version> left = new ArrayList<>(versions.size());
            for (Version v : versions) {
                boolean gone = false;
                for (Version f : folded) gone |= f.sequence() == v.sequence();
                if (!gone) left.add(v);
            }
            return VersionChange.insert(freeze(left.toArray(new Version[0])), base);
        }
    }

    static boolean containsSequence(List<Version> versions, long sequence) {
        for (int i = 0; i < versions.size(); i++)
            if (versions.get(i).sequence() == sequence) return true;
        return false;
    }

    static List<Version> insert(List<Version> versions, Version version) {
        if (containsSequence(versions, version.sequence())) return versions;
        Version[] out = new Version[versions.size() + 1];
        int i = 0;
        while (i < versions.size() && Version.NEWEST_FIRST.compare(versions.get(i), version) < 0) {
            out[i] = versions.get(i);
            i++;
        }
        out[i] = version; // usually at 0: new versions are mostly the newest
        for (; i < versions.size(); i++) out[i + 1] = versions.get(i);
        return freeze(out);
    }

    /** How many leading versions of the newest-first list are not older than {@code newestKept}. */
    static int keptCount(List<Version> versions, Version newestKept) {
        int keep = 0;
        while (keep < versions.size() && Version.NEWEST_FIRST.compare(versions.get(keep), newestKept) <= 0) keep++;
        return keep;
    }

    /** A newest-first list from versions in any order, without duplicate sequence numbers. */
    static List<Version> sortedNewestFirst(List<Version> versions) {
        ArrayList<Version> copy = new ArrayList<>(versions);
        copy.sort(Version.NEWEST_FIRST);
        return freeze(copy.toArray(new Version[0]));
    }

    static List<Version> freeze(Version[] versions) {
        return versions.length == 0 ? List.of() : Collections.unmodifiableList(java.util.Arrays.asList(versions));
    }
}
