package io.fastccs.tools.stress;

/**
 * What the stress workers run against: a consistency protocol on the FastCCS port (FastCCS, Eiger, Wren, eventual), or
 * plain Cassandra through the Apache Java driver.
 */
public interface StressBackend extends AutoCloseable {
    /** The outcome of a write as far as the history may claim it. */
    enum WriteStatus { OK, ABORTED, COMMITTED_UNCONFIRMED, UNKNOWN }

    /** One worker's session; used by one thread at a time. */
    interface Session {
        /** The value id of each key (0 for a key never written), in the order given. */
        long[] read(long[] keys) throws Exception;

        /** Rounds the last successful read took (1 for plain Cassandra). */
        int lastRounds();

        /** Writes value {@code valueIds[i]} to {@code keys[i]}; throws only if nothing can be claimed about it. */
        WriteStatus write(long[] keys, long[] valueIds) throws Exception;

        /**
         * True once after the session had to give up its causal guarantees (a write left in doubt): the worker then
         * continues as a new session of the history.
         */
        boolean takeReset();
    }

    /** The run's label in results: the mode's word ({@code fastccs}, {@code eiger}, ..., {@code cql}, {@code batch}). */
    String name();

    /** Creates what the mode needs (the plain-Cassandra table). */
    default void prepare() throws Exception {}

    Session session();

    /** Writes every key in [from, to] once, with value {@code firstValue + (key - from)}, as fast as it may. */
    void populate(long from, long to, long firstValue, HistoryRecorder history, java.util.function.LongConsumer written) throws Exception;

    @Override
    void close();

    static String keyName(long key) {
        return "k" + key;
    }

    /** A value of {@code size} bytes whose id leads it: {@code id:xxxx...}. */
    static String value(long id, int size) {
        StringBuilder b = new StringBuilder(size).append(id).append(':');
        while (b.length() < size) b.append('x');
        return b.toString();
    }

    static long valueId(String value) {
        return value == null ? 0 : Long.parseLong(value.substring(0, value.indexOf(':')));
    }
}
