package io.vortex4j.spark.read;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.stores.S3Server;
import io.vortex4j.spark.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The source reads {@code s3://} locations (an S3 API server in this JVM, {@link S3Server}) with
 * Spark's answers over a Parquet copy of the rows: configured by the source's {@code s3.*} options,
 * or by the session's Hadoop {@code fs.s3a.*} settings.
 */
public class StoreReadTest {
    private static SparkSession spark;
    private static S3Server server;
    private static Path dir;

    @BeforeClass
    public static void setUp() throws Exception {
        spark = SharedSpark.session();
        server = S3Server.start();
        server.createBucket("spark");
        server.createBucket("hadoop");
        dir = Files.createTempDirectory("vortex4j-spark-store");
        Dataset<Row> df = spark.range(0, 50_000, 1, 3).selectExpr("id", "concat('s', id % 7) AS sym", "id % 3 AS part",
                "CAST(id % 1000 AS INT) AS x");
        df.write().parquet(dir.resolve("parquet").toString());
        df.write().mode("overwrite").partitionBy("part").format("vortex").save(dir.resolve("vortex").toString());
        server.putTree("spark", "t/", dir.resolve("vortex"));
        server.putTree("hadoop", "t/", dir.resolve("vortex"));
        spark.read().parquet(dir.resolve("parquet").toString()).createOrReplaceTempView("p");
    }

    @AfterClass
    public static void tearDown() throws Exception {
        server.close();
        SharedSpark.delete(dir);
    }

    private static final String[] QUERIES = {
        "SELECT COUNT(*) FROM t WHERE sym = 's3'",
        "SELECT part, COUNT(*), SUM(x), MAX(id) FROM t GROUP BY part",
        "SELECT sym, COUNT(*), MIN(x) FROM t WHERE part = 1 GROUP BY sym",
        "SELECT id, sym, part FROM t WHERE x = 7 AND part = 2",
    };

    private static void sameAsParquet(String view) {
        for (String q : QUERIES) {
            List<String> expected = SharedSpark.rows(q.replace(" t ", " p "));
            assertTrue(q, !expected.isEmpty());
            assertEquals(q, expected, SharedSpark.rows(q.replace(" t ", " " + view + " ")));
        }
    }

    @Test
    public void sourceOptionsReachTheStore() {
        DataFrameReader reader = spark.read().format("vortex");
        for (Map.Entry<String, String> o : S3Server.properties(server.endpoint()).entrySet()) {
            reader = reader.option(o.getKey(), o.getValue());
        }
        reader.load("s3://spark/t").createOrReplaceTempView("s3_options");
        sameAsParquet("s3_options");
    }

    @Test
    public void hadoopS3aSettingsReachTheStore() {
        org.apache.hadoop.conf.Configuration conf = spark.sparkContext().hadoopConfiguration();
        conf.set("fs.s3a.endpoint", server.endpoint());
        conf.set("fs.s3a.endpoint.region", "us-east-1");
        conf.set("fs.s3a.access.key", S3Server.ACCESS_KEY);
        conf.set("fs.s3a.secret.key", S3Server.SECRET_KEY);
        conf.set("fs.s3a.path.style.access", "true");
        try {
            spark.read().format("vortex").load("s3a://hadoop/t/").createOrReplaceTempView("s3_hadoop");
            sameAsParquet("s3_hadoop");
        } finally {
            for (String k : new String[] {"fs.s3a.endpoint", "fs.s3a.endpoint.region", "fs.s3a.access.key",
                "fs.s3a.secret.key", "fs.s3a.path.style.access"}) {
                conf.unset(k);
            }
        }
    }
}
