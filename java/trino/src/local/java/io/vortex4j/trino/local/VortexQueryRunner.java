package io.vortex4j.trino.local;

import io.trino.Session;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import io.trino.tpch.TpchTable;
import io.vortex4j.trino.Catalog;
import io.vortex4j.trino.VortexConnectorFactory;
import io.vortex4j.trino.VortexPlugin;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.trino.plugin.tpch.TpchMetadata.TINY_SCHEMA_NAME;
import static io.trino.testing.QueryAssertions.copyTpchTables;
import static io.trino.testing.TestingSession.testSessionBuilder;

/**
 * A local Trino in one JVM: a coordinator and {@code workers} workers (Trino's {@link
 * DistributedQueryRunner}), with catalog {@code vortex} over a folder (schema {@code default},
 * the session's default; or over an object store location, credentials from the environment) and Trino's {@code tpch} catalog; optionally TPC-H "tiny" tables copied
 * into the folder with CREATE TABLE AS.
 */
public final class VortexQueryRunner {
    /** The catalog name. */
    public static final String CATALOG = "vortex";

    private VortexQueryRunner() {}

    /** The session of the {@code vortex} catalog's {@code default} schema. */
    public static Session session() {
        return testSessionBuilder().setCatalog(CATALOG).setSchema(Catalog.SCHEMA).build();
    }

    public static QueryRunner create(Path directory, int workers, List<TpchTable<?>> tpchTables) throws Exception {
        return create(directory.toString(), workers, tpchTables);
    }

    /** As {@link #create(Path, int, List)}, the catalog over a folder's path or an object store location. */
    public static QueryRunner create(String location, int workers, List<TpchTable<?>> tpchTables) throws Exception {
        QueryRunner runner = DistributedQueryRunner.builder(session()).setWorkerCount(workers).build();
        try {
            runner.installPlugin(new TpchPlugin());
            runner.createCatalog("tpch", "tpch");
            runner.installPlugin(new VortexPlugin());
            runner.createCatalog(CATALOG, "vortex", Map.of(VortexConnectorFactory.DIRECTORY, location));
            copyTpchTables(runner, "tpch", TINY_SCHEMA_NAME, session(), tpchTables);
            return runner;
        } catch (Exception | Error e) {
            runner.close();
            throw e;
        }
    }
}
