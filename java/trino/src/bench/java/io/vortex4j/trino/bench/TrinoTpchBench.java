package io.vortex4j.trino.bench;

import io.trino.Session;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.vortex4j.cli.sample.Trades;
import io.vortex4j.tpch.TpchAnswer;
import io.vortex4j.tpch.TpchData;
import io.vortex4j.tpch.TpchQueries;
import io.vortex4j.tpch.TpchRounds;
import io.vortex4j.trino.Catalog;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The 22 TPC-H queries ({@code bench/tpch/queries}, run as they are) through one local Trino on
 * two catalogs of the same rows: {@code vortex} over the Vortex files and Trino's Hive connector
 * over the Parquet files they were converted from ({@link BenchCatalogs}). Per query: a first run
 * on each catalog, whose answers are compared ({@link TpchAnswer#difference}), then {@code runs}
 * rounds taking the catalogs in turn; the best time of each and Hive ÷ vortex (above 1: vortex is
 * faster). A wrong answer is marked and makes the exit status 1; a failed query is marked. Then
 * the geometric mean over the queries both answered alike, and the trades sample's
 * {@code count(*) WHERE sym = 'NVDA'} against a Parquet copy Trino writes through Hive.
 *
 * <pre>
 * bin/bench trino-tpch [--data DIR] [--sf SF] [--runs N] [--queries 1,6,...] [--workers N]
 *     [--sample DIR|none] [--no-analyze] [--markdown]
 * </pre>
 */
public final class TrinoTpchBench {
    private static final String USAGE = "usage: bench trino-tpch [--data DIR] [--sf SF] [--runs N] [--queries 1,6,...|all]"
            + " [--workers N] [--sample DIR|none] [--no-analyze] [--markdown]";
    private static final long SAMPLE_ROWS = 10_000_000;
    private static final String SAMPLE_QUERY = "SELECT count(*) FROM trades WHERE sym = 'NVDA'";

    private TrinoTpchBench() {}

    public static void main(String[] args) throws Exception {
        Path cache = Path.of(System.getProperty("user.home"), ".cache", "vortex4j");
        Path dir = cache.resolve("tpch");
        Path sample = cache.resolve("bench");
        String sf = "1";
        int runs = 3;
        int workers = 2;
        List<Integer> queries = TpchQueries.ALL;
        boolean markdown = false;
        boolean analyze = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--markdown" -> markdown = true;
                case "--no-analyze" -> analyze = false;
                case "--data" -> dir = Path.of(value(args, ++i));
                case "--sf" -> sf = value(args, ++i);
                case "--runs" -> runs = Integer.parseInt(value(args, ++i));
                case "--queries" -> queries = TpchQueries.parse(value(args, ++i));
                case "--workers" -> workers = Integer.parseInt(value(args, ++i));
                case "--sample" -> sample = value(args, ++i).equals("none") ? null : Path.of(args[i]);
                default -> usage();
            }
        }
        if (runs < 1 || workers < 0) {
            usage();
        }
        Report report = new Report("bin/bench trino-tpch " + String.join(" ", args), markdown);
        TpchData data = TpchData.ensure(dir, sf, System.err::println);
        boolean wrong = false;
        try (BenchCatalogs trino = BenchCatalogs.start(data.vortex.toAbsolutePath(), workers)) {
            long t0 = System.nanoTime();
            for (String t : TpchData.TABLES) {
                trino.addParquetTable(t, data.parquet(t), analyze);
            }
            report.note(String.format("Trino %s, %d nodes in one JVM (DistributedQueryRunner); TPC-H SF %s"
                    + " (tpchgen-cli); catalog vortex over the Vortex files, catalog hive (file metastore, local file"
                    + " system) over the Parquet files as external tables, %s (%.0f s); best of %d runs after a"
                    + " first run whose answers are compared", trinoVersion(), workers + 1, data.scaleFactor,
                    analyze ? "ANALYZEd" : "without statistics", (System.nanoTime() - t0) / 1e9, runs));
            Session vortex = BenchCatalogs.session(BenchCatalogs.VORTEX, Catalog.SCHEMA);
            Session hive = BenchCatalogs.session(BenchCatalogs.HIVE, BenchCatalogs.HIVE_SCHEMA);
            report.header("query", "vortex", "vortex first run", "Hive + Parquet", "Hive ÷ vortex");
            double logV = 0, logH = 0;
            int compared = 0;
            for (int q : queries) {
                String sql = TpchQueries.sql(q);
                TpchRounds.Outcome[] o = time(trino, List.of(vortex, hive), sql, runs);
                String diff = o[0].ok() && o[1].ok()
                        ? TpchAnswer.difference(o[1].answer(), o[0].answer(), TpchQueries.orderKeys(q)) : null;
                if (diff != null) {
                    wrong = true;
                    System.err.println("q" + q + ": vortex's answer differs from Hive's: " + diff);
                }
                boolean ok = o[0].ok() && o[1].ok() && diff == null;
                if (ok) {
                    logV += Math.log(o[0].bestMs());
                    logH += Math.log(o[1].bestMs());
                    compared++;
                }
                report.row("q" + q, cell(o[0]) + (diff != null ? " (wrong answer)" : ""),
                        o[0].ok() ? ms(o[0].firstMs()) : "", cell(o[1]),
                        ok ? ratio(o[1].bestMs() / o[0].bestMs()) : "");
            }
            if (compared > 0) {
                double v = Math.exp(logV / compared), h = Math.exp(logH / compared);
                report.row("geometric mean (" + compared + " of " + queries.size() + " queries)", ms(v), "", ms(h),
                        ratio(h / v));
            }
            if (sample != null) {
                wrong |= sampleRow(trino, sample, runs, report);
            }
        }
        report.end();
        System.exit(wrong ? 1 : 0);
    }

    /**
     * The trades sample's count in catalog {@code sample} (over {@code dir}, {@code trades.vortex}
     * written there first when missing or of another size, as {@code bin/bench}'s harnesses write it) and in a Parquet copy of it that Hive
     * writes; true when the counts differ.
     */
    private static boolean sampleRow(BenchCatalogs trino, Path dir, int runs, Report report) throws Exception {
        Path file = dir.resolve("trades.vortex");
        if (Trades.rowsIn(file) != SAMPLE_ROWS) {
            System.err.printf("writing %,d rows to %s%n", SAMPLE_ROWS, file);
            Files.createDirectories(dir);
            // The other harnesses' Parquet copy (DuckDB's) is of the old rows: they write it again.
            Files.deleteIfExists(dir.resolve("trades.parquet"));
            Trades.write(file, SAMPLE_ROWS, 2026, null);
        }
        trino.addVortexCatalog("sample", dir.toAbsolutePath());
        trino.copyToParquet("sample." + Catalog.SCHEMA + ".trades", "trades");
        TpchRounds.Outcome[] o = time(trino, List.of(BenchCatalogs.session("sample", Catalog.SCHEMA),
                BenchCatalogs.session(BenchCatalogs.HIVE, BenchCatalogs.HIVE_SCHEMA)), SAMPLE_QUERY, runs);
        boolean ok = o[0].ok() && o[1].ok();
        String diff = ok ? TpchAnswer.difference(o[1].answer(), o[0].answer(), new int[0]) : null;
        if (diff != null) {
            System.err.println("sample: vortex's count differs from Hive's: " + diff);
        }
        report.row("10M-row sample: `" + SAMPLE_QUERY.replace("FROM trades ", "… ") + "`",
                cell(o[0]) + (diff != null ? " (wrong answer)" : ""), o[0].ok() ? ms(o[0].firstMs()) : "",
                cell(o[1]), ok && diff == null ? ratio(o[1].bestMs() / o[0].bestMs()) : "");
        return diff != null;
    }


    /** {@code sql} timed in each session ({@link TpchRounds}); a failure goes to stderr. */
    private static TpchRounds.Outcome[] time(BenchCatalogs trino, List<Session> sessions, String sql, int runs) {
        List<TpchRounds.Run> runsOf = new ArrayList<>();
        for (Session s : sessions) {
            runsOf.add(() -> answer(trino.runner.execute(s, sql)));
        }
        TpchRounds.Outcome[] out = TpchRounds.time(runsOf, runs);
        for (int k = 0; k < out.length; k++) {
            if (!out[k].ok()) {
                System.err.println(sessions.get(k).getCatalog().orElseThrow() + " failed: " + sql + "\n" + out[k].failure());
            }
        }
        return out;
    }

    private static TpchAnswer answer(MaterializedResult result) {
        List<List<Object>> rows = new ArrayList<>();
        for (MaterializedRow r : result.getMaterializedRows()) {
            rows.add(r.getFields());
        }
        return TpchAnswer.of(result.getColumnNames(), rows);
    }

    /** The version of the SPI on the classpath (the testing server names itself "testversion"). */
    private static String trinoVersion() {
        return String.valueOf(io.trino.spi.Plugin.class.getPackage().getImplementationVersion());
    }


    private static String cell(TpchRounds.Outcome o) {
        return o.ok() ? ms(o.bestMs()) : "error";
    }

    private static String ms(double ms) {
        return String.format("%.1f ms", ms);
    }

    /** Two decimals, or two significant digits below 0.1. */
    private static String ratio(double r) {
        return r >= 0.1 ? String.format("%.2f", r) : new BigDecimal(r).round(new MathContext(2)).toPlainString();
    }

    private static String value(String[] args, int i) {
        return i < args.length ? args[i] : usage();
    }

    private static String usage() {
        System.err.println(USAGE);
        System.exit(2);
        return null;
    }
}
