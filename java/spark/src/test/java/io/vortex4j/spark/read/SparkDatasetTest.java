package io.vortex4j.spark.read;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.spark.SharedSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.colstats.ColumnStatistics;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Datasets through the connector against Spark over Parquet copies of the same rows: a file cut
 * into several splits, and a Hive-partitioned folder written by {@code partitionBy} (Spark writes
 * its Parquet copy with the same {@code partitionBy}, so folder names are compared too).
 */
public class SparkDatasetTest {
    private static SparkSession spark;
    private static Path dir;

    @BeforeClass
    public static void setUp() throws IOException {
        spark = SharedSpark.session();
        dir = Files.createTempDirectory("vortex4j-spark-ds");
        // One file of 600k rows: with splitRows=100000, several splits (chunk-aligned).
        Dataset<Row> big = spark.range(0, 600_000, 1, 1).selectExpr("id",
                "CASE WHEN id % 11 = 0 THEN NULL ELSE concat('k', id % 17, 'é') END AS sym",
                "CAST(id % 1000 AS INT) AS x");
        big.write().parquet(dir.resolve("big-parquet").toString());
        big.write().format("vortex").mode("overwrite").save(dir.resolve("big-vortex").toString());
        spark.read().parquet(dir.resolve("big-parquet").toString()).createOrReplaceTempView("bp");
        spark.read().format("vortex").option("splitRows", "100000").load(dir.resolve("big-vortex").toString())
                .createOrReplaceTempView("bv");
        // Partition values needing escapes, non-ASCII, null (and an integer and a date column).
        Dataset<Row> hive = spark.range(0, 40_000, 1, 3).selectExpr("id",
                "CASE id % 6 WHEN 0 THEN 'a/b' WHEN 1 THEN 'x=y %' WHEN 2 THEN 'Zürich' WHEN 3 THEN NULL"
                        + " WHEN 4 THEN 'plain' ELSE 'q?#' END AS region",
                "id % 4 - 1 AS bucket", "date_add(DATE'2024-02-27', CAST(id % 3 AS INT)) AS day",
                "CASE WHEN id % 13 = 0 THEN NULL ELSE concat('s', id % 5) END AS sym", "CAST(id % 97 AS INT) AS x");
        hive.write().partitionBy("region", "bucket").parquet(dir.resolve("hive-parquet").toString());
        hive.write().format("vortex").mode("overwrite").partitionBy("region", "bucket").save(dir.resolve("hive-vortex").toString());
        hive.write().partitionBy("day").parquet(dir.resolve("days-parquet").toString());
        hive.coalesce(1).write().format("vortex").mode("overwrite").partitionBy("day").save(dir.resolve("days-vortex").toString());
        spark.read().parquet(dir.resolve("hive-parquet").toString()).createOrReplaceTempView("hp");
        spark.read().format("vortex").load(dir.resolve("hive-vortex").toString()).createOrReplaceTempView("hv");
        spark.read().parquet(dir.resolve("days-parquet").toString()).createOrReplaceTempView("dp");
        spark.read().format("vortex").load(dir.resolve("days-vortex").toString()).createOrReplaceTempView("dv");
    }

    @AfterClass
    public static void tearDown() throws IOException {
        SharedSpark.delete(dir);
    }

    private static List<String> rows(String sql) {
        return SharedSpark.rows(sql);
    }

    /** {@code sql} over view {@code t} as the vortex view {@code v} equals it over the Parquet view {@code p}. */
    private static void same(String sql, String p, String v) {
        assertEquals(sql, rows(sql.replaceAll("\\bt\\b", p)), rows(sql.replaceAll("\\bt\\b", v)));
    }

    private static VortexScan scanOf(Dataset<Row> df) {
        SparkPlan plan = df.queryExecution().executedPlan();
        List<SparkPlan> scans = scala.jdk.javaapi.CollectionConverters.asJava(
                plan.collectLeaves()).stream().filter(p -> p instanceof BatchScanExec).toList();
        assertEquals(plan.toString(), 1, scans.size());
        return (VortexScan) ((BatchScanExec) scans.get(0)).scan();
    }

    private static String plan(String sql) {
        return spark.sql(sql).queryExecution().executedPlan().toString();
    }

