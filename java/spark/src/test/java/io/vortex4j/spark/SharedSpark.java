package io.vortex4j.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The one local[2] session the module's tests share (started once; ends with the test JVM), and
 * the row comparison and clean-up they all use.
 */
public final class SharedSpark {
    private static SparkSession session;

    private SharedSpark() {}

    public static synchronized SparkSession session() {
        if (session == null) {
            session = SparkSession.builder().master("local[2]").appName("vortex4j-test")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "2")
                    .getOrCreate();
            session.sparkContext().setLogLevel("ERROR");
        }
        return session;
    }

    /** The rows of {@code sql}, as text, sorted: answers compared regardless of row order. */
    public static List<String> rows(String sql) {
        return session().sql(sql).collectAsList().stream().map(Row::toString).sorted().toList();
    }

    /** Deletes {@code dir} and everything under it. */
    public static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
