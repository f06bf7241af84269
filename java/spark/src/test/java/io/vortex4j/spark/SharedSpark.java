package io.vortex4j.spark;

import org.apache.spark.sql.SparkSession;

/** The one local[2] session the module's tests share (started once; ends with the test JVM). */
final class SharedSpark {
    private static SparkSession session;

    private SharedSpark() {}

    static synchronized SparkSession session() {
        if (session == null) {
            session = SparkSession.builder().master("local[2]").appName("vortex4j-test")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "2")
                    .getOrCreate();
            session.sparkContext().setLogLevel("ERROR");
        }
        return session;
    }
}
