package io.vortex4j.trino.bench;

import io.trino.Session;
import io.trino.plugin.hive.HivePlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import io.vortex4j.trino.Catalog;
import io.vortex4j.trino.VortexConnectorFactory;
import io.vortex4j.trino.VortexPlugin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.trino.testing.TestingSession.testSessionBuilder;

/**
 * One local Trino (a coordinator and {@code workers} workers, Trino's {@link
 * DistributedQueryRunner}) holding the same tables twice: in catalog {@code vortex} over a folder
 * of Vortex files, and in catalog {@code hive}, Trino's Hive connector with a file metastore over
 * the local file system, as external Parquet tables (schema {@code tpch}). Everything Hive keeps —
 * its metastore, a folder per table holding a link to (or a copy of) the table's Parquet file, tables it writes — lives
 * in a scratch folder deleted on {@link #close}; the data files are only read.
 */
final class BenchCatalogs implements AutoCloseable {
    static final String VORTEX = "vortex";
    static final String HIVE = "hive";
    static final String HIVE_SCHEMA = "tpch";

    final QueryRunner runner;
    private final Path scratch;

    private BenchCatalogs(QueryRunner runner, Path scratch) {
        this.runner = runner;
        this.scratch = scratch;
    }

    /** A Trino with {@code vortex} over {@code vortexDir} and an empty {@code hive} catalog. */
    static BenchCatalogs start(Path vortexDir, int workers) throws Exception {
        Path scratch = Files.createTempDirectory("vortex4j-trino-bench");
        QueryRunner runner = null;
        try {
            runner = DistributedQueryRunner.builder(session(VORTEX, Catalog.SCHEMA)).setWorkerCount(workers).build();
            runner.installPlugin(new VortexPlugin());
            runner.createCatalog(VORTEX, "vortex", Map.of(VortexConnectorFactory.DIRECTORY, vortexDir.toString()));
            runner.installPlugin(new HivePlugin());
            // Hive's local file system resolves local:///PATH against local.location.
            runner.createCatalog(HIVE, "hive", Map.of(
                    "hive.metastore", "file",
                    "hive.metastore.catalog.dir", local(scratch.resolve("metastore")),
                    "fs.local.enabled", "true",
                    "local.location", "/"));
            // Its managed tables (the sample's copy) go under the metastore's folder.
            runner.execute("CREATE SCHEMA " + HIVE + "." + HIVE_SCHEMA);
            return new BenchCatalogs(runner, scratch);
        } catch (Exception | Error e) {
            if (runner != null) {
                runner.close();
            }
            delete(scratch);
            throw e;
        }
    }

    /** The session whose unqualified table names are {@code catalog.schema}'s. */
    static Session session(String catalog, String schema) {
        return testSessionBuilder().setCatalog(catalog).setSchema(schema).build();
    }

    /**
     * Registers {@code parquet} in {@code hive.tpch} as external table {@code table}, its columns
     * those of {@code vortex.default.table} (the Vortex file converted from the same Parquet
     * file), then with {@code analyze} computes its statistics, as a Hive table written by Trino has them.
     */
    void addParquetTable(String table, Path parquet, boolean analyze) throws IOException {
        Path folder = Files.createDirectories(scratch.resolve("tables").resolve(table));
        // A hard link: Hive's local file system lists a symbolic link with the link's own size.
        Path file = folder.resolve(parquet.getFileName());
        try {
            Files.createLink(file, parquet);
        } catch (IOException | UnsupportedOperationException e) {
            Files.copy(parquet, file);
        }
        List<String> columns = new ArrayList<>();
        for (MaterializedRow r : runner.execute("DESCRIBE " + VORTEX + "." + Catalog.SCHEMA + "." + table)
                .getMaterializedRows()) {
            columns.add("\"" + r.getField(0) + "\" " + r.getField(1));
        }
        String name = HIVE + "." + HIVE_SCHEMA + "." + table;
        runner.execute("CREATE TABLE " + name + " (" + String.join(", ", columns) + ") WITH (external_location = '"
                + local(folder) + "', format = 'PARQUET')");
        if (analyze) {
            runner.execute("ANALYZE " + name);
        }
    }

    /** Adds catalog {@code name}, a {@code vortex} catalog over {@code dir}. */
    void addVortexCatalog(String name, Path dir) {
        runner.createCatalog(name, "vortex", Map.of(VortexConnectorFactory.DIRECTORY, dir.toString()));
    }

    /** Copies {@code source} (a table of another catalog) into {@code hive.tpch.table} as Parquet. */
    void copyToParquet(String source, String table) {
        runner.execute("CREATE TABLE " + HIVE + "." + HIVE_SCHEMA + "." + table + " WITH (format = 'PARQUET') AS SELECT * FROM "
                + source);
    }

    private static String local(Path p) {
        return "local://" + p.toAbsolutePath();
    }

    @Override
    public void close() throws IOException {
        try {
            runner.close();
        } finally {
            delete(scratch);
        }
    }

    /** Deletes {@code dir}'s tree: a hard link goes, the file it shares stays. */
    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
