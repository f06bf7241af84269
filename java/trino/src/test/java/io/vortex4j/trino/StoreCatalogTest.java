package io.vortex4j.trino;

import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import io.trino.tpch.TpchTable;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.dataset.Listing;
import io.vortex4j.reader.stores.S3Server;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import io.vortex4j.trino.local.VortexQueryRunner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A catalog over an S3 prefix (S3Proxy on 127.0.0.1, {@link S3Server}) holding the same files as
 * the local catalog folder: every answer over the store equals the one over the folder, with the
 * same push-down, statistics and Hive partitions; writes commit whole objects; a missing bucket
 * or prefix and a wrong store property fail naming the location or the property, never a secret.
 */
public class StoreCatalogTest extends AbstractTestQueryFramework {
    private static final String STORE = "store";
    private static final String BUCKET = "lake";
    private static final int ROWS_PER_FILE = 300;
    private S3Server server;

    @Override
    protected QueryRunner createQueryRunner() throws Exception {
        Path dir = Files.createTempDirectory("vortex-trino-store");
        writeEvents(dir);
        QueryRunner runner = VortexQueryRunner.create(dir, 2, List.of(TpchTable.ORDERS, TpchTable.NATION));
        server = closeAfterClass(S3Server.start());
        server.createBucket(BUCKET);
        server.putTree(BUCKET, "warehouse/", dir);
        runner.createCatalog(STORE, "vortex", catalog("s3://" + BUCKET + "/warehouse"));
        return runner;
    }

    /** Hive-partitioned {@code events/region=R/day=D/part.vortex}, a single-file table and a hidden folder. */
    private static void writeEvents(Path dir) throws Exception {
        Schema schema = Schema.of(new Field("id", DataType.INT64, false), new Field("name", DataType.UTF8, true));
        String[] regions = {"eu", "us"};
        for (int r = 0; r < regions.length; r++) {
            for (int d = 1; d <= 3; d++) {
                Path folder = dir.resolve("events/region=" + regions[r] + "/day=2024-01-0" + d);
                Files.createDirectories(folder);
                write(folder.resolve("part.vortex"), schema, r * 10_000 + d * 1000);
            }
        }
        write(dir.resolve("Single.vortex"), schema, 0);
        Files.createDirectories(dir.resolve("_hidden"));
        write(dir.resolve("_hidden/x.vortex"), schema, 0);
    }

    private static void write(Path file, Schema schema, long first) {
        long[] id = new long[ROWS_PER_FILE];
        String[] name = new String[ROWS_PER_FILE];
        for (int r = 0; r < ROWS_PER_FILE; r++) {
            id[r] = first + r;
            name[r] = r % 11 == 3 ? null : "n" + (r % 7) + "-" + (first + r) % 13;
        }
        try (VortexWriter w = VortexWriter.create(file, schema)) {
            w.write(new Batch(schema, ROWS_PER_FILE).set("id", id).set("name", name));
            w.finish();
        }
    }

    /** Catalog properties of a catalog over {@code location} in the test server. */
    private Map<String, String> catalog(String location) {
        Map<String, String> properties = new HashMap<>(S3Server.properties(server.endpoint()));
        properties.put(VortexConnectorFactory.DIRECTORY, location);
        return properties;
    }

    private Session store() {
        return Session.builder(getSession()).setCatalog(STORE).setSchema(Catalog.SCHEMA).build();
    }

    /** The store catalog answers {@code sql} as the local one does (in any order), and the answer is not empty. */
    private void assertSameAnswers(String sql) {
        List<MaterializedRow> local = computeActual(sql).getMaterializedRows();
        assertThat(local).as(sql).isNotEmpty();
        assertThat(computeActual(store(), sql).getMaterializedRows()).as(sql).containsExactlyInAnyOrderElementsOf(local);
    }

    /** As {@link #assertSameAnswers}, in the same order. */
    private void assertSameOrderedAnswers(String sql) {
        List<MaterializedRow> local = computeActual(sql).getMaterializedRows();
        assertThat(local).as(sql).isNotEmpty();
        assertThat(computeActual(store(), sql).getMaterializedRows()).as(sql).containsExactlyElementsOf(local);
    }

    /** As {@link #assertSameAnswers}, and over the store the reader does all of it. */
    private void assertPushed(String sql) {
        assertSameAnswers(sql);
        assertThat(query(store(), sql)).isFullyPushedDown();
    }

