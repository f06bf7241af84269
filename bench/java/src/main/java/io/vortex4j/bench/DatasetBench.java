package io.vortex4j.bench;

import io.vortex4j.cli.sample.Trades;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Float64Array;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.VarBinArray;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;

/**
 * Pushed aggregates over one file against the same rows in 100 files, at 1 and 2 threads, in one
 * JVM, all warm, best of N: prints times and ratios. Every configuration's answer is checked
 * against the one-file, one-thread answer before it is timed ({@code --markdown}: the table
 * alone, then a line naming the command and the machine; see {@link Report}).
 *
 * <pre>
 * bin/bench dataset [--data DIR] [--rows N] [--runs N] [--markdown]
 * </pre>
 */
public final class DatasetBench {
    private DatasetBench() {}

    private static final String[][] QUERIES = {
        {"count-eq", "SELECT count(*) FROM trades WHERE sym = 'NVDA'"},
        {"group-sum", "SELECT sym, count(*), sum(volume) FROM trades GROUP BY sym"},
        {"group-in", "SELECT sym, count(*), sum(volume) FROM trades WHERE sym IN ('AAPL', 'MSFT', 'NVDA', 'AMZN')"
            + " GROUP BY sym"},
        {"avg-price", "SELECT count(*), avg(price) FROM trades WHERE price BETWEEN 100 AND 200"},
    };

    public static void main(String[] args) throws Exception {
        DataOptions options = DataOptions.parse(args, "bench-datasets", 7,
                "bin/bench dataset [--data DIR] [--rows N] [--runs N] [--markdown]");
        Path dir = options.dir();
        long rows = options.rows();
        int runs = options.runs();
        Report report = new Report("bin/bench dataset", args);
        Path one = dir.resolve("one");
        Path hundred = dir.resolve("hundred");
        Path file = one.resolve("trades.vortex");
        if (!Files.isRegularFile(file) || Trades.rowsIn(file) != rows) {
            Files.createDirectories(one);
            System.err.printf("writing %,d rows to %s%n", rows, file);
            Trades.write(file, rows, 2026, null);
            Files.createDirectories(hundred.resolve("trades"));
            System.err.printf("copying them to 100 files in %s%n", hundred.resolve("trades"));
            copy(file, hundred.resolve("trades"), 100, rows);
        }
        String[] names = {"1 file, 1 thread", "1 file, 2 threads", "100 files, 1 thread", "100 files, 2 threads"};
        Connection[] cs = {
            DriverManager.getConnection("jdbc:vortex:" + one + ";threads=1"),
            DriverManager.getConnection("jdbc:vortex:" + one + ";threads=2"),
            DriverManager.getConnection("jdbc:vortex:" + hundred + ";threads=1"),
            DriverManager.getConnection("jdbc:vortex:" + hundred + ";threads=2"),
        };
        try {
            report.note(String.format("%,d rows; best of %d runs after a warm-up; ms", rows, runs));
            report.header("query", names[0], names[1], names[2], names[3], "1 file: t1 ÷ t2", "100 files: t1 ÷ t2",
                    "t2: 100 files ÷ 1 file");
            for (String[] q : QUERIES) {
                List<String> expected = SqlBench.canonical(cs[0], q[1]);
                for (int k = 0; k < cs.length; k++) {
                    List<String> got = SqlBench.canonical(cs[k], q[1]);
                    if (!got.equals(expected)) {
                        throw new IllegalStateException(q[0] + " (" + names[k] + "): " + got + " but " + expected);
                    }
                }
                double[] t = SqlBench.bestInRounds(List.of(cs), q[1], runs);
                report.row(q[0], String.format("%.1f", t[0]), String.format("%.1f", t[1]), String.format("%.1f", t[2]),
                        String.format("%.1f", t[3]), SqlBench.ratio(t[0] / t[1]), SqlBench.ratio(t[2] / t[3]),
                        SqlBench.ratio(t[3] / t[1]));
            }
        } finally {
            for (Connection c : cs) {
                c.close();
            }
        }
        report.end();
    }


    /** The trades rows of {@code source} in order into {@code n} files of contiguous rows. */
    static void copy(Path source, Path folder, int n, long rows) {
        long per = (rows + n - 1) / n;
        try (VortexFile f = VortexFile.open(source); Scan scan = f.scan()) {
            int k = 0;
            VortexWriter w = null;
            long inFile = 0;
            for (Chunk chunk : scan) {
                try (chunk) {
                    int len = chunk.length();
                    for (int start = 0; start < len; ) {
                        if (w == null) {
                            w = VortexWriter.create(folder.resolve(String.format("part-%03d.vortex", k++)), Trades.SCHEMA);
                            inFile = 0;
                        }
                        int m = (int) Math.min(len - start, per - inFile);
                        w.write(batch(chunk, start, m));
                        inFile += m;
                        start += m;
                        if (inFile == per) {
                            w.finish();
                            w.close();
                            w = null;
                        }
                    }
                }
            }
            if (w != null) {
                w.finish();
                w.close();
            }
        }
    }

    private static Batch batch(Chunk chunk, int start, int m) {
        long[] ts = new long[m];
        String[] sym = new String[m];
        double[] price = new double[m];
        long[] volume = new long[m];
        Int64Array tsA = (Int64Array) chunk.column(0);
        Float64Array priceA = (Float64Array) chunk.column(2);
        Int64Array volumeA = (Int64Array) chunk.column(3);
        for (int i = 0; i < m; i++) {
            int r = start + i;
            ts[i] = tsA.getLong(r);
            sym[i] = chunk.column(1) instanceof VarBinDictArray d ? d.getString(r) : ((VarBinArray) chunk.column(1)).getString(r);
            price[i] = priceA.getDouble(r);
            volume[i] = volumeA.getLong(r);
        }
        return new Batch(Trades.SCHEMA, m).set("ts", ts).set("sym", sym).set("price", price).set("volume", volume);
    }
}
