package io.vortex4j.trino;

import io.trino.Session;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.Constraint;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.DateType;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import io.vortex4j.trino.local.VortexQueryRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tables of the catalog folder: Hive-partitioned folders (partition columns, pruning by their
 * values, pushed filters and aggregates on them), single-file tables and their names, and writes
 * (files appear only on commit, failed writes leave none, empty CREATE TABLE AS).
 */
public class VortexTablesTest extends AbstractTestQueryFramework {
    private static final int DAYS = 4;
    private static final int BUCKETS = 3;
    private static final int ROWS_PER_FILE = 500;
    private Path dir;

    @Override
    protected QueryRunner createQueryRunner() throws Exception {
        dir = Files.createTempDirectory("vortex-trino-tables");
        Schema schema = Schema.of(new Field("id", DataType.INT64, false), new Field("sym", DataType.UTF8, true));
        for (int d = 0; d < DAYS; d++) {
            for (int b = 0; b < BUCKETS; b++) {
                Path folder = dir.resolve("trades/day=" + day(d) + "/bucket=" + b);
                Files.createDirectories(folder);
                write(folder.resolve("part.vortex"), schema, d * 10_000 + b * 1000);
            }
        }
        write(dir.resolve("Single.vortex"), schema, 0);
        Files.createDirectories(dir.resolve("_hidden"));
        write(dir.resolve("_hidden/x.vortex"), schema, 0);
        return VortexQueryRunner.create(dir, 2, List.of(io.trino.tpch.TpchTable.NATION));
    }

    private static LocalDate day(int d) {
        return LocalDate.of(2024, 1, 1 + d);
    }

    private static void write(Path file, Schema schema, long first) {
        long[] id = new long[ROWS_PER_FILE];
        String[] sym = new String[ROWS_PER_FILE];
        for (int r = 0; r < ROWS_PER_FILE; r++) {
            id[r] = first + r;
            sym[r] = r % 9 == 4 ? null : "S" + (r % 5);
        }
        try (VortexWriter w = VortexWriter.create(file, schema)) {
            w.write(new Batch(schema, ROWS_PER_FILE).set("id", id).set("sym", sym));
            w.finish();
        }
    }

    private Session pushdown(boolean on) {
        return Session.builder(getSession())
                .setCatalogSessionProperty(VortexQueryRunner.CATALOG, VortexSessionProperties.PUSHDOWN_ENABLED, String.valueOf(on))
                .build();
    }