    /**
     * A query lists the catalog prefix once: the table lookup, its columns, statistics and splits
     * share that listing; a write makes the transaction's next statement list again.
     */
    @Test
    public void aQueryListsThePrefixOnce() {
        String sql = "SELECT id, name FROM events WHERE day = DATE '2024-01-02' AND id % 7 = 1";
        Stores.Fetched before = Stores.fetched();
        List<MaterializedRow> rows = computeActual(store(), sql).getMaterializedRows();
        assertThat(Stores.fetched().since(before).listings()).isEqualTo(1);
        assertThat(rows).isNotEmpty().containsExactlyInAnyOrderElementsOf(computeActual(sql).getMaterializedRows());
        before = Stores.fetched();
        computeActual(store(), "SELECT count(*) FROM orders JOIN nation ON orders.custkey = nation.nationkey");
        assertThat(Stores.fetched().since(before).listings()).isEqualTo(1);
    }

    @Test
    public void tablesAndColumns() {
        assertThat(computeActual(store(), "SHOW TABLES").getOnlyColumnAsSet())
                .containsExactlyInAnyOrder("events", "orders", "nation", "single");
        assertSameOrderedAnswers("SHOW TABLES");
        assertSameOrderedAnswers("DESCRIBE orders");
        assertSameOrderedAnswers("DESCRIBE events");
        assertSameAnswers("SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'default'");
        assertSameAnswers("SELECT count(*) FROM \"SINGLE\"");
    }

    @Test
    public void filtersAndLike() {
        assertPushed("SELECT orderkey, custkey FROM orders WHERE orderkey BETWEEN 100 AND 300");
        assertPushed("SELECT orderkey FROM orders WHERE orderstatus = 'P' AND orderdate >= DATE '1995-06-01'");
        assertPushed("SELECT orderkey, comment FROM orders WHERE comment LIKE '%special%requests%'");
        assertPushed("SELECT name FROM nation WHERE name LIKE '_RAN%'");
        assertSameAnswers("SELECT orderkey FROM orders WHERE totalprice > 400000");
    }

    @Test
    public void projectionLimitAndTopN() {
        assertSameAnswers("SELECT count(*) FROM (SELECT orderkey FROM orders WHERE custkey < 500 LIMIT 25)");
        assertSameOrderedAnswers("SELECT orderkey, totalprice FROM orders ORDER BY totalprice DESC, orderkey LIMIT 10");
        assertSameOrderedAnswers("SELECT orderkey, orderdate FROM orders WHERE orderstatus = 'F' ORDER BY orderdate, orderkey DESC LIMIT 25");
        assertThat((String) computeActual(store(), "EXPLAIN SELECT orderkey FROM orders ORDER BY orderkey DESC LIMIT 3").getOnlyValue())
                .contains("topN=[");
    }

    @Test
    public void aggregates() {
        assertPushed("SELECT orderstatus, count(*), sum(custkey), min(orderdate), max(orderkey), avg(custkey) FROM orders GROUP BY orderstatus");
        assertPushed("SELECT orderpriority, count(clerk) FROM orders WHERE orderkey < 30000 GROUP BY orderpriority");
        assertPushed("SELECT count(*) FROM orders");
        assertSameAnswers("SELECT orderstatus, sum(totalprice), max(clerk) FROM orders GROUP BY orderstatus");
    }

    @Test
    public void partitionedTable() {
        assertPushed("SELECT region, day, count(*), sum(id), count(name) FROM events GROUP BY region, day");
        assertPushed("SELECT id, name FROM events WHERE region = 'eu' AND day >= DATE '2024-01-02' AND name LIKE 'n1%'");
        assertSameAnswers("SELECT region, max(name) FROM events WHERE day = DATE '2024-01-03' GROUP BY region");
        assertThat(computeActual(store(), "SELECT count(*) FROM events WHERE region = 'us'").getOnlyValue()).isEqualTo(3L * ROWS_PER_FILE);
    }

    @Test
    public void statistics() {
        assertSameAnswers("SHOW STATS FOR orders");
        assertSameAnswers("SHOW STATS FOR (SELECT * FROM events WHERE region = 'eu')");
    }

