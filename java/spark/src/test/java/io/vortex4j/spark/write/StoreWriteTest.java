package io.vortex4j.spark.write;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.reader.internal.Native;
import io.vortex4j.reader.stores.S3Server;
import io.vortex4j.spark.SharedSpark;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Writes into {@code s3://} prefixes (an S3 API server in this JVM, {@link S3Server}) read back
 * as the rows written: plain and {@code partitionBy} (values that need Hive's escapes among them),
 * appended and overwritten, with no staged object left behind; a job failing part way leaves the
 * rows it was to replace.
 */
public class StoreWriteTest {
    private static SparkSession spark;
    private static S3Server server;
    private static Map<String, String> options;

    @BeforeClass
    public static void setUp() {
        spark = SharedSpark.session();
        server = S3Server.start();
        server.createBucket("out");
        options = S3Server.properties(server.endpoint());
    }

    @AfterClass
    public static void tearDown() {
        server.close();
    }

    private static Dataset<Row> rows(long from, long to) {
        return spark.range(from, to, 1, 3).selectExpr("id", "concat('s', id % 7) AS sym", "id % 3 AS part",
                "CAST(id % 1000 AS INT) AS x");
    }

    private static DataFrameWriter<Row> writer(Dataset<Row> df) {
        return df.write().format("vortex").options(options);
    }

    private static List<String> readBack(String location) {
        DataFrameReader reader = spark.read().format("vortex").options(options);
        reader.load(location).createOrReplaceTempView("written");
        return SharedSpark.rows("SELECT id, sym, part, x FROM written");
    }

    private static List<String> expected(Dataset<Row> df) {
        df.createOrReplaceTempView("expected");
        return SharedSpark.rows("SELECT id, sym, part, x FROM expected");
    }

    /** Every object under {@code location}, hidden ones too. */
    private static List<String> objects(String location) {
        return Arrays.asList((String[]) Native.listObjects(location)[0]);
    }

    @Test
    public void aWriteAppendedToAndOverwrittenReadsBackAsItsRows() {
        writer(rows(0, 20_000)).mode("overwrite").save("s3://out/plain");
        assertEquals(expected(rows(0, 20_000)), readBack("s3://out/plain"));
        writer(rows(20_000, 25_000)).mode("append").save("s3://out/plain");
        assertEquals(expected(rows(0, 25_000)), readBack("s3://out/plain"));
        writer(rows(100, 200)).mode("overwrite").save("s3://out/plain");
        assertEquals(expected(rows(100, 200)), readBack("s3://out/plain"));
        List<String> left = objects("s3://out/plain/");
        assertFalse(left.isEmpty());
        assertTrue(left.toString(), left.stream().allMatch(o -> o.endsWith(".vortex") && !o.contains("_temporary")));
    }

    @Test
    public void aPartitionedWriteIsHiveFoldersOfTheRows() {
        writer(rows(0, 9_000)).mode("overwrite").partitionBy("part").save("s3://out/parted");
        assertEquals(expected(rows(0, 9_000)), readBack("s3://out/parted"));
        List<String> left = objects("s3://out/parted/");
        assertTrue(left.toString(), left.stream().allMatch(o -> o.matches("s3://out/parted/part=[012]/part-.*\\.vortex")));
        writer(rows(5, 50)).mode("overwrite").partitionBy("part").save("s3://out/parted");
        assertEquals(expected(rows(5, 50)), readBack("s3://out/parted"));
    }

    @Test
    public void partitionValuesThatNeedEscapesReadBackAsWritten() {
        // Hive folder names escape '/', '%', '=' and the like as %XX; the object keys must keep
        // the escapes (one folder per value), and the read must decode them once.
        Dataset<Row> df = spark.range(0, 700, 1, 3).selectExpr("id",
                "element_at(array('a/b', 'x y', '50%', 'k=v', 'é', 'plain', NULL), CAST(id % 7 AS INT) + 1) AS tag");
        df.write().format("vortex").options(options).mode("overwrite").partitionBy("tag").save("s3://out/escaped");
        DataFrameReader reader = spark.read().format("vortex").options(options);
        reader.load("s3://out/escaped").createOrReplaceTempView("written");
        df.createOrReplaceTempView("expected");
        assertEquals(SharedSpark.rows("SELECT id, tag FROM expected"), SharedSpark.rows("SELECT id, tag FROM written"));
        List<String> folders = objects("s3://out/escaped/").stream()
                .map(o -> o.substring("s3://out/escaped/".length(), o.lastIndexOf('/')))
                .distinct().sorted().toList();
        assertEquals(List.of("tag=50%25", "tag=__HIVE_DEFAULT_PARTITION__", "tag=a%2Fb", "tag=k%3Dv", "tag=plain",
                "tag=x y", "tag=é"), folders);
    }

    @Test
    public void aJobThatFailsPartWayLeavesTheOldRowsAndNoStagedObject() {
        writer(rows(0, 3_000)).mode("overwrite").partitionBy("part").save("s3://out/aborted");
        List<String> before = objects("s3://out/aborted/");
        // One of three tasks fails after the others may have staged their files.
        Dataset<Row> failing = rows(3_000, 9_000).selectExpr("id", "sym", "part",
                "CAST(IF(id = 8500, raise_error('task failed on purpose'), x) AS INT) AS x");
        try {
            writer(failing).mode("overwrite").partitionBy("part").save("s3://out/aborted");
            fail("the write was to fail");
        } catch (RuntimeException e) {
            assertTrue(String.valueOf(e.getMessage()), String.valueOf(e).contains("task failed on purpose")
                    || String.valueOf(e.getCause()).contains("task failed on purpose"));
        }
        assertEquals(before, objects("s3://out/aborted/"));
        assertEquals(expected(rows(0, 3_000)), readBack("s3://out/aborted"));
    }
}
