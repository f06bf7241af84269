package io.vortex4j.bench;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.RowFilter;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The generic path's IN, side by side in one JVM: a comparison per literal and row ({@link
 * RowFilter#test}, {@code Literals.compare} against each literal in turn) against the set lookup
 * of {@link RowFilter#select} (one probe of the list's literal set per row), on one 65,536-row
 * chunk of an i64 column and a dictionary-encoded utf8 column, for lists of 10, 100 and 10,000
 * literals. Best of 7 after a warm-up ({@code --markdown}: the table alone, then a line naming
 * the command and the machine; see {@link Report}).
 *
 * <pre>
 * bin/bench in-list [--markdown]
 * </pre>
 */
public final class InListBench {
    private static final int ROWS = 1 << 16;

    public static void main(String[] args) throws Exception {
        Report report = new Report("bin/bench in-list", args);
        Path dir = Files.createTempDirectory("vortex4j-bench");
        Path p = dir.resolve("in.vortex");
        Random r = new Random(1);
        long[] l = new long[ROWS];
        String[] s = new String[ROWS];
        for (int i = 0; i < ROWS; i++) {
            l[i] = r.nextInt(1 << 20);
            s[i] = String.format("sym%06d", r.nextInt(4096));
        }
        Schema schema = Schema.of(new Field("l", DataType.INT64, false), new Field("s", DataType.UTF8, false));
        try (VortexWriter w = VortexWriter.create(p, schema)) {
            w.write(new Batch(schema, ROWS).set("l", l).set("s", s));
            w.finish();
        }
        if (report.markdown()) {
            report.note("One 65,536-row chunk; best of 7 after a warm-up");
            report.header("column", "literals", "per-literal ms", "set ms", "ratio");
        } else {
            System.out.printf("%-6s %7s %14s %12s %8s%n", "column", "n", "per-literal ms", "set ms", "ratio");
        }
        try (VortexFile file = VortexFile.open(p)) {
            for (int n : new int[] {10, 100, 10_000}) {
                List<Object> ints = new ArrayList<>();
                List<Object> strings = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    ints.add((long) r.nextInt(1 << 20));
                    strings.add(String.format("sym%06d", r.nextInt(8192)));
                }
                run(report, file, "l", Predicate.in("l", ints), n);
                run(report, file, "s", Predicate.in("s", strings), n);
            }
        }
        Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        report.end();
    }

    private static void run(Report report, VortexFile file, String column, Predicate leaf, int n) {
        try (Scan scan = file.scan(column)) {
            for (Chunk c : scan) {
                try (c) {
                    Array a = c.column(0);
                    java.util.function.IntSupplier perLiteral = () -> {
                        int hits = 0;
                        for (int i = 0; i < a.length(); i++) {
                            hits += RowFilter.test(leaf, Values.valueAt(a, i)) ? 1 : 0;
                        }
                        return hits;
                    };
                    java.util.function.IntSupplier set = () -> RowFilter.select(a, leaf).cardinality();
                    if (perLiteral.getAsInt() != set.getAsInt()) {
                        throw new IllegalStateException(column + ": the two paths disagree for " + n + " literals");
                    }
                    double perLiteralMs = best(perLiteral);
                    double setMs = best(set);
                    if (report.markdown()) {
                        report.row(column, Integer.toString(n), String.format("%.2f", perLiteralMs),
                                String.format("%.2f", setMs), String.format("%.1f", perLiteralMs / setMs));
                    } else {
                        System.out.printf("%-6s %7d %14.2f %12.2f %7.1fx%n", column, n, perLiteralMs, setMs,
                                perLiteralMs / setMs);
                    }
                }
                break;
            }
        }
    }

    private static double best(java.util.function.IntSupplier f) {
        int check = f.getAsInt();
        double best = Double.MAX_VALUE;
        for (int k = 0; k < 7; k++) {
            long t = System.nanoTime();
            if (f.getAsInt() != check) {
                throw new IllegalStateException("not deterministic");
            }
            best = Math.min(best, (System.nanoTime() - t) / 1e6);
        }
        return best;
    }
}