    @Test
    public void writesCommitWholeObjects() {
        for (Session s : List.of(getSession(), store())) {
            assertUpdate(s, "CREATE TABLE written AS SELECT nationkey, name FROM tpch.tiny.nation", 25);
            assertUpdate(s, "INSERT INTO written SELECT nationkey + 100, name FROM tpch.tiny.nation WHERE regionkey = 1", 5);
            assertUpdate(s, "CREATE TABLE no_rows AS SELECT nationkey, name FROM tpch.tiny.nation WHERE false", 0);
        }
        assertSameAnswers("SELECT nationkey, name FROM written");
        assertSameOrderedAnswers("DESCRIBE no_rows");
        assertThat(computeActual(store(), "SELECT count(*) FROM no_rows").getOnlyValue()).isEqualTo(0L);
        // A failing INSERT adds nothing and leaves no visible object.
        String folder = "s3://" + BUCKET + "/warehouse/written/";
        int objects = Listing.list(folder).files().size();
        assertThatThrownBy(() -> computeActual(store(), "INSERT INTO written SELECT nationkey, CAST(1 / (nationkey - 20) AS varchar) FROM tpch.tiny.nation"))
                .hasMessageContaining("Division by zero");
        assertThat(Listing.list(folder).files()).hasSize(objects);
        assertThat(computeActual(store(), "SELECT count(*) FROM written").getOnlyValue()).isEqualTo(30L);
        assertThatThrownBy(() -> computeActual(store(), "INSERT INTO single VALUES (1, 'x')")).hasMessageContaining("single file");
        for (Session s : List.of(getSession(), store())) {
            assertUpdate(s, "DROP TABLE written");
            assertUpdate(s, "DROP TABLE no_rows");
        }
        assertThat(computeActual(store(), "SHOW TABLES").getOnlyColumnAsSet()).doesNotContain("written", "no_rows");
        assertThatThrownBy(() -> Listing.list(folder)).hasMessageContaining("no objects there");
    }

    @Test
    public void insertIntoPartitionedTable() {
        String rows = "SELECT nationkey + 1000, name, 'z/' || CAST(regionkey AS varchar), DATE '2024-02-01' FROM tpch.tiny.nation";
        for (Session s : List.of(getSession(), store())) {
            assertUpdate(s, "INSERT INTO events " + rows, 25);
        }
        assertSameAnswers("SELECT id, name, region, day FROM events WHERE id >= 1000");
        assertThat(computeActual(store(), "SELECT id, name, region, day FROM events WHERE day = DATE '2024-02-01'").getMaterializedRows())
                .containsExactlyInAnyOrderElementsOf(computeActual(rows).getMaterializedRows());
        assertThat(Listing.list("s3://" + BUCKET + "/warehouse/events/region=z%2F1/day=2024-02-01/").files()).isNotEmpty();
    }

    @Test
    public void missingBucketOrPrefix() {
        for (String location : List.of("s3://no-such-bucket/warehouse", "s3://" + BUCKET + "/no-such-prefix")) {
            String name = location.contains("no-such-bucket") ? "nobucket" : "noprefix";
            getQueryRunner().createCatalog(name, "vortex", catalog(location));
            assertThatThrownBy(() -> computeActual("SHOW TABLES FROM " + name + ".\"default\""))
                    .hasMessageContaining("cannot list the catalog location " + location);
        }
    }

    @Test
    public void wrongPropertiesNamedWithoutValues() {
        Map<String, String> unknown = catalog("s3://" + BUCKET + "/warehouse");
        unknown.put("s3.no_such_setting", "hush-value-1");
        assertThatThrownBy(() -> getQueryRunner().createCatalog("unknown_store", "vortex", unknown))
                .satisfies(e -> assertThat(trace(e)).contains("s3.no_such_setting").doesNotContain("hush-value-1")
                        .doesNotContain(S3Server.SECRET_KEY));
        Map<String, String> foreign = catalog("s3://" + BUCKET + "/warehouse");
        foreign.put("vortex.no_such_setting", "1");
        assertThatThrownBy(() -> getQueryRunner().createCatalog("unknown_property", "vortex", foreign))
                .satisfies(e -> assertThat(trace(e)).contains("unknown properties [vortex.no_such_setting]")
                        .doesNotContain(S3Server.SECRET_KEY));
    }

    private static String trace(Throwable e) {
        StringWriter out = new StringWriter();
        e.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
