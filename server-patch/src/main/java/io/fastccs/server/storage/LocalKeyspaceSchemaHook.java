package io.fastccs.server.storage;

import org.apache.cassandra.schema.DefaultSchemaUpdateHandler;
import org.apache.cassandra.schema.DefaultSchemaUpdateHandlerFactory;
import org.apache.cassandra.schema.SchemaTransformation.SchemaTransformationResult;
import org.apache.cassandra.schema.SchemaUpdateHandler;
import org.apache.cassandra.schema.SchemaUpdateHandlerFactory;

import java.util.function.BiConsumer;

/**
 * Cassandra's schema update handler, unchanged, except that loading the schema from disk at start-up first
 * registers {@code fastccs_local} ({@link LocalKeyspace}). That load is the last step before Cassandra opens
 * its keyspaces and replays the commit log, and this factory is the one plug-in point Cassandra 5.0 offers
 * there ({@code -Dcassandra.schema.update_handler_factory.class}); {@link StorageStartupHook#install()} sets it.
 * The handler subclasses Cassandra's default one, so nothing else changes (gossip of the replicated schema,
 * {@code nodetool describecluster}).
 */
public final class LocalKeyspaceSchemaHook implements SchemaUpdateHandlerFactory {

    @Override
    public SchemaUpdateHandler getSchemaUpdateHandler(boolean online, BiConsumer<SchemaTransformationResult, Boolean> updateSchemaCallback) {
        // Offline tools never replay our commit log; leave them alone.
        if (!online) return DefaultSchemaUpdateHandlerFactory.instance.getSchemaUpdateHandler(false, updateSchemaCallback);
        return new Handler(updateSchemaCallback);
    }

    private static final class Handler extends DefaultSchemaUpdateHandler {
        Handler(BiConsumer<SchemaTransformationResult, Boolean> updateSchemaCallback) {
            super(updateSchemaCallback);
        }

        @Override
        public void reset(boolean local) {
            LocalKeyspace.registerAtStartup();
            super.reset(local);
        }
    }
}
