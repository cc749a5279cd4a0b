package io.fastccs.server.storage;

import io.fastccs.server.config.FastCcsProperty;

/**
 * Arranges for the local metadata keyspace to be registered before Cassandra replays its commit log (see
 * {@link LocalKeyspace}). Call {@link #install()} before Cassandra starts: from the agent's {@code premain}, or
 * from a wrapper main before {@code CassandraDaemon.main}. It only sets a system property, so it is safe before
 * Cassandra's configuration is loaded (this class refers to no Cassandra class).
 */
public final class StorageStartupHook {
    /** Cassandra 5.0's {@code CassandraRelevantProperties.SCHEMA_UPDATE_HANDLER_FACTORY_CLASS}. */
    private static final FastCcsProperty FACTORY_PROPERTY = FastCcsProperty.SCHEMA_UPDATE_HANDLER_FACTORY;
    /** {@link LocalKeyspaceSchemaHook}, by name so that naming it loads no Cassandra class. */
    public static final String FACTORY_CLASS = "io.fastccs.server.storage.LocalKeyspaceSchemaHook";

    private StorageStartupHook() {
    }

    /**
     * Sets Cassandra's schema update handler factory property to our factory.
     *
     * @throws IllegalStateException if the property names another factory: both cannot be used
     */
    public static void install() {
        String current = FACTORY_PROPERTY.getString();
        if (current != null && !current.isBlank() && !current.trim().equals(FACTORY_CLASS))
            throw new IllegalStateException(FACTORY_PROPERTY + " is already set to " + current
                    + "; FastCCS needs it for " + FACTORY_CLASS);
        FACTORY_PROPERTY.setString(FACTORY_CLASS);
    }
}