    @Test
    public void aBigFileIsSeveralPartitions() {
        VortexScan scan = scanOf(spark.table("bv"));
        assertEquals(1, scan.files());
        // At least four splits, grouped into as many partitions as local[2] runs tasks at once.
        int splits = java.util.Arrays.stream(scan.planInputPartitions()).mapToInt(p -> ((SplitPartition) p).splits().size()).sum();
        assertTrue("splits: " + splits, splits >= 4);
        int partitions = scan.planInputPartitions().length;
        assertEquals(2, partitions);
        assertEquals(600_000L, scan.estimateStatistics().numRows().getAsLong());
        for (String q : new String[] {
            "SELECT * FROM t",
            "SELECT COUNT(*) FROM t",
            "SELECT COUNT(*) FROM t WHERE sym = 'k3é'",
            "SELECT COUNT(*) FROM t WHERE sym LIKE '%1_é'",
            "SELECT SUM(id), SUM(x), MIN(x), MAX(id), COUNT(sym) FROM t",
            "SELECT sym, COUNT(*), SUM(x), MIN(id), MAX(x), AVG(x) FROM t WHERE x < 500 GROUP BY sym",
            "SELECT id, sym FROM t WHERE x = 999 AND sym IS NOT NULL",
            "SELECT x, COUNT(*) FROM t WHERE id >= 250000 AND id < 420000 GROUP BY x",
        }) {
            same(q, "bp", "bv");
        }
        // Aggregates run per file: one partition, so complete.
        String counted = plan("SELECT COUNT(*) FROM bv WHERE sym = 'k3é'");
        assertTrue(counted, counted.contains("partitions=1") && !counted.contains("HashAggregate"));
        String grouped = plan("SELECT sym, SUM(x) FROM bv GROUP BY sym");
        assertTrue(grouped, grouped.contains("PushedGroupBy: [sym]") && grouped.contains("partitions=1"));
    }

    @Test
    public void partitionByWritesSparksFolders() throws IOException {
        assertEquals(folders(dir.resolve("hive-parquet")), folders(dir.resolve("hive-vortex")));
        assertTrue(folders(dir.resolve("hive-vortex")).toString(),
                folders(dir.resolve("hive-vortex")).contains("region=a%2Fb/bucket=-1"));
        assertTrue(folders(dir.resolve("hive-vortex")).contains("region=__HIVE_DEFAULT_PARTITION__/bucket=0"));
        assertEquals(folders(dir.resolve("days-parquet")), folders(dir.resolve("days-vortex")));
    }