    @Test
    public void tablesAndPartitionColumns() {
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).containsExactlyInAnyOrder("trades", "single", "nation");
        List<String> columns = computeActual("DESCRIBE trades").getMaterializedRows().stream()
                .map(r -> r.getField(0) + " " + r.getField(1) + " " + r.getField(2)).toList();
        assertThat(columns).containsExactly("id bigint ", "sym varchar ", "day date partition key", "bucket bigint partition key");
        assertThat(computeActual("SELECT count(*) FROM single").getOnlyValue()).isEqualTo((long) ROWS_PER_FILE);
        assertThat(computeActual("SELECT count(*) FROM \"SINGLE\"").getOnlyValue()).isEqualTo((long) ROWS_PER_FILE);
    }

    @Test
    public void partitionFiltersAndAggregates() {
        for (boolean on : new boolean[] {true, false}) {
            Session s = pushdown(on);
            assertThat(computeActual(s, "SELECT count(*) FROM trades").getOnlyValue()).isEqualTo((long) DAYS * BUCKETS * ROWS_PER_FILE);
            assertThat(computeActual(s, "SELECT count(*) FROM trades WHERE day = DATE '2024-01-02'").getOnlyValue())
                    .isEqualTo((long) BUCKETS * ROWS_PER_FILE);
            assertThat(computeActual(s, "SELECT min(id), max(id) FROM trades WHERE day >= DATE '2024-01-03' AND bucket = 2").getMaterializedRows())
                    .containsExactly(new MaterializedRow(List.of(20_000L + 2000, 30_000L + 2000 + ROWS_PER_FILE - 1)));
            List<MaterializedRow> perDay = computeActual(s, "SELECT day, count(*), count(sym) FROM trades WHERE sym <> 'S0' GROUP BY day").getMaterializedRows();
            long nonNull = 0;
            long kept = 0;
            for (int r = 0; r < ROWS_PER_FILE; r++) {
                if (r % 9 != 4) {
                    nonNull++;
                    kept += r % 5 != 0 ? 1 : 0;
                }
            }
            assertThat(perDay).hasSize(DAYS);
            for (MaterializedRow row : perDay) {
                assertThat(row.getField(1)).isEqualTo(kept * BUCKETS);
                assertThat(row.getField(2)).isEqualTo(kept * BUCKETS);
            }
            assertThat(nonNull).isGreaterThan(kept);
        }
        assertThat(query(pushdown(true), "SELECT day, bucket, count(*) FROM trades WHERE bucket < 2 GROUP BY day, bucket")).isFullyPushedDown();
    }

    @Test
    public void splitsPrunedByPartitionValues() throws Exception {
        Catalog catalog = new Catalog(dir);
        try (TransactionTables tables = new TransactionTables(catalog)) {
            VortexTableHandle all = (VortexTableHandle) new VortexMetadata(catalog, tables).getTableHandle(null,
                    new io.trino.spi.connector.SchemaTableName(Catalog.SCHEMA, "trades"), java.util.Optional.empty(), java.util.Optional.empty());
            VortexColumnHandle day = new VortexColumnHandle("day", DateType.DATE, true);
            VortexTableHandle oneDay = all.withFilter(TupleDomain.withColumnDomains(
                    Map.of(day, Domain.singleValue(DateType.DATE, day(1).toEpochDay()))), List.of());
            assertThat(splits(tables, all)).isEqualTo(DAYS * BUCKETS);
            assertThat(splits(tables, oneDay)).isEqualTo(BUCKETS);
        }
    }

    private static int splits(TransactionTables tables, VortexTableHandle table) throws Exception {
        ConnectorSplitSource source = new VortexSplitManager(t -> tables).getSplits(null, null, table, Set.of(), Constraint.alwaysTrue());
        return source.getNextBatch(10_000, io.trino.spi.connector.DynamicFilterSnapshot.EMPTY).get().size();
    }

    @Test
    public void writesCommitWholeFiles() throws IOException {
        assertUpdate("CREATE TABLE w AS SELECT nationkey, name FROM tpch.tiny.nation", 25);
        assertUpdate("INSERT INTO w SELECT nationkey + 100, name FROM tpch.tiny.nation WHERE regionkey = 1", 5);
        assertThat(computeActual("SELECT count(*), sum(nationkey) FROM w").getMaterializedRows())
                .containsExactly(new MaterializedRow(List.of(30L, 300L + 5 * 100L + sumOfRegion1())));
        // A failing INSERT adds nothing and leaves no visible file.
        long files = visibleFiles(dir.resolve("w"));
        assertThatThrownBy(() -> computeActual("INSERT INTO w SELECT nationkey, CAST(1 / (nationkey - 20) AS varchar) FROM tpch.tiny.nation"))
                .hasMessageContaining("Division by zero");
        assertThat(visibleFiles(dir.resolve("w"))).isEqualTo(files);
        assertThat(computeActual("SELECT count(*) FROM w").getOnlyValue()).isEqualTo(30L);
        assertUpdate("DROP TABLE w");
        assertThat(Files.exists(dir.resolve("w"))).isFalse();
    }

    private long sumOfRegion1() {
        return (Long) computeActual("SELECT sum(nationkey) FROM tpch.tiny.nation WHERE regionkey = 1").getOnlyValue();
    }

    private static long visibleFiles(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(p -> !p.getFileName().toString().startsWith(".")).count();
        }
    }

    @Test
    public void emptyCreateTableAs() {
        assertUpdate("CREATE TABLE e AS SELECT nationkey, name FROM tpch.tiny.nation WHERE false", 0);
        assertThat(computeActual("SELECT count(*) FROM e").getOnlyValue()).isEqualTo(0L);
        assertThat(computeActual("SELECT column_name FROM information_schema.columns WHERE table_name = 'e'").getOnlyColumnAsSet())
                .containsExactlyInAnyOrder("nationkey", "name");
        assertUpdate("DROP TABLE e");
    }

    @Test
    public void insertIntoSingleFileFails() {
        assertThatThrownBy(() -> computeActual("INSERT INTO single VALUES (1, 'x')")).hasMessageContaining("single file");
    }

    /** The rows of tpch.tiny.nation as inserted into table ins: null, escaped and plain partition values. */
    private static final String NATION_ROWS = "SELECT nationkey, name, "
            + "CASE regionkey WHEN 0 THEN NULL WHEN 1 THEN 'a/b=c%d é' ELSE 'r' || CAST(regionkey AS varchar) END, "
            + "date_add('day', regionkey, DATE '2024-01-01'), nationkey % 3 FROM tpch.tiny.nation";

    @Test
    public void insertIntoPartitionedTable() throws IOException {
        Schema schema = Schema.of(new Field("id", DataType.INT64, false), new Field("sym", DataType.UTF8, true));
        Path seed = dir.resolve("ins/region=eu/day=2024-01-01/bucket=7");
        Files.createDirectories(seed);
        try (VortexWriter w = VortexWriter.create(seed.resolve("part.vortex"), schema)) {
            w.write(new Batch(schema, 2).set("id", new long[] {-1, -2}).set("sym", new String[] {"x", null}));
            w.finish();
        }
        assertThat(computeActual("DESCRIBE ins").getMaterializedRows().stream().map(r -> r.getField(0) + " " + r.getField(1)).toList())
                .containsExactly("id bigint", "sym varchar", "region varchar", "day date", "bucket bigint");

        assertUpdate("INSERT INTO ins " + NATION_ROWS, 25);
        List<MaterializedRow> expected = new java.util.ArrayList<>(computeActual(NATION_ROWS).getMaterializedRows());
        expected.addAll(computeActual("VALUES (BIGINT '-1', VARCHAR 'x', VARCHAR 'eu', DATE '2024-01-01', BIGINT '7'), "
                + "(-2, NULL, 'eu', DATE '2024-01-01', 7)").getMaterializedRows());
        for (boolean on : new boolean[] {true, false}) {
            assertThat(computeActual(pushdown(on), "SELECT id, sym, region, day, bucket FROM ins").getMaterializedRows())
                    .containsExactlyInAnyOrderElementsOf(expected);
            assertThat(computeActual(pushdown(on), "SELECT count(*) FROM ins WHERE region = 'a/b=c%d é' AND bucket = 1").getOnlyValue())
                    .isEqualTo(computeActual("SELECT count(*) FROM tpch.tiny.nation WHERE regionkey = 1 AND nationkey % 3 = 1").getOnlyValue());
            assertThat(computeActual(pushdown(on), "SELECT count(*) FROM ins WHERE region IS NULL").getOnlyValue()).isEqualTo(5L);
        }
        // Each row went to the folder of its values, the escaped and the null value spelled as Hive does.
        assertThat(Files.isDirectory(dir.resolve("ins/region=a%2Fb%3Dc%25d é/day=2024-01-02/bucket=1"))).isTrue();
        assertThat(Files.isDirectory(dir.resolve("ins/region=__HIVE_DEFAULT_PARTITION__/day=2024-01-01/bucket=0"))).isTrue();

        // A failing INSERT adds nothing and leaves no visible file.
        long files;
        try (Stream<Path> all = Files.walk(dir.resolve("ins"))) {
            files = all.filter(p -> p.getFileName().toString().endsWith(".vortex")).count();
        }
        assertThatThrownBy(() -> computeActual("INSERT INTO ins SELECT nationkey, CAST(1 / (nationkey - 20) AS varchar), 'z', DATE '2024-02-01', 0 "
                + "FROM tpch.tiny.nation")).hasMessageContaining("Division by zero");
        try (Stream<Path> all = Files.walk(dir.resolve("ins"))) {
            assertThat(all.filter(p -> p.getFileName().toString().endsWith(".vortex")).count()).isEqualTo(files);
        }
        assertThat(computeActual("SELECT count(*) FROM ins").getOnlyValue()).isEqualTo(27L);
        assertThatThrownBy(() -> computeActual("INSERT INTO ins VALUES (1, 'x', '__HIVE_DEFAULT_PARTITION__', DATE '2024-01-01', 1)"))
                .hasMessageContaining("Hive's name for null");
        assertUpdate("DROP TABLE ins");
    }
}
