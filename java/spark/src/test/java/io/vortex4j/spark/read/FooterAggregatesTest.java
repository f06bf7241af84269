package io.vortex4j.spark.read;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.compute.GroupAggregate;
import io.vortex4j.spark.SharedSpark;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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
 * Aggregates of whole files answered from their footers ({@link FooterAggregates}): against the
 * same aggregates computed from the rows ({@link GroupAggregate}) file by file, and through Spark
 * against Spark's own answers over a Parquet copy. Two files, each written by one task: nulls, a
 * column of nothing but nulls, a double column holding NaN in the second file only (its footer
 * sum and min/max must not be used there), a string longer than the 64 bytes the footer keeps
 * (its max is a bound, not the value), decimals.
 */
public class FooterAggregatesTest {
    private static SparkSession spark;
    private static Path dir;
    private static final List<GroupAggregate.Aggregate> AGGREGATES = new ArrayList<>();

    static {
        AGGREGATES.add(GroupAggregate.Aggregate.countStar());
        for (String c : new String[] {"i", "none", "d", "e", "s", "amount"}) {
            for (GroupAggregate.Function f : new GroupAggregate.Function[] {GroupAggregate.Function.COUNT,
                GroupAggregate.Function.SUM, GroupAggregate.Function.MIN, GroupAggregate.Function.MAX}) {
                if (f != GroupAggregate.Function.SUM || !c.equals("s")) {
                    AGGREGATES.add(GroupAggregate.Aggregate.of(f, c));
                }
            }
        }
    }

    @BeforeClass
    public static void setUp() throws IOException {
        dir = Files.createTempDirectory("vortex4j-footer");
        spark = SharedSpark.session();
        StructType schema = new StructType()
                .add("id", DataTypes.LongType, false)
                .add("i", DataTypes.IntegerType, true)
                .add("none", DataTypes.IntegerType, true)
                .add("d", DataTypes.DoubleType, true)
                .add("e", DataTypes.DoubleType, true)
                .add("s", DataTypes.StringType, true)
                .add("amount", DataTypes.createDecimalType(12, 3), true);
        Random random = new Random(7);
        for (int file = 0; file < 2; file++) {
            List<Row> rows = new ArrayList<>();
            for (long id = file * 100_000L; id < file * 100_000L + 90_000; id++) {
                boolean nan = file == 1 && id == 150_000;
                rows.add(RowFactory.create(id,
                        random.nextInt(6) == 0 ? null : random.nextInt(2_000_001) - 1_000_000,
                        null,
                        nan ? (Double) Double.NaN : random.nextInt(9) == 0 ? null : (Double) (random.nextGaussian() * 1e4),
                        random.nextInt(5) == 0 ? null : random.nextDouble() * 100,
                        file == 1 && id == 120_000 ? "zz" + "ü".repeat(80) : random.nextInt(7) == 0 ? null : "s" + random.nextInt(50),
                        random.nextInt(8) == 0 ? null : BigDecimal.valueOf(random.nextInt(20_000_000) - 5_000_000, 3)));
            }
            Dataset<Row> df = spark.createDataFrame(rows, schema).coalesce(1);
            String mode = file == 0 ? "overwrite" : "append";
            df.write().mode(mode).parquet(dir.resolve("parquet").toString());
            df.write().format("vortex").mode(mode).save(dir.resolve("vortex").toString());
        }
        spark.read().parquet(dir.resolve("parquet").toString()).createOrReplaceTempView("fp");
        spark.read().format("vortex").load(dir.resolve("vortex").toString()).createOrReplaceTempView("fv");
    }

    @AfterClass
    public static void tearDown() throws IOException {
        SharedSpark.delete(dir);
    }

