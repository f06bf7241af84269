package io.vortex4j.bench;

import io.vortex4j.cli.sample.Trades;
import io.vortex4j.reader.SegmentCache;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.stores.S3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pushed count over the trades sample in an S3 store (S3Proxy in this JVM, on 127.0.0.1, behind
 * a proxy adding {@code --delay} ms to every request) against the same files on disk: the bytes a
 * selective query fetches, what a repeated query fetches, and the time of a cold query (a new
 * connection, the segment cache emptied) over one file and over ten. Answers are checked equal
 * first ({@code --markdown}: the table, then a line naming the command and the machine).
 *
 * <pre>
 * bin/bench store [--data DIR] [--rows N] [--runs N] [--delay MS] [--markdown]
 * </pre>
 */
public final class StoreBench {
    private StoreBench() {}

    private static final String COUNT = "SELECT count(*) FROM trades WHERE sym = 'NVDA'";

    public static void main(String[] args) throws Exception {
        long delay = 20;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--delay")) {
                delay = Long.parseLong(args[++i]);
            } else {
                rest.add(args[i]);
            }
        }
        DataOptions options = DataOptions.parse(rest.toArray(new String[0]), "bench-datasets", 3,
                "bin/bench store [--data DIR] [--rows N] [--runs N] [--delay MS] [--markdown]");
        Report report = new Report("bin/bench store", args);
        Path one = options.dir().resolve("one");
        Path ten = options.dir().resolve("ten");
        Path file = one.resolve("trades.vortex");
        if (!Files.isRegularFile(file) || Trades.rowsIn(file) != options.rows()) {
            Files.createDirectories(one);
            System.err.printf("writing %,d rows to %s%n", options.rows(), file);
            Trades.write(file, options.rows(), 2026, null);
        }
        if (!Files.isDirectory(ten.resolve("trades"))) {
            Files.createDirectories(ten.resolve("trades"));
            DatasetBench.copy(file, ten.resolve("trades"), 10, options.rows());
        }
        try (S3Server server = S3Server.start()) {
            server.createBucket("bench");
            server.putTree("bench", "one/", one);
            server.putTree("bench", "ten/", ten);
            Stores.configure("s3://bench", S3Server.properties(server.faultyEndpoint()));
            server.faults().delay(delay);
            report.note(String.format("%,d rows; `%s`; %d ms added to every S3 request; cold runs: a new connection"
                    + " and an empty segment cache; best of %d", options.rows(), COUNT, delay, options.runs()));
            report.header("measure", "local files", "S3", "S3 ÷ local");

            String expected = answer("jdbc:vortex:" + one);
            long size = Files.size(file);
            Stores.Fetched before = Stores.fetched();
            String first;
            Stores.Fetched firstFetch;
            Stores.Fetched again;
            try (Connection c = DriverManager.getConnection("jdbc:vortex:s3://bench/one")) {
                SegmentCache.clear();
                first = scalar(c);
                // Reads ahead the first query started count as its fetch.
                firstFetch = Stores.settled(Duration.ofMinutes(1)).since(before);
                Stores.Fetched mark = Stores.fetched();
                scalar(c);
                again = Stores.settled(Duration.ofMinutes(1)).since(mark);
            }
            check(expected, first, "1 file");
            check(expected, answer("jdbc:vortex:s3://bench/ten"), "10 files");
            report.row("1 file: bytes fetched by the first query", String.format("%,d (the file)", size),
                    String.format("%,d in %d requests", firstFetch.bytes(), firstFetch.requests()),
                    String.format("%.1f%%", 100.0 * firstFetch.bytes() / size));
            report.row("1 file: bytes fetched by the query again", "–",
                    String.format("%,d in %d requests", again.bytes(), again.requests()), "–");
            for (String[] t : new String[][] {{"1 file", "one"}, {"10 files", "ten"}}) {
                double local = cold("jdbc:vortex:" + options.dir().resolve(t[1]), options.runs());
                double remote = cold("jdbc:vortex:s3://bench/" + t[1], options.runs());
                report.row(t[0] + ": cold count, ms", String.format("%.0f", local), String.format("%.0f", remote),
                        SqlBench.ratio(remote / local));
            }
        }
        report.end();
    }

    private static void check(String expected, String got, String what) {
        if (!expected.equals(got)) {
            throw new IllegalStateException(what + ": " + got + " but " + expected + " on disk");
        }
    }

    private static String answer(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            return scalar(c);
        }
    }

    private static String scalar(Connection c) throws SQLException {
        try (var s = c.createStatement(); var rs = s.executeQuery(COUNT)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** The best time of {@code runs} cold queries: connect, list, open, count. */
    private static double cold(String url, int runs) throws SQLException {
        double best = Double.MAX_VALUE;
        for (int r = 0; r <= runs; r++) {
            SegmentCache.clear();
            long start = System.nanoTime();
            answer(url);
            double ms = (System.nanoTime() - start) / 1e6;
            if (r > 0) { // the first run warms the JVM
                best = Math.min(best, ms);
            }
        }
        return best;
    }
}
