package io.vortex4j.bench.spark;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Side-by-side benchmark (not a test, not in CI): the connector over the 10M-row sample against
 * {@code spark.read.parquet} of the same rows, local[2], best of 3 warm runs each, reported as
 * ratios; also the connector with one input partition per file ({@code splitRows} above the
 * file's rows), to show what splits change. The unfiltered {@code SUM(price), MAX(volume)} is
 * answered from the file's footer; the row after it forces the computed path with a filter every
 * row passes. Run: {@code gradle :spark:writeClasspath :bench:sparkClasses}, then {@code java
 * --add-opens ... -cp "$(cat java/spark/build/classpath.txt):bench/java/build/classes/java/spark"
 * io.vortex4j.bench.spark.SparkBench ~/.cache/vortex4j/bench} (the {@code --add-opens} of
 * {@code java/spark/build.gradle}'s tests).
 */
public final class SparkBench {
    private SparkBench() {}

    public static void main(String[] args) {
        String dir = args.length > 0 ? args[0] : System.getProperty("user.home") + "/.cache/vortex4j/bench";
        SparkSession spark = SparkSession.builder().master("local[2]").appName("vortex4j-bench")
                .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2").getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        spark.read().format("vortex").load(dir + "/trades.vortex").createOrReplaceTempView("v");
        spark.read().format("vortex").option("splitRows", Long.toString(Long.MAX_VALUE)).load(dir + "/trades.vortex")
                .createOrReplaceTempView("w");
        spark.read().parquet(dir + "/trades.parquet").createOrReplaceTempView("p");
        String sym = spark.sql("SELECT sym FROM p WHERE sym IS NOT NULL LIMIT 1").first().getString(0);
        String[][] queries = {
            {"COUNT(*) WHERE sym = X", "SELECT COUNT(*) FROM t WHERE sym = '" + sym + "'"},
            {"filtered GROUP BY", "SELECT sym, COUNT(*), SUM(volume), MAX(ts) FROM t WHERE volume > 500 GROUP BY sym"},
            {"LIKE filter", "SELECT COUNT(*) FROM t WHERE sym LIKE '%A%'"},
            {"SUM(price), MAX(volume)", "SELECT SUM(price), MAX(volume) FROM t"},
            // Every row passes, but a filter on a file column leaves the footers' sums and maxima
            // out: the aggregate is computed from the rows.
            {"  the same, computed (volume > 0)", "SELECT SUM(price), MAX(volume) FROM t WHERE volume > 0"},
            {"rows (float filter, not pushed)", "SELECT SUM(volume), MIN(ts), COUNT(*) FROM (SELECT ts, volume FROM t WHERE sym = '" + sym + "' AND price > 1) x"},
        };
        System.out.printf("%-34s %12s %12s %8s %16s %8s%n", "query", "parquet ms", "vortex ms", "ratio",
                "1 partition ms", "ratio");
        for (String[] q : queries) {
            String pq = q[1].replaceAll("\\bt\\b", "p");
            String vq = q[1].replaceAll("\\bt\\b", "v");
            String wq = q[1].replaceAll("\\bt\\b", "w");
            java.util.List<String> a = spark.sql(pq).collectAsList().stream().map(Row::toString).sorted().toList();
            java.util.List<String> b = spark.sql(vq).collectAsList().stream().map(Row::toString).sorted().toList();
            double parquet = best(spark, pq);
            double vortex = best(spark, vq);
            double whole = best(spark, wq);
            System.out.printf("%-34s %12.0f %12.0f %7.1fx %16.0f %7.1fx   answers %s%n", q[0], parquet, vortex,
                    parquet / vortex, whole, parquet / whole, a.equals(b) ? "equal" : a + " vs " + b);
        }
        spark.stop();
    }

    private static double best(SparkSession spark, String sql) {
        double best = Double.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long t0 = System.nanoTime();
            spark.sql(sql).collectAsList();
            best = Math.min(best, (System.nanoTime() - t0) / 1e6);
        }
        return best;
    }
}
