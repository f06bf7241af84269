package io.vortex4j.bench;

import io.vortex4j.tpch.TpchAnswer;
import io.vortex4j.tpch.TpchData;
import io.vortex4j.tpch.TpchQueries;
import io.vortex4j.tpch.TpchRounds;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The 22 TPC-H queries ({@code bench/tpch/queries}) on vortex4j ({@code jdbc:vortex:} over the
 * Vortex tables) against DuckDB's JDBC driver over the same tables in Parquet, as {@code
 * tpchgen-cli} writes them (see {@link TpchData}; generated and converted when missing). Per
 * query: a first run on each engine (its answers compared, {@link TpchAnswer#difference}; for
 * vortex4j its time is shown too: planning included, which the connection's plan cache then
 * saves), then {@code runs} rounds taking the engines in turn; the best time of each, and DuckDB
 * ÷ vortex4j (above 1: vortex4j is faster). A vortex4j query over {@code --timeout} seconds is
 * stopped ({@code Statement.setQueryTimeout}) and marked; a wrong answer is marked and makes the
 * exit status 1. The last row is the geometric mean over the queries both engines answered
 * alike.
 *
 * <pre>
 * bin/bench tpch [--data DIR] [--sf SF] [--threads N] [--runs N] [--queries 1,6,...] [--timeout S]
 *     [--engine native|calcite] [--markdown]
 * </pre>
 */
public final class TpchBench {
    private static final String USAGE = "usage: bench tpch [--data DIR] [--sf SF] [--threads N] [--runs N]"
            + " [--queries 1,6,...|all] [--timeout S] [--engine NAME] [--markdown]";

    private TpchBench() {}

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(System.getProperty("user.home"), ".cache", "vortex4j", "tpch");
        String sf = "1";
        int threads = Runtime.getRuntime().availableProcessors();
        int runs = 3;
        List<Integer> queries = TpchQueries.ALL;
        int timeout = 300;
        String engine = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            if (v == null && !a.equals(Report.MARKDOWN) && !a.equals("--help")) {
                usage(a);
            }
            switch (a) {
                case "--data": dir = Paths.get(v); i++; break;
                case "--sf": sf = v; i++; break;
                case "--threads": threads = Integer.parseInt(v); i++; break;
                case "--runs": runs = Integer.parseInt(v); i++; break;
                case "--queries": queries = TpchQueries.parse(v); i++; break;
                case "--timeout": timeout = Integer.parseInt(v); i++; break;
                case "--engine": engine = v; i++; break;
                case Report.MARKDOWN: break;
                default: usage(a);
            }
        }
        if (runs < 1 || threads < 1 || timeout < 0) {
            usage("--runs");
        }
        Report report = new Report("bin/bench tpch", args);
        TpchData data = TpchData.ensure(dir, sf, System.err::println);
        String url = "jdbc:vortex:" + data.vortex.toAbsolutePath() + ";threads=" + threads
                + (engine == null ? "" : ";engine=" + engine);
        boolean wrong = false;
        try (Connection vortex = DriverManager.getConnection(url);
             Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            try (Statement s = duck.createStatement()) {
                s.execute("SET threads = " + threads);
            }
            TpchQueries.createDuckDbViews(duck, data);
            report.note(String.format("TPC-H SF %s (tpchgen-cli); vortex4j `%s`%s; DuckDB %s with %d threads over the"
                    + " Parquet files; best of %d runs after a first run whose answers are compared; vortex4j"
                    + " timeout %d s", data.scaleFactor, url.replace(data.vortex.toAbsolutePath().toString(), "DIR"),
                    engine == null ? " (default engine)" : "", duck.getMetaData().getDatabaseProductVersion(), threads,
                    runs, timeout));
            report.header("query", "engine", "vortex4j", "vortex4j first run (planning)", "DuckDB + Parquet",
                    "DuckDB ÷ vortex4j");
            double logV = 0, logD = 0, logRatio = 0;
            int compared = 0;
            List<String> problems = new ArrayList<>();
            for (int q : queries) {
                String sql = TpchQueries.sql(q);
                int vortexTimeout = timeout;
                TpchRounds.Outcome[] o = TpchRounds.time(List.of(() -> TpchAnswer.read(vortex, sql, vortexTimeout),
                        () -> TpchAnswer.read(duck, sql, 0)), runs);
                TpchRounds.Outcome v = o[0], d = o[1];
                String vCell = v.ok() ? SqlBench.ms(v.bestMs(), 1) : failure("vortex4j", v, timeout);
                String firstCell = Double.isNaN(v.firstMs()) ? "" : SqlBench.ms(v.firstMs(), 1);
                String dCell = d.ok() ? SqlBench.ms(d.bestMs(), 1) : failure("DuckDB", d, 0);
                String ratio = "";
                if (v.ok() && d.ok()) {
                    String diff = TpchAnswer.difference(d.answer(), v.answer(), TpchQueries.orderKeys(q));
                    if (diff != null) {
                        wrong = true;
                        vCell += " (wrong answer)";
                        problems.add("q" + q + ": vortex4j's answer differs from DuckDB's: " + diff);
                    } else {
                        ratio = ratio(d.bestMs() / v.bestMs());
                        logV += Math.log(v.bestMs());
                        logD += Math.log(d.bestMs());
                        logRatio += Math.log(d.bestMs() / v.bestMs());
                        compared++;
                    }
                }
                report.row("q" + q, engineOf(vortex, sql), vCell, firstCell, dCell, ratio);
            }
            if (compared > 0) {
                report.row("geometric mean (" + compared + " of " + queries.size() + " queries)", "",
                        SqlBench.ms(Math.exp(logV / compared), 1), "", SqlBench.ms(Math.exp(logD / compared), 1),
                        ratio(Math.exp(logRatio / compared)));
            }
            for (String p : problems) {
                System.err.println(p);
            }
        }
        report.end();
        if (wrong) {
            System.exit(1);
        }
    }

    /**
     * The engine that runs {@code sql}: {@code native} when its plan is the native engine's, else
     * {@code calcite} (the reason the native engine declined it, if it did, on stderr).
     */
    private static String engineOf(Connection c, String sql) {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            String first = rs.next() ? rs.getString(1).trim() : "";
            if (first.startsWith("NativeQuery")) {
                return "native";
            }
            if (first.contains("declined")) {
                System.err.println(first);
            }
            return "calcite";
        } catch (SQLException e) {
            return "?";
        }
    }

    /** A ratio as the tables print it: two decimals, or two significant digits below 0.1 (0.0011). */
    static String ratio(double r) {
        return r >= 0.1 ? SqlBench.ratio(r) : new java.math.BigDecimal(r).round(new java.math.MathContext(2)).toPlainString();
    }

    private static void usage(String arg) {
        boolean help = arg.equals("--help");
        (help ? System.out : System.err).println(USAGE);
        System.exit(help ? 0 : 2);
    }

    /** The cell of an engine whose query failed (the failure on stderr): a timeout, or an error. */
    private static String failure(String engine, TpchRounds.Outcome o, int timeout) {
        System.err.printf("%s failed after %.1f s: %s%n", engine, o.failedAfterS(), o.failure());
        return timedOut(o.failure(), o.failedAfterS(), timeout) ? "timeout (> " + timeout + " s)" : "error";
    }

    /** Whether {@code e} is the statement's timeout (or a cancellation at or after it). */
    private static boolean timedOut(Exception e, double seconds, int timeout) {
        if (e instanceof SQLTimeoutException) {
            return true;
        }
        return timeout > 0 && seconds >= timeout && e instanceof SQLException sql && "57014".equals(sql.getSQLState());
    }
}
