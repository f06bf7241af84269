package io.vortex4j.spark;

import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The connector on a real cluster (not a test, not in CI; run by {@code java/spark/bin/cluster-check}):
 * a Spark standalone master and two workers on localhost, so input partitions are serialized to
 * executor JVMs, which load the native library from the connector's jar. Writes a partitioned
 * dataset with the connector and a Parquet copy with Spark, runs the same queries on both and
 * exits 1 unless every answer is equal. Arguments: master URL, a scratch folder, the connector jar.
 */
public final class ClusterCheck {
    private ClusterCheck() {}

    public static void main(String[] args) {
        String master = args[0], dir = args[1], jar = args[2];
        SparkSession spark = SparkSession.builder().master(master).appName("vortex4j-cluster-check")
                .config("spark.jars", jar).config("spark.executor.memory", "1g").config("spark.cores.max", "2")
                .config("spark.sql.shuffle.partitions", "2").getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        String[] cols = {"id", "concat('s', id % 7) AS sym", "id % 3 AS part", "CAST(id % 1000 AS INT) AS x"};
        spark.range(0, 2_000_000, 1, 2).selectExpr(cols).write().mode("overwrite").partitionBy("part").format("vortex").save(dir + "/v");
        spark.range(0, 2_000_000, 1, 2).selectExpr(cols).write().mode("overwrite").partitionBy("part").parquet(dir + "/p");
        spark.read().format("vortex").option("splitRows", "200000").load(dir + "/v").createOrReplaceTempView("v");
        spark.read().parquet(dir + "/p").createOrReplaceTempView("p");
        String[] qs = {"SELECT COUNT(*) FROM t WHERE sym = 's3'", "SELECT part, COUNT(*), SUM(x), MAX(id) FROM t GROUP BY part",
            "SELECT sym, COUNT(*), MIN(x) FROM t WHERE part = 1 GROUP BY sym", "SELECT SUM(id) FROM t WHERE x > 990",
            "SELECT id, sym, part FROM t WHERE x = 7 AND part = 2"};
        boolean ok = true;
        for (String q : qs) {
            List<String> a = spark.sql(q.replace(" t ", " p ")).collectAsList().stream().map(Row::toString).sorted().toList();
            List<String> b = spark.sql(q.replace(" t ", " v ")).collectAsList().stream().map(Row::toString).sorted().toList();
            System.out.println((a.equals(b) ? "EQUAL   " : "DIFFER  ") + q + " -> " + (b.size() > 3 ? b.size() + " rows" : b));
            ok &= a.equals(b);
        }
        System.out.println("executors: " + (spark.sparkContext().getExecutorMemoryStatus().size() - 1) + ", all equal: " + ok);
        spark.stop();
        System.exit(ok ? 0 : 1);
    }
}
