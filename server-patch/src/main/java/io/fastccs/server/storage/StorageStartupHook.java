package io.fastccs.server.storage;

/**
 * Arranges for the local metadata keyspace to be registered before Cassandra replays its commit log (see
 * {@link LocalKeyspace}). Call {@link #install()} before Cassandra starts: from the agent's {@code premain}, or
 * from a wrapper main before {@code CassandraDaemon.main}. It only sets a system property, so it is safe before
 * Cassandra's configuration is loaded (this class refers to no Cassandra class).
 */
public final class StorageStartupHook {
    /** Cassandra 5.0's {@code CassandraRelevantProperties.SCHEMA_UPDATE_HANDLER_FACTORY_CLASS}. */
    public static final String FACTORY_PROPERTY = "cassandra.schema.update_handler_factory.class";
    /** {@link LocalKeyspaceSchemaHook}, by name so that naming it loads no Cassandra class. */
    public static final String FACTORY_CLASS = "io.fastccs.server.storage.LocalKeyspaceSchemaHook";

    private StorageStartupHook() {
    }

    /**
     * Sets {@value #FACTORY_PROPERTY} to our factory.
     *
     * @throws IllegalStateException if the property names another factory: both cannot be used
     */
    public static void install() {
        String current = System.getProperty(FACTORY_PROPERTY);
        if (current != null && !current.isBlank() && !current.trim().equals(FACTORY_CLASS))
            throw new IllegalStateException(FACTORY_PROPERTY + " is already set to " + current
                    + "; FastCCS needs it for " + FACTORY_CLASS);
        System.setProperty(FACTORY_PROPERTY, FACTORY_CLASS);
    }
}