    /** The partition folders under {@code root}, relative, with '/' between levels. */
    private static Set<String> folders(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> Files.isRegularFile(p) && !p.getFileName().toString().startsWith("_")
                            && !p.getFileName().toString().startsWith("."))
                    .map(p -> root.relativize(p.getParent()).toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    public void aHiveFolderReadsBackAsWritten() {
        Dataset<Row> v = spark.table("hv");
        assertEquals("id,day,sym,x,region,bucket", String.join(",", v.columns()));
        assertEquals("bigint", v.schema().apply("bucket").dataType().simpleString());
        same("SELECT * FROM t", "hp", "hv");
        for (String q : new String[] {
            "SELECT id FROM t WHERE region = 'Zürich'",
            "SELECT id FROM t WHERE region IS NULL AND bucket > 0",
            "SELECT id, region FROM t WHERE region LIKE '%/%' OR (bucket = -1 AND NOT (region = 'plain'))",
            "SELECT COUNT(*) FROM t WHERE region = 'x=y %'",
            "SELECT region, COUNT(*), SUM(x), MAX(sym) FROM t GROUP BY region",
            "SELECT region, COUNT(*), MIN(x) FROM t WHERE bucket IN (0, 2) AND sym = 's2' GROUP BY region",
            "SELECT day, COUNT(*), SUM(x) FROM t GROUP BY day",
        }) {
            same(q, "hp", "hv");
        }
        String grouped = plan("SELECT region, COUNT(*), SUM(x) FROM hv GROUP BY region");
        assertTrue(grouped, grouped.contains("PushedGroupBy: [region]"));
        assertTrue(plan("SELECT id FROM hv WHERE bucket = 1").contains("PushedFilters: [bucket"));
    }

    @Test
    public void aGroupHeldByOnePartitionIsCompletePushedDown() {
        // One file per day folder: each day is one partition, so the partials are the answer.
        String q = "SELECT day, COUNT(*), SUM(x), MIN(sym) FROM t WHERE x > 3 GROUP BY day";
        same(q, "dp", "dv");
        String plan = plan(q.replace(" t ", " dv "));
        assertTrue(plan, plan.contains("PushedGroupBy: [day]") && !plan.contains("HashAggregate"));
        // Several files per region folder: Spark merges the partials.
        String partial = plan("SELECT region, COUNT(*) FROM hv GROUP BY region");
        assertTrue(partial, partial.contains("HashAggregate"));
        same("SELECT day, COUNT(*) FROM t WHERE day > DATE'2024-02-27' GROUP BY day", "dp", "dv");
    }

    @Test
    public void partitionFiltersPruneFilesBeforeOpeningThem() throws IOException {
        Path root = dir.resolve("hive-vortex");
        List<String> all;
        try (Stream<Path> s = Files.walk(root)) {
            all = s.filter(p -> Files.isRegularFile(p) && p.toString().endsWith(".vortex")).map(Path::toString).sorted().toList();
        }
        List<String> zurich = all.stream().filter(p -> p.contains("/region=plain/bucket=1/")).toList();
        assertFalse(zurich.isEmpty());
        VortexScan scan = scanOf(spark.read().format("vortex").load(root.toString()).filter("region = 'plain' AND bucket = 1"));
        assertEquals(zurich.size(), scan.files());
        Set<String> opened = scan.datasets().openedFiles();
        // The dataset reads the first listed file's footer for the schema; no other file is opened.
        Set<String> allowed = new TreeSet<>(zurich);
        allowed.add(all.get(0));
        assertTrue(opened + " vs " + allowed, allowed.containsAll(opened) && opened.containsAll(zurich));
        assertTrue(scan.description(), scan.description().contains("files=" + zurich.size()));
        // Statistics: the kept rows, and the partition column's exact min, max and nulls.
        Statistics stats = scan.estimateStatistics();
        long rows = spark.sql("SELECT COUNT(*) FROM hp WHERE region = 'plain' AND bucket = 1").first().getLong(0);
        assertEquals(rows, stats.numRows().getAsLong());
        ColumnStatistics bucket = stats.columnStats().get(Expressions.column("bucket"));
        assertEquals(1L, bucket.min().get());
        assertEquals(1L, bucket.max().get());
        assertEquals(0L, bucket.nullCount().getAsLong());
    }

    @Test
    public void statisticsOfEveryPartition() {
        Statistics stats = scanOf(spark.table("hv")).estimateStatistics();
        Row expected = spark.sql("SELECT COUNT(*), MIN(bucket), MAX(bucket), COUNT(DISTINCT region),"
                + " COUNT(*) - COUNT(region) FROM hp").first();
        assertEquals(expected.getLong(0), stats.numRows().getAsLong());
        ColumnStatistics bucket = stats.columnStats().get(Expressions.column("bucket"));
        assertEquals((long) expected.getInt(1), bucket.min().get());
        assertEquals((long) expected.getInt(2), bucket.max().get());
        ColumnStatistics region = stats.columnStats().get(Expressions.column("region"));
        assertEquals(expected.getLong(3), region.distinctCount().getAsLong());
        assertEquals(expected.getLong(4), region.nullCount().getAsLong());
        assertFalse("strings have no min/max for the optimizer", region.min().isPresent());
    }

    /** The value Spark's MIN/MAX returned, in the internal form column statistics hold. */
    private static Object internal(Object v) {
        if (v instanceof java.sql.Date d) {
            return Math.toIntExact(d.toLocalDate().toEpochDay());
        }
        if (v instanceof java.math.BigDecimal b) {
            return org.apache.spark.sql.types.Decimal.apply(b);
        }
        return v;
    }

    /**
     * The scan's statistics of each of {@code columns} equal Spark's own null count, MIN and MAX
     * over {@code parquetSql} (a query of the same rows); {@code ordered}: the columns that must
     * have a min and max (unless all null).
     */
    private static void sameStatistics(Statistics stats, String parquetSql, List<String> columns, Set<String> ordered) {
        StringBuilder select = new StringBuilder("SELECT ");
        for (String c : columns) {
            select.append("COUNT(*) - COUNT(").append(c).append("), MIN(").append(c).append("), MAX(").append(c).append("), ");
        }
        Row expected = spark.sql(select.append("1 FROM (").append(parquetSql).append(")").toString()).first();
        for (int i = 0; i < columns.size(); i++) {
            String c = columns.get(i);
            ColumnStatistics cs = stats.columnStats().get(Expressions.column(c));
            assertTrue("statistics of " + c + ": " + stats.columnStats().keySet(), cs != null);
            assertEquals(c + " nulls", expected.getLong(3 * i), cs.nullCount().getAsLong());
            if (ordered.contains(c)) {
                assertEquals(c + " min", java.util.Optional.ofNullable(internal(expected.get(3 * i + 1))), cs.min());
                assertEquals(c + " max", java.util.Optional.ofNullable(internal(expected.get(3 * i + 2))), cs.max());
            } else {
                assertFalse(c + " has no min/max for Spark", cs.min().isPresent() || cs.max().isPresent());
            }
        }
    }

    @Test
    public void fileColumnStatisticsEqualSparks() {
        Dataset<Row> df = spark.range(0, 30_000, 1, 3).selectExpr("id",
                "CASE WHEN id % 7 = 0 THEN NULL ELSE CAST(id % 1000 - 300 AS INT) END AS qty",
                "CAST(id % 97 AS DOUBLE) * 1.5 - 20 AS price",
                "CASE WHEN id % 5 = 0 THEN NULL ELSE CAST((id % 10007) / 100.0 - 30 AS DECIMAL(10,2)) END AS amount",
                "CASE WHEN id % 4 = 0 THEN NULL ELSE date_add(DATE'2024-01-01', CAST(id % 400 AS INT)) END AS day",
                "CASE WHEN id % 3 = 0 THEN NULL ELSE id % 2 = 0 END AS flag",
                "CASE WHEN id % 6 = 0 THEN NULL ELSE concat('s', id % 11, 'é') END AS sym",
                "CAST(id % 200 AS SMALLINT) AS small", "CAST(NULL AS BIGINT) AS nothing");
        df.write().parquet(dir.resolve("stats-parquet").toString());
        df.write().format("vortex").mode("overwrite").save(dir.resolve("stats-vortex").toString());
        spark.read().parquet(dir.resolve("stats-parquet").toString()).createOrReplaceTempView("sp");
        Dataset<Row> sv = spark.read().format("vortex").load(dir.resolve("stats-vortex").toString());
        List<String> columns = List.of("id", "qty", "price", "amount", "day", "flag", "sym", "small", "nothing");
        Set<String> ordered = Set.of("id", "qty", "price", "amount", "day", "flag", "small", "nothing");
        VortexScan scan = scanOf(sv);
        assertEquals(3, scan.files());
        sameStatistics(scan.estimateStatistics(), "SELECT * FROM sp", columns, ordered);
        // A file column filtered: the files' statistics are not the scan's rows'; none given.
        Statistics filtered = scanOf(sv.where("qty > 100")).estimateStatistics();
        assertFalse(filtered.columnStats().containsKey(Expressions.column("id")));
        // Partition columns filtered: the statistics of the files kept.
        sameStatistics(scanOf(spark.table("hv").where("region = 'plain' AND bucket >= 0")).estimateStatistics(),
                "SELECT * FROM hp WHERE region = 'plain' AND bucket >= 0", List.of("id", "x", "day", "sym"),
                Set.of("id", "x", "day"));
    }

    @Test
    public void aFileReplacedBetweenQueriesIsReadAnew() throws IOException {
        Path folder = dir.resolve("replaced");
        Dataset<Row> first = spark.range(0, 300_000, 1, 1).selectExpr("id", "CAST(id % 7 AS INT) AS x",
                "concat('k', id % 5) AS sym");
        first.write().format("vortex").mode("overwrite").save(folder.toString());
        Path file;
        try (Stream<Path> s = Files.list(folder)) {
            file = s.filter(p -> p.toString().endsWith(".vortex")).findFirst().get();
        }
        String[] queries = {
            "SELECT SUM(x), MAX(id), COUNT(*) FROM t",
            "SELECT sym, COUNT(*), SUM(id) FROM t WHERE x < 4 GROUP BY sym",
            "SELECT id, sym FROM t WHERE x = 3 AND id < 2000",
        };
        first.createOrReplaceTempView("rp");
        Dataset<Row> vortex = spark.read().format("vortex").option("splitRows", "100000").load(folder.toString());
        vortex.createOrReplaceTempView("rv");
        for (String q : queries) {
            same(q, "rp", "rv");
        }
        // Other rows, moved over the file: same path, same modification time.
        Dataset<Row> second = spark.range(0, 300_000, 1, 1).selectExpr("id * 3 AS id", "CAST(id % 5 AS INT) AS x",
                "concat('q', id % 3) AS sym");
        Path staged = dir.resolve("replacement");
        second.write().format("vortex").mode("overwrite").save(staged.toString());
        Path replacement;
        try (Stream<Path> s = Files.list(staged)) {
            replacement = s.filter(p -> p.toString().endsWith(".vortex")).findFirst().get();
        }
        Files.setLastModifiedTime(replacement, Files.getLastModifiedTime(file));
        Files.move(replacement, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        second.createOrReplaceTempView("rp");
        for (String q : queries) {
            same(q, "rp", "rv");
        }
    }

    @Test
    public void aFileChangedAfterPlanningFailsNamingIt() throws IOException {
        Path copy = dir.resolve("changing");
        spark.table("bv").where("id < 50000").repartition(2).write().format("vortex").mode("overwrite").save(copy.toString());
        List<Path> files;
        try (Stream<Path> s = Files.list(copy)) {
            files = s.filter(p -> p.toString().endsWith(".vortex")).sorted().toList();
        }
        assertEquals(2, files.size());
        // The physical plans hold the planned splits; they run after the files change.
        SparkPlan sum = spark.read().format("vortex").load(copy.toString()).selectExpr("SUM(x)")
                .queryExecution().executedPlan();
        SparkPlan rows = spark.read().format("vortex").load(files.get(0).toString()).where("sym = 'k1é'")
                .queryExecution().executedPlan();
        Files.write(files.get(1), new byte[] {0}, StandardOpenOption.APPEND);
        expectFailureNaming(sum, files.get(1), "changed after the split was planned");
        Files.delete(files.get(0));
        expectFailureNaming(rows, files.get(0), "no such file");
    }

    private static void expectFailureNaming(SparkPlan plan, Path file, String problem) {
        try {
            plan.executeCollect();
            fail("reading " + file + " after it changed must fail");
        } catch (Exception e) {
            String m = String.valueOf(e.getMessage());
            assertTrue(m, m.contains(file.toString()) && m.contains(problem));
        }
    }

    @Test
    public void aFileWithOtherColumnsFailsNamingIt() throws IOException {
        Path mixed = dir.resolve("mixed");
        spark.sql("SELECT id, CAST(id AS INT) AS x FROM range(100)").write().format("vortex").mode("overwrite")
                .save(mixed.resolve("a").toString());
        spark.sql("SELECT id, CAST(id AS STRING) AS x FROM range(100)").write().format("vortex").mode("overwrite")
                .save(mixed.resolve("b").toString());
        try {
            spark.read().format("vortex").load(mixed.toString()).selectExpr("SUM(x)").collectAsList();
            fail("a file whose column x is a string cannot join a dataset whose x is an int");
        } catch (Exception e) {
            String m = String.valueOf(e.getMessage());
            assertTrue(m, m.contains(mixed.resolve("b") + "/part-") && m.contains("column 'x' is utf8"));
        }
    }

    @Test
    public void partitioningByAFloatIsRefused() {
        try {
            spark.sql("SELECT id, CAST(id AS DOUBLE) AS d FROM range(10)").write().format("vortex").mode("overwrite").partitionBy("d")
                    .save(dir.resolve("by-double").toString());
            fail("a double partition column cannot be read back as a double");
        } catch (Exception e) {
            assertTrue(e.getMessage(), e.getMessage().contains("'d'"));
        }
    }
}
