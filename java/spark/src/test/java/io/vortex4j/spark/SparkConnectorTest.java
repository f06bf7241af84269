package io.vortex4j.spark;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Date;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The connector against Spark's own answers: the same seeded rows (nulls, non-ASCII strings) as
 * a Parquet copy written by Spark, and as vortex files written by the connector (three files;
 * a larger single file of several chunks); every query runs on both and must give the same rows.
 */
public class SparkConnectorTest {
    private static final String[] SYMS = {"AAPL", "MSFT", "Zürich", "東京", "a_b%c", "", "GOOG"};
    private static SparkSession spark;
    private static Path dir;

    @BeforeClass
    public static void setUp() throws IOException {
        dir = Files.createTempDirectory("vortex4j-spark");
        spark = SharedSpark.session();
        StructType schema = new StructType()
                .add("id", DataTypes.LongType, false)
                .add("sym", DataTypes.StringType, true)
                .add("qty", DataTypes.IntegerType, true)
                .add("price", DataTypes.DoubleType, false)
                .add("amount", DataTypes.createDecimalType(10, 2), true)
                .add("day", DataTypes.DateType, true)
                .add("flag", DataTypes.BooleanType, true);
        Random random = new Random(42);
        List<Row> rows = new ArrayList<>();
        for (long id = 0; id < 60_000; id++) {
            rows.add(RowFactory.create(id,
                    random.nextInt(10) == 0 ? null : SYMS[random.nextInt(SYMS.length)],
                    random.nextInt(8) == 0 ? null : random.nextInt(100) - 20,
                    random.nextDouble() * 100,
                    random.nextInt(9) == 0 ? null : BigDecimal.valueOf(random.nextInt(100_000) - 10_000, 2),
                    random.nextInt(7) == 0 ? null : Date.valueOf(java.time.LocalDate.of(2024, 1, 1).plusDays(random.nextInt(60))),
                    random.nextInt(5) == 0 ? null : random.nextBoolean()));
        }
        Dataset<Row> df = spark.createDataFrame(rows, schema).repartition(3);
        df.write().parquet(dir.resolve("parquet").toString());
        df.write().format("vortex").mode("overwrite").save(dir.resolve("vortex").toString());
        spark.read().parquet(dir.resolve("parquet").toString()).createOrReplaceTempView("p");
        spark.read().format("vortex").load(dir.resolve("vortex").toString()).createOrReplaceTempView("v");
    }

    @AfterClass
    public static void tearDown() throws IOException {
        SharedSpark.delete(dir);
    }

    private static List<String> rows(String sql) {
        return SharedSpark.rows(sql);
    }

    /** The query on the vortex table equals the same query on the Parquet copy. */
    private static void same(String sqlOverT) {
        List<String> expected = rows(sqlOverT.replaceAll("\\bt\\b", "p"));
        List<String> actual = rows(sqlOverT.replaceAll("\\bt\\b", "v"));
        assertEquals(sqlOverT, expected, actual);
    }

    private static String plan(String sql) {
        return spark.sql(sql).queryExecution().executedPlan().toString();
    }