    private static List<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve("vortex"))) {
            return s.filter(p -> p.toString().endsWith(".vortex")).sorted().toList();
        }
    }

    /** Each answer the footer gives equals the aggregate computed from the rows; NaN and long strings are left. */
    @Test
    public void footerAnswersEqualComputedOnes() throws IOException {
        List<Path> files = files();
        assertEquals(2, files.size());
        int withNaN = 0;
        for (Path path : files) {
            try (VortexFile file = VortexFile.open(path)) {
                Object[] footer = FooterAggregates.answers(file, AGGREGATES);
                GroupAggregate.Result computed = GroupAggregate.run(file, null, null, AGGREGATES);
                boolean nan = computed.value(0, AGGREGATES.indexOf(GroupAggregate.Aggregate.of(GroupAggregate.Function.SUM, "d")))
                        instanceof Double x && x.isNaN();
                withNaN += nan ? 1 : 0;
                for (int a = 0; a < AGGREGATES.size(); a++) {
                    GroupAggregate.Aggregate agg = AGGREGATES.get(a);
                    Object want = computed.value(0, a);
                    String what = path.getFileName() + " " + agg;
                    boolean floatingOrder = "d".equals(agg.column()) || "e".equals(agg.column());
                    if (nan && "d".equals(agg.column()) && agg.function() != GroupAggregate.Function.COUNT) {
                        assertSame(what + ": NaN in the column, the footer's skips it", FooterAggregates.UNKNOWN, footer[a]);
                    } else if ("s".equals(agg.column()) && agg.function() == GroupAggregate.Function.MAX && want.toString().length() > 64) {
                        assertTrue(what + ": a truncated bound is no answer", footer[a] == FooterAggregates.UNKNOWN || want.equals(footer[a]));
                    } else if ("none".equals(agg.column()) || agg.function() != GroupAggregate.Function.SUM || !floatingOrder) {
                        assertEquals(what, want, footer[a]); // exact: counts, integers, decimals, strings, nulls
                    } else {
                        // The writer's order of additions: equal up to rounding.
                        double w = (Double) want;
                        assertNotSame(what, FooterAggregates.UNKNOWN, footer[a]);
                        assertEquals(what, w, (Double) footer[a], Math.abs(w) * 1e-9);
                    }
                }
            }
        }
        assertEquals("one file holds the NaN", 1, withNaN);
    }

    /** Unfiltered (footers where they answer), filtered (computed): Spark's answers over Parquet. */
    @Test
    public void answersEqualSparkOverParquet() {
        String[] queries = {
            "SELECT COUNT(*), COUNT(i), SUM(i), MIN(i), MAX(i), AVG(i) FROM t",
            "SELECT COUNT(none), SUM(none), MIN(none), MAX(none) FROM t",
            "SELECT COUNT(s), MIN(s), MAX(s) FROM t",
            "SELECT SUM(amount), MIN(amount), MAX(amount), AVG(amount), COUNT(amount) FROM t",
            "SELECT COUNT(d), SUM(d), COUNT(e) FROM t",
            "SELECT SUM(i), MAX(i), MIN(s), SUM(amount) FROM t WHERE id > 40000",
            "SELECT SUM(d) FROM t WHERE id < 100000",
        };
        for (String q : queries) {
            List<String> expected = SharedSpark.rows(q.replaceAll("\\bt\\b", "fp"));
            String v = q.replaceAll("\\bt\\b", "fv");
            String plan = spark.sql(v).queryExecution().executedPlan().toString();
            assertTrue(q + ": " + plan, plan.contains("PushedAggregation: ["));
            if (q.contains("SUM(d) FROM t WHERE")) {
                // Doubles added in another order: equal up to rounding.
                double p = spark.sql(q.replaceAll("\\bt\\b", "fp")).first().getDouble(0);
                double x = spark.sql(v).first().getDouble(0);
                assertEquals(q, p, x, Math.abs(p) * 1e-12);
                continue;
            }
            assertEquals(q, expected, SharedSpark.rows(v));
        }
        // SUM(e) (no NaN): the first file's from its footer, the second's too; equal up to rounding.
        double p = spark.sql("SELECT SUM(e) FROM fp").first().getDouble(0);
        double x = spark.sql("SELECT SUM(e) FROM fv").first().getDouble(0);
        assertEquals(p, x, Math.abs(p) * 1e-12);
    }
}
