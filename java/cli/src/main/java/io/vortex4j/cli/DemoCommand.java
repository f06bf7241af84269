package io.vortex4j.cli;

import io.vortex4j.calcite.VortexSql;
import io.vortex4j.cli.sample.Trades;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.compute.PredicateEvaluator;
import io.vortex4j.reader.predicate.Predicate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code demo}: the main job. Generates the 10M-row trades sample in a cache folder if absent,
 * then runs a SQL workload, printing each result and its time with the dictionary filter on and
 * off (and, for reference, with push-down off and vortex's own filtered scan).
 */
@Command(name = "demo", description = "Run a SQL workload over a generated 10M-row trades sample.")
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--data", description = "folder for trades.vortex (default: ~/.cache/vortex4j/demo)")
    Path data;

    @Option(names = "--rows", defaultValue = "10000000", description = "rows to generate (default ${DEFAULT-VALUE})")
    long rows;

    @Option(names = "--runs", defaultValue = "5", description = "timed runs per measurement, best kept (default 5)")
    int runs;

    @Option(names = "--skip-baseline", description = "skip the slow push-down-off baseline")
    boolean skipBaseline;

    /** One workload query, with the native (vortex) equivalent of its filter and columns. */
    record Query(String title, String sql, Predicate nativeFilter, boolean materialize, String... nativeColumns) {}

    static final List<Query> WORKLOAD = List.of(
            new Query("equality", "SELECT count(*) AS n FROM trades WHERE sym = 'AAPL'",
                    Predicate.eq("sym", "AAPL"), false, "sym"),
            new Query("IN list", "SELECT count(*) AS n FROM trades WHERE sym IN ('MSFT', 'NVDA', 'SHOP')",
                    Predicate.in("sym", "MSFT", "NVDA", "SHOP"), false, "sym"),
            new Query("not equal", "SELECT count(*) AS n FROM trades WHERE sym <> 'AAPL'",
                    Predicate.ne("sym", "AAPL"), false, "sym"),
            new Query("range", "SELECT count(*) AS n, round(avg(price), 2) AS avg_price FROM trades"
                    + " WHERE sym BETWEEN 'A' AND 'AZZZ' AND price BETWEEN 100 AND 200",
                    Predicate.and(Predicate.between("sym", "A", "AZZZ"), Predicate.between("price", 100.0, 200.0)),
                    true, "price"),
            new Query("filtered GROUP BY", "SELECT sym, count(*) AS trades, sum(volume) AS volume FROM trades"
                    + " WHERE sym IN ('AAPL', 'MSFT', 'GOOG', 'AMZN') GROUP BY sym ORDER BY sym",
                    Predicate.in("sym", "AAPL", "MSFT", "GOOG", "AMZN"), true, "sym", "volume"));

    @Override
    public Integer call() throws Exception {
        Path dir = data != null ? data : defaultDir();
        Files.createDirectories(dir);
        Path file = dir.resolve("trades.vortex");
        if (!Files.isRegularFile(file) || Trades.rowsIn(file) != rows) {
            GenerateCommand.generate(file, rows, 2026);
        }
        System.out.printf("vortex4j demo: %,d trades in %s%n", rows, file);
        System.out.printf("times: best of %d runs, after one warm-up pass over the whole workload%n", runs);
        System.out.println("  on        = the SQL statement with push-down and the dictionary filter, run again:");
        System.out.println("              its plan comes from the connection's plan cache");
        System.out.println("  planned   = the same on a connection without plan cache: Calcite parses, validates,");
        System.out.println("              optimizes and compiles it every time (a query's first run)");
        System.out.println("  off       = push-down on, dictionary filter off (-Dvortex4j.dictFilter=false)");
        System.out.println("  vortex    = vortex's own filtered scan of the same rows and columns (no SQL)");
        System.out.println("  no push-down = Calcite filters and aggregates every row itself");
        try (Connection pushdown = VortexSql.connect(dir, true);
             Connection unplanned = VortexSql.connect(dir, true, 0);
             Connection plain = VortexSql.connect(dir, false);
             VortexFile vf = VortexFile.open(file)) {
            for (Query query : WORKLOAD) {
                run(pushdown, query.sql(), true);
                run(pushdown, query.sql(), false);
                run(unplanned, query.sql(), true);
            }
            int q = 1;
            for (Query query : WORKLOAD) {
                System.out.printf("%nQ%d  %s: %s%n", q++, query.title(), query.sql());
                print(pushdown, query.sql());
                double on = time(() -> run(pushdown, query.sql(), true));
                double planned = time(() -> run(unplanned, query.sql(), true));
                double off = time(() -> run(pushdown, query.sql(), false));
                double nativeMs = time(() -> vf.referenceFilteredCount(query.nativeFilter(), query.materialize(),
                        query.nativeColumns()));
                StringBuilder line = new StringBuilder(String.format(
                        "    on %.1f ms (%.1fx vortex) | planned %.1f ms | off %.1f ms (%.1fx on) | vortex %.1f ms",
                        on, on / nativeMs, planned, off, off / on, nativeMs));
                if (!skipBaseline) {
                    double base = timeOnce(() -> run(plain, query.sql(), true));
                    line.append(String.format(" | no push-down %.0f ms (%.0fx)", base, base / on));
                }
                System.out.println(line);
            }
            parameterQuery(pushdown, unplanned, vf, q);
        } finally {
            PredicateEvaluator.setDictFilterEnabled(true);
        }
        return 0;
    }

    /** The symbols the parameter query sweeps. */
    static final List<String> SYMBOLS = List.of("AAPL", "MSFT", "NVDA", "GOOG", "AMZN", "META", "TSLA", "IBM");

    /** A prepared statement with a parameter, run for each of {@link #SYMBOLS}: times per value. */
    private void parameterQuery(Connection pushdown, Connection unplanned, VortexFile vf, int q) throws SQLException {
        String sql = "SELECT count(*) AS n FROM trades WHERE sym = ?";
        System.out.printf("%nQ%d  parameter: %s, for each of %s%n", q, sql, SYMBOLS);
        LongSupplier sweep = () -> sweep(pushdown, sql);
        double on = time(sweep) / SYMBOLS.size();
        double planned = time(() -> sweep(unplanned, sql)) / SYMBOLS.size();
        double nativeMs = time(() -> {
            long n = 0;
            for (String s : SYMBOLS) {
                n += vf.referenceFilteredCount(Predicate.eq("sym", s), false, "sym");
            }
            return n;
        }) / SYMBOLS.size();
        System.out.printf("    rows %d in all%n", sweep.getAsLong());
        System.out.printf("    per value: on %.1f ms (%.1fx vortex) | planned %.1f ms | vortex %.1f ms%n",
                on, on / nativeMs, planned, nativeMs);
    }

    /** Prepares {@code sql} and runs it once per symbol; returns the total count. */
    private static long sweep(Connection c, String sql) {
        PredicateEvaluator.setDictFilterEnabled(true);
        long total = 0;
        try {
            for (String s : SYMBOLS) {
                try (java.sql.PreparedStatement ps = c.prepareStatement(sql)) {
                    ps.setString(1, s);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        total += rs.getLong(1);
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
        return total;
    }

    static Path defaultDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path cache = xdg != null && !xdg.isEmpty() ? Paths.get(xdg) : Paths.get(System.getProperty("user.home"), ".cache");
        return cache.resolve("vortex4j").resolve("demo");
    }


    /** Reads every value of every row (as a client would); returns the number of rows. */
    private static long drain(ResultSet rs) throws SQLException {
        long n = 0;
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            for (int i = 1; i <= columns; i++) {
                rs.getObject(i);
            }
            n++;
        }
        return n;
    }

    /** Runs the query, reading every value; returns the number of rows. */
    static long run(Connection c, String sql, boolean dictFilter) {
        PredicateEvaluator.setDictFilterEnabled(dictFilter);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return drain(rs);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    private static void print(Connection c, String sql) throws SQLException {
        PredicateEvaluator.setDictFilterEnabled(true);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            java.io.StringWriter buf = new java.io.StringWriter();
            java.io.PrintWriter w = new java.io.PrintWriter(buf);
            long rows = OutputFormat.TABLE.write(Rows.of(rs), w);
            w.println(rows + (rows == 1 ? " row" : " rows"));
            w.flush();
            for (String line : buf.toString().split("\n")) {
                System.out.println("    " + line);
            }
        }
    }

    private double time(LongSupplier work) {
        return FilterCommand.bestOf(work, runs)[1] / 1e6;
    }

    private static double timeOnce(LongSupplier work) {
        long t0 = System.nanoTime();
        work.getAsLong();
        return (System.nanoTime() - t0) / 1e6;
    }
}