    @Test
    public void writesSeveralFiles() throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve("vortex"))) {
            assertEquals(3, s.filter(p -> p.toString().endsWith(".vortex")).count());
        }
        try (Stream<Path> s = Files.list(dir.resolve("vortex"))) {
            assertTrue("no staging folder is left", s.noneMatch(p -> p.getFileName().toString().startsWith("_temporary")));
        }
    }

    @Test
    public void aFileOfSeveralChunks() throws IOException {
        Dataset<Row> big = spark.range(0, 1_000_000, 1, 1).selectExpr("id",
                "CASE WHEN id % 7 = 0 THEN NULL ELSE concat('s', id % 13, 'ü') END AS sym", "id % 1000 AS x");
        big.write().parquet(dir.resolve("big-parquet").toString());
        big.write().format("vortex").mode("overwrite").save(dir.resolve("big-vortex").toString());
        spark.read().parquet(dir.resolve("big-parquet").toString()).createOrReplaceTempView("bp");
        spark.read().format("vortex").load(dir.resolve("big-vortex").toString()).createOrReplaceTempView("bv");
        try (Stream<Path> s = Files.list(dir.resolve("big-vortex"))) {
            Path file = s.filter(p -> p.toString().endsWith(".vortex")).findFirst().get();
            try (io.vortex4j.reader.VortexFile f = io.vortex4j.reader.VortexFile.open(file);
                 io.vortex4j.reader.Scan scan = f.scan()) {
                int chunks = 0;
                for (io.vortex4j.reader.Chunk c : scan) {
                    c.close();
                    chunks++;
                }
                assertTrue("chunks: " + chunks, chunks > 1);
            }
        }
        for (String q : new String[] {
            "SELECT COUNT(*) FROM big WHERE sym = 's3ü'",
            "SELECT sym, COUNT(*), SUM(x), MIN(id), MAX(x) FROM big WHERE x < 500 GROUP BY sym",
            "SELECT id FROM big WHERE sym LIKE '%1ü' AND x > 990",
            "SELECT SUM(id), COUNT(sym) FROM big",
        }) {
            assertEquals(q, rows(q.replace("big", "bp")), rows(q.replace("big", "bv")));
        }
    }

    @Test
    public void everyColumnRoundTrips() {
        same("SELECT * FROM t");
        same("SELECT sym, day FROM t");
        assertEquals(60_000L, spark.sql("SELECT COUNT(*) FROM v").first().getLong(0));
    }

    @Test
    public void everyPushedFilterEqualsSpark() {
        String[] filters = {
            "sym = 'AAPL'", "sym <> 'AAPL'", "'MSFT' = sym", "qty < 10", "qty <= 10", "qty > 10", "qty >= 10",
            "10 > qty", "sym <=> NULL", "sym <=> 'Zürich'", "NOT (sym <=> 'Zürich')", "sym IN ('AAPL', '東京')",
            "sym IN ('AAPL', NULL)", "sym NOT IN ('AAPL', 'MSFT')", "sym IS NULL", "qty IS NOT NULL",
            "sym LIKE 'A%'", "sym LIKE '%h'", "sym LIKE '%ü%'", "startswith(sym, 'a_b')", "contains(sym, '%')",
            "endswith(sym, '京')", "(qty > 5 AND sym = 'AAPL') OR NOT flag", "NOT (qty > 5 OR sym = 'GOOG')",
            "amount > 10.5", "amount <= -3.25", "day >= DATE'2024-01-15'", "day = DATE'2024-02-01'", "flag = true",
            "flag", "NOT flag", "sym = ''", "sym > 'M'", "sym < 'Z'",
        };
        for (String f : filters) {
            same("SELECT id FROM t WHERE " + f);
            String plan = plan("SELECT id FROM v WHERE " + f);
            assertTrue(f + ": " + plan, plan.contains("PushedFilters: [") && !plan.contains("PushedFilters: []"));
        }
    }

    @Test
    public void filtersNotPushedStillAnswerRight() {
        same("SELECT id FROM t WHERE price > 50");
        same("SELECT id FROM t WHERE upper(sym) = 'AAPL'");
        same("SELECT id FROM t WHERE sym LIKE 'A_PL'");
        same("SELECT id FROM t WHERE qty + 1 = 11 AND sym = 'MSFT'");
        assertTrue(plan("SELECT id FROM v WHERE price > 50").contains("PushedFilters: []"));
    }

    @Test
    public void randomFiltersEqualSpark() {
        Random random = new Random(7);
        for (int i = 0; i < 100; i++) {
            String f = randomFilter(random, 3);
            same("SELECT id FROM t WHERE " + f);
        }
    }

    private static String randomFilter(Random r, int depth) {
        int k = r.nextInt(depth <= 0 ? 6 : 9);
        switch (k) {
            case 0: return "sym " + op(r) + " '" + SYMS[r.nextInt(SYMS.length)] + "'";
            case 1: return "qty " + op(r) + " " + (r.nextInt(120) - 30);
            case 2: return "amount " + op(r) + " " + BigDecimal.valueOf(r.nextInt(100_000) - 10_000, 2);
            case 3: return r.nextBoolean() ? "sym IS NULL" : "qty IS NOT NULL";
            case 4: return "sym IN ('" + SYMS[r.nextInt(SYMS.length)] + "', '" + SYMS[r.nextInt(SYMS.length)] + "')";
            case 5: return "day " + op(r) + " DATE'2024-01-" + (10 + r.nextInt(20)) + "'";
            case 6: return "(" + randomFilter(r, depth - 1) + " AND " + randomFilter(r, depth - 1) + ")";
            case 7: return "(" + randomFilter(r, depth - 1) + " OR " + randomFilter(r, depth - 1) + ")";
            default: return "NOT (" + randomFilter(r, depth - 1) + ")";
        }
    }

    private static String op(Random r) {
        String[] ops = {"=", "<>", "<", "<=", ">", ">=", "<=>"};
        return ops[r.nextInt(ops.length)];
    }

    @Test
    public void pushedAggregatesEqualSpark() {
        String[] queries = {
            "SELECT COUNT(*) FROM t",
            "SELECT COUNT(*) FROM t WHERE sym = 'AAPL'",
            "SELECT COUNT(qty), SUM(qty), MIN(qty), MAX(qty), AVG(qty) FROM t",
            "SELECT SUM(amount), MIN(amount), MAX(amount), AVG(amount) FROM t WHERE qty > 3",
            "SELECT MIN(sym), MAX(sym), MIN(day), MAX(day), COUNT(flag) FROM t",
            "SELECT sym, COUNT(*), SUM(qty), MAX(amount) FROM t GROUP BY sym",
            "SELECT sym, COUNT(*), AVG(qty) FROM t WHERE qty < 50 AND sym <> 'GOOG' GROUP BY sym",
            "SELECT day, COUNT(*) FROM t GROUP BY day",
            "SELECT COUNT(*) FROM t WHERE sym LIKE '%ü%'",
        };
        for (String q : queries) {
            same(q);
            String plan = plan(q.replaceAll("\\bt\\b", "v"));
            assertTrue(q + ": " + plan, plan.contains("PushedAggregation: ["));
        }
        // Double sums: the same up to rounding (the order of additions differs, as between Spark runs).
        double p = spark.sql("SELECT SUM(price) FROM p").first().getDouble(0);
        double v = spark.sql("SELECT SUM(price) FROM v").first().getDouble(0);
        assertEquals(p, v, Math.abs(p) * 1e-12);
        assertTrue(plan("SELECT SUM(price) FROM v").contains("PushedAggregation: ["));
    }

    @Test
    public void aggregatesNotPushedStillAnswerRight() {
        same("SELECT COUNT(DISTINCT sym) FROM t");
        same("SELECT sym, flag, COUNT(*) FROM t GROUP BY sym, flag");
        same("SELECT MAX(price) > 0 FROM t");
        assertTrue(!plan("SELECT sym, flag, COUNT(*) FROM v GROUP BY sym, flag").contains("PushedAggregation"));
    }

    @Test
    public void limitAndStatistics() {
        assertEquals(7, spark.sql("SELECT id FROM v WHERE sym = 'AAPL' LIMIT 7").collectAsList().size());
        assertTrue(plan("SELECT id FROM v LIMIT 7").contains("PushedLimit: 7"));
        Dataset<Row> v = spark.table("v");
        assertEquals(scala.Option.apply(scala.math.BigInt.apply(60_000L)),
                v.queryExecution().optimizedPlan().stats().rowCount());
    }

    @Test
    public void createTableUsingVortexLocation() {
        spark.sql("CREATE TABLE trades USING vortex LOCATION '" + dir.resolve("vortex") + "'");
        try {
            assertEquals(rows("SELECT sym, COUNT(*) FROM p GROUP BY sym"), rows("SELECT sym, COUNT(*) FROM trades GROUP BY sym"));
        } finally {
            spark.sql("DROP TABLE trades");
        }
    }

    @Test
    public void aFailedWriteLeavesNoFile() throws IOException {
        Path out = dir.resolve("failed");
        spark.udf().register("boom", (org.apache.spark.sql.api.java.UDF1<Long, Long>) id -> {
            if (id == 59_000L) {
                throw new IllegalStateException("boom");
            }
            return id;
        }, DataTypes.LongType);
        try {
            spark.sql("SELECT boom(id) AS id, sym FROM p").write().format("vortex").mode("append").save(out.toString());
            fail("the write should fail");
        } catch (Exception expected) {
            // the job failed
        }
        try (Stream<Path> s = Files.walk(out)) {
            assertEquals(List.of(), s.filter(p -> p.toString().endsWith(".vortex")).collect(Collectors.toList()));
        }
        // Appending and overwriting.
        spark.sql("SELECT id, sym FROM p WHERE qty = 3").write().format("vortex").mode("append").save(out.toString());
        spark.sql("SELECT id, sym FROM p WHERE qty = 4").write().format("vortex").mode("append").save(out.toString());
        assertEquals(rows("SELECT id, sym FROM p WHERE qty IN (3, 4)"),
                spark.read().format("vortex").load(out.toString()).collectAsList().stream().map(Row::toString).sorted()
                        .collect(Collectors.toList()));
        spark.sql("SELECT id, sym FROM p WHERE qty = 5").write().format("vortex").mode("overwrite").save(out.toString());
        assertEquals(rows("SELECT id, sym FROM p WHERE qty = 5"),
                spark.read().format("vortex").load(out.toString()).collectAsList().stream().map(Row::toString).sorted()
                        .collect(Collectors.toList()));
    }

    @Test
    public void unsupportedTypeNamesTheColumn() {
        try {
            spark.sql("SELECT id, array(id) AS ids FROM p").write().format("vortex").mode("append")
                    .save(dir.resolve("unsupported").toString());
            fail("an array column cannot be written");
        } catch (Exception e) {
            assertTrue(String.valueOf(e.getMessage()), String.valueOf(e.getMessage()).contains("'ids'"));
        }
    }

    @Test
    public void aCorruptFileFailsNamingIt() throws IOException {
        Path bad = dir.resolve("corrupt");
        Files.createDirectories(bad);
        Files.write(bad.resolve("bad.vortex"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        try {
            spark.read().format("vortex").load(bad.toString()).collectAsList();
            fail("a corrupt file cannot be read");
        } catch (Exception e) {
            assertTrue(String.valueOf(e.getMessage()), String.valueOf(e.getMessage()).contains("bad.vortex"));
        }
    }
}
