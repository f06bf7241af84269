package io.vortex4j.bench;

import io.vortex4j.calcite.VortexSql;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Side-by-side SQL benchmark in one JVM: vortex4j ({@code jdbc:vortex:} over {@code
 * trades.vortex}) against DuckDB's JDBC driver over a Parquet copy of the same rows written by
 * DuckDB. Both warm (the whole workload runs on every connection until the JIT compilers are
 * idle, then each query warms up again before it is timed); vortex4j with its plan cache (and, for reference, a connection without one:
 * a query's first run, planning included); DuckDB with {@code threads} threads. Every answer is
 * compared between the engines before it is timed. Prints a Markdown table of best-of-N times
 * and the ratios ({@code --markdown}: the table alone, then a line naming the command and the
 * machine; see {@link Report}).
 *
 * <pre>
 * bin/bench [--data DIR] [--rows N] [--runs N] [--threads N] [--workload expressions|scans|rows|groups|all]
 *     [--vs-one-thread] [--markdown]
 * </pre>
 *
 * <p>{@code --vs-one-thread} also times vortex4j on one thread ({@code jdbc:vortex:DIR;threads=1})
 * beside the default (all cores), in the same run: the speed-up of parallel scans and read-ahead;
 * and DuckDB on one thread beside its {@code --threads}, the same speed-up for DuckDB on this machine.
 */
public final class SqlBench {
    private SqlBench() {}

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(System.getProperty("user.home"), ".cache", "vortex4j", "bench");
        long rows = 10_000_000;
        int runs = 7;
        int threads = 2;
        String workload = "all";
        boolean vsOneThread = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--data": dir = Paths.get(v); i++; break;
                case "--rows": rows = Long.parseLong(v); i++; break;
                case "--runs": runs = Integer.parseInt(v); i++; break;
                case "--threads": threads = Integer.parseInt(v); i++; break;
                case "--workload": workload = v; i++; break;
                case "--vs-one-thread": vsOneThread = true; break;
                case Report.MARKDOWN: break;
                default:
                    (a.equals("--help") ? System.out : System.err).println("usage: bench [--data DIR] [--rows N] [--runs N] [--threads N]"
                            + " [--workload expressions|scans|rows|groups|all] [--vs-one-thread] [--markdown]");
                    System.exit(a.equals("--help") ? 0 : 2);
            }
        }
        List<Workloads.Query> queries = new ArrayList<>();
        if (workload.equals("all")) {
            queries.addAll(Workloads.EXPRESSIONS);
            queries.addAll(Workloads.SCANS);
        } else if (Workloads.ALL.containsKey(workload)) {
            queries.addAll(Workloads.ALL.get(workload));
        } else {
            throw new IllegalArgumentException("unknown workload '" + workload + "'; one of " + Workloads.ALL.keySet());
        }
        Report report = new Report("bin/bench", args);
        BenchData data = BenchData.ensure(dir, rows);
        try (Connection vortex = VortexSql.connect(data.dir, true);
             Connection firstRun = VortexSql.connect(data.dir, true, 0);
             Connection oneThread = DriverManager.getConnection("jdbc:vortex:" + data.dir + ";threads=1");
             Connection duck = DriverManager.getConnection("jdbc:duckdb:");
             Connection duckOneThread = DriverManager.getConnection("jdbc:duckdb:")) {
            for (Connection c : List.of(duck, duckOneThread)) {
                try (Statement s = c.createStatement()) {
                    s.execute("SET threads = " + (c == duck ? threads : 1));
                    s.execute("CREATE VIEW trades AS SELECT * FROM read_parquet('"
                            + data.parquet.toString().replace("'", "''") + "')");
                }
            }
            // The whole workload first, until the JIT compilers are idle: otherwise the first query
            // timed shares the second core with C2 compiling, and looks as if more threads gained nothing.
            List<Connection> all = vsOneThread ? List.of(vortex, duck, oneThread, duckOneThread) : List.of(vortex, duck);
            int passes = ThreadScalingBench.warmUp(all, queries);
            report.note(String.format("%,d rows; best of %d runs after a warm-up (%d passes over the workload); DuckDB %s"
                    + " with %d threads over %s", rows, runs, passes, duck.getMetaData().getDatabaseProductVersion(), threads,
                    data.parquet.getFileName()));
            List<String> columns = new ArrayList<>(List.of("query", "vortex4j", "first run (planning)", "DuckDB + Parquet",
                    "DuckDB ÷ vortex4j"));
            if (vsOneThread) {
                columns.addAll(List.of("vortex4j threads=1", "threads=1 ÷ default", "DuckDB threads=1 ÷ threads=" + threads));
            }
            report.header(columns.toArray(String[]::new));
            for (Workloads.Query q : queries) {
                List<String> expected = canonical(duck, q.sql());
                List<String> got = canonical(vortex, q.sql());
                if (!expected.equals(got)) {
                    throw new IllegalStateException(q.name() + ": vortex4j " + got + " but DuckDB " + expected);
                }
                if (vsOneThread && !expected.equals(canonical(oneThread, q.sql()))) {
                    throw new IllegalStateException(q.name() + ": vortex4j on one thread differs from DuckDB");
                }
                List<Connection> contenders = vsOneThread
                        ? List.of(vortex, firstRun, duck, oneThread, duckOneThread) : List.of(vortex, firstRun, duck);
                double[] t = bestInRounds(contenders, q.sql(), runs);
                double v = t[0], f = t[1], d = t[2];
                List<String> cells = new ArrayList<>(List.of(q.name() + " `" + q.sql() + "`", ms(v, 1), ms(f, 1), ms(d, 1),
                        ratio(d / v)));
                if (vsOneThread) {
                    // DuckDB's own gain from more threads on this machine, for calibration.
                    cells.addAll(List.of(ms(t[3], 1), ratio(t[3] / v), ratio(t[4] / d)));
                }
                report.row(cells.toArray(String[]::new));
            }
        }
        report.end();
    }

    /** A time as the tables print it, e.g. {@code 12.3 ms}. */
    static String ms(double ms, int decimals) {
        return String.format("%." + decimals + "f ms", ms);
    }

    /** A ratio as the tables print it, e.g. {@code 1.25}. */
    static String ratio(double r) {
        return String.format("%.2f", r);
    }

    /**
     * Best wall times in ms of {@code sql} on each connection: each warmed up (at least 3 runs and
     * 0.5 s, so the JIT has compiled the hot paths of every contender alike), then {@code runs}
     * rounds taking every connection in turn, so a busy moment of the machine or a garbage
     * collection falls on all of them rather than on whichever ran then.
     */
    static double[] bestInRounds(List<Connection> contenders, String sql, int runs) throws SQLException {
        for (Connection c : contenders) {
            long start = System.nanoTime();
            for (int i = 0; i < 3 || System.nanoTime() - start < 500_000_000L; i++) {
                drain(c, sql);
            }
        }
        double[] best = new double[contenders.size()];
        java.util.Arrays.fill(best, Double.MAX_VALUE);
        for (int r = 0; r < runs; r++) {
            for (int k = 0; k < best.length; k++) {
                long t0 = System.nanoTime();
                drain(contenders.get(k), sql);
                best[k] = Math.min(best[k], (System.nanoTime() - t0) / 1e6);
            }
        }
        return best;
    }

    private static long drain(Connection c, String sql) throws SQLException {
        long n = 0;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    rs.getObject(i);
                }
                n++;
            }
        }
        return n;
    }

    /**
     * The rows as text, numbers by value (floating point to 12 significant digits: the engines
     * add in different orders), so the two engines' answers can be compared.
     */
    static List<String> canonical(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    Object o = rs.getObject(i);
                    String v;
                    if (o == null) {
                        v = "NULL";
                    } else if (o instanceof Double || o instanceof Float) {
                        v = new BigDecimal(((Number) o).doubleValue()).round(new MathContext(12)).stripTrailingZeros().toPlainString();
                    } else if (o instanceof Number) {
                        v = new BigDecimal(o.toString()).stripTrailingZeros().toPlainString();
                    } else {
                        v = o.toString();
                    }
                    row.append(i == 1 ? "" : " | ").append(v);
                }
                out.add(row.toString());
            }
        }
        return out;
    }
}
