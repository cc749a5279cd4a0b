package io.fastccs.server.storage;

import org.apache.cassandra.db.Keyspace;
import org.apache.cassandra.schema.KeyspaceMetadata;
import org.apache.cassandra.schema.Keyspaces;
import org.apache.cassandra.schema.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Registers the {@code fastccs_local} keyspace ({@link StorageSchema#localKeyspace()}, LocalStrategy) the way
 * Cassandra 5.0 holds its own {@code system} keyspace: in {@code Schema.localKeyspaces}, defined in code, never
 * written to {@code system_schema} and never gossiped. Each node has its own rows, readable only there, and
 * {@code nodetool cleanup} skips LocalStrategy keyspaces.
 *
 * <p>Cassandra 5.0 has no API for this: {@code localKeyspaces} is a private final field filled in the
 * {@code Schema} constructor, and a LocalStrategy keyspace cannot be created through the replicated schema (CQL
 * refuses it and {@code Schema.mergeAndUpdateVersion} asserts against it). So we add ours by reflection, under
 * the {@code Schema} monitor that its own loading methods hold.
 *
 * <p><b>It must happen before commit log replay</b>, at every start: replay skips mutations of tables it does not
 * know ("Skipped N mutations from unknown (probably removed) CF"), which would silently lose every record not yet
 * flushed to an sstable when the node crashed. {@link StorageStartupHook#install()} arranges that, through
 * Cassandra's schema update handler factory property; {@link #registeredBeforeReplay()} tells whether it worked.
 */
public final class LocalKeyspace {
    private static final Logger logger = LoggerFactory.getLogger(LocalKeyspace.class);

    private static volatile boolean registered;
    private static volatile boolean registeredBeforeReplay;

    private LocalKeyspace() {
    }

    /** Called while the node loads its schema at start-up, before it opens keyspaces and replays the commit log. */
    static synchronized void registerAtStartup() {
        if (registered) return;
        addToSchema();
        registered = true;
        // Keyspaces are opened, and the commit log replayed, only after Keyspace.setInitialized().
        registeredBeforeReplay = !Keyspace.isInitialized();
        logger.info("Registered local keyspace {} {} commit log replay", StorageSchema.LOCAL_KEYSPACE,
                registeredBeforeReplay ? "before" : "AFTER");
    }

    /**
     * Makes sure the keyspace exists in a running node. If start-up did not register it (no hook), registers it
     * now: it works, but records that were only in the commit log when the node last stopped were already lost.
     */
    static synchronized void ensureRegistered() {
        if (!registered) {
            addToSchema();
            registered = true;
            logger.warn("Registered local keyspace {} late, after commit log replay: FastCCS records not yet flushed "
                    + "when the node last stopped were skipped by replay. Call StorageStartupHook.install() before "
                    + "Cassandra starts (the agent's premain) so it is registered before replay.", StorageSchema.LOCAL_KEYSPACE);
        }
        if (Keyspace.isInitialized()) Keyspace.open(StorageSchema.LOCAL_KEYSPACE);
    }

    /** True when this JVM registered the keyspace during start-up, so replay saw its tables. */
    public static boolean registeredBeforeReplay() {
        return registeredBeforeReplay;
    }

    private static void addToSchema() {
        Schema schema = Schema.instance;
        KeyspaceMetadata keyspace = StorageSchema.localKeyspace();
        try {
            Field localKeyspaces = Schema.class.getDeclaredField("localKeyspaces");
            localKeyspaces.setAccessible(true);
            Method loadNew = Schema.class.getDeclaredMethod("loadNew", KeyspaceMetadata.class);
            loadNew.setAccessible(true);
            synchronized (schema) {
                Keyspaces current = (Keyspaces) localKeyspaces.get(schema);
                if (current.containsKeyspace(keyspace.name)) return;
                if (schema.distributedKeyspaces().containsKeyspace(keyspace.name))
                    throw new IllegalStateException("a replicated keyspace named " + keyspace.name
                            + " exists; FastCCS needs that name for its local keyspace");
                loadNew.invoke(schema, keyspace); // table metadata references, looked up by table id
                localKeyspaces.set(schema, current.withAddedOrUpdated(keyspace));
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot register local keyspace " + keyspace.name
                    + " in this Cassandra version (expected Schema.localKeyspaces and Schema.loadNew of 5.0)", e);
        }
    }
}
