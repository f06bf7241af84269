package io.vortex4j.bench;

import io.vortex4j.calcite.VortexSql;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;

/**
 * vortex4j on one thread against its default (one thread per core), nothing else in the process:
 * the speed-up of parallel scans and read-ahead alone ({@link SqlBench} with {@code
 * --vs-one-thread} runs DuckDB, and a connection that plans every run, between vortex4j's runs,
 * and their work shares the cores with it). Each query of the {@code scans} workload is checked
 * to give the same rows on both connections; then the whole workload runs on both until the JIT
 * compilers are done with it ({@link #warmUp}: a compiler thread busy on the second core makes
 * the first query timed look as if a second thread gained nothing), and each query is timed in
 * alternating rounds ({@link SqlBench#bestInRounds}); prints a Markdown table of best times and
 * the ratio ({@code --markdown}: see {@link Report}). Usage: {@code bin/bench threads [--data
 * DIR] [--rows N] [--runs N] [--markdown]} (default 30 runs).
 */
public final class ThreadScalingBench {
    private ThreadScalingBench() {}

    public static void main(String[] args) throws Exception {
        DataOptions options = DataOptions.parse(args, "bench", 30,
                "bin/bench threads [--data DIR] [--rows N] [--runs N] [--markdown]");
        Path dir = options.dir();
        long rows = options.rows();
        int runs = options.runs();
        Report report = new Report("bin/bench threads", args);
        BenchData data = BenchData.ensure(dir, rows);
        try (Connection many = VortexSql.connect(data.dir, true);
             Connection one = DriverManager.getConnection("jdbc:vortex:" + data.dir + ";threads=1")) {
            report.note(String.format("%,d rows; best of %d alternating runs after a warm-up; default threads = %d", rows,
                    runs, Runtime.getRuntime().availableProcessors()));
            for (Workloads.Query q : Workloads.SCANS) {
                List<String> expected = SqlBench.canonical(one, q.sql());
                if (!expected.equals(SqlBench.canonical(many, q.sql()))) {
                    throw new IllegalStateException(q.name() + ": the default connection differs from threads=1");
                }
            }
            int passes = warmUp(List.of(many, one), Workloads.SCANS);
            report.note(String.format("(warm-up: %d passes over the workload)", passes));
            report.header("query", "default", "threads=1", "threads=1 ÷ default");
            for (Workloads.Query q : Workloads.SCANS) {
                double[] t = SqlBench.bestInRounds(List.of(many, one), q.sql(), runs);
                report.row(q.name(), SqlBench.ms(t[0], 2), SqlBench.ms(t[1], 2), SqlBench.ratio(t[1] / t[0]));
            }
        }
        report.end();
    }

    /**
     * Runs every query of {@code queries} on every connection, pass after pass, until a pass
     * leaves the JIT compilers less than 10 ms of work (at least 3 passes, at most 30).
     *
     * @return the passes run
     */
    static int warmUp(List<Connection> connections, List<Workloads.Query> queries) throws java.sql.SQLException {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        int pass = 0;
        long before;
        do {
            before = jit.getTotalCompilationTime();
            for (Workloads.Query q : queries) {
                for (Connection c : connections) {
                    SqlBench.canonical(c, q.sql());
                }
            }
            pass++;
        } while (pass < 30 && (pass < 3 || jit.getTotalCompilationTime() - before >= 10));
        return pass;
    }
}
