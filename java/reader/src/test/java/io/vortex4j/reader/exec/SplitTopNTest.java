package io.vortex4j.reader.exec;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.VortexException;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * {@link TopN} against an independent answer: the rows are generated here and kept; the
 * reference sorts them with comparators written in this test (ties by row order, which {@link
 * TopN} promises: scan order), so the answers must be equal row for row — over one file cut in
 * many splits and over a folder of files, at several thread counts, with and without a filter.
 */
public class SplitTopNTest {
    private static final Schema SCHEMA = Schema.of(
            new Field("id", DataType.INT64, false),
            new Field("k", DataType.INT32, true),
            new Field("f", DataType.FLOAT64, true),
            new Field("r", DataType.FLOAT32, true),
            new Field("s", DataType.UTF8, true),
            new Field("u", DataType.UINT64, true),
            new Field("bin", DataType.BINARY, true),
            new Field("dec", DataType.decimal(20, 2), true),
            new Field("b", DataType.BOOL, true));
    private static final int ROWS = 12_000;
    private static final int BATCH = 1_000;
    private static final String[] STRINGS = {"", "a", "A", "b", "ab", "日本", "😀", "\uE000", "zz", null};
    private static final double[] DOUBLES = {Double.NaN, -0.0, 0.0, 1.5, -1.5, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, 1e300, 7};
    private static final long[] UNSIGNED = {0, 1, Long.MAX_VALUE, Long.MIN_VALUE, -1, 42};
    private static final byte[][] BINARIES = {{}, {0}, {0x7f}, {(byte) 0x80}, {(byte) 0xff}, {1, 2}, {1}};

    /** The rows written, one {@code Object[]} per row in column order ({@code u} as a signed long). */
    private static final List<Object[]> rows = new ArrayList<>();
    private static Path dir;
    private static VortexDataset file;
    private static VortexDataset folder;

    @BeforeClass
    public static void write() throws Exception {
        dir = Files.createTempDirectory("vortex4j-topn-reader");
        SplittableRandom r = new SplittableRandom(5);
        for (int i = 0; i < ROWS; i++) {
            rows.add(new Object[] {(long) i,
                r.nextInt(9) == 0 ? null : r.nextInt(-20, 20),
                r.nextInt(9) == 0 ? null : r.nextInt(3) == 0 ? r.nextDouble() : DOUBLES[r.nextInt(DOUBLES.length)],
                r.nextInt(9) == 0 ? null : (float) DOUBLES[r.nextInt(DOUBLES.length)],
                STRINGS[r.nextInt(STRINGS.length)],
                r.nextInt(9) == 0 ? null : UNSIGNED[r.nextInt(UNSIGNED.length)],
                r.nextInt(9) == 0 ? null : BINARIES[r.nextInt(BINARIES.length)],
                r.nextInt(9) == 0 ? null : BigDecimal.valueOf(r.nextLong(-100_000, 100_000), 2),
                r.nextInt(9) == 0 ? null : r.nextBoolean()});
        }
        writeRows(dir.resolve("one.vortex"), 0, ROWS);
        for (int f = 0; f < 5; f++) {
            writeRows(dir.resolve("five").resolve("part-" + f + ".vortex"), ROWS * f / 5, ROWS * (f + 1) / 5);
        }
        file = VortexDataset.open(dir.resolve("one.vortex"));
        folder = VortexDataset.open(dir.resolve("five"));
    }

    @AfterClass
    public static void close() throws Exception {
        file.close();
        folder.close();
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static void writeRows(Path path, int from, int to) {
        path.getParent().toFile().mkdirs();
        try (VortexWriter w = VortexWriter.create(path, SCHEMA)) {
            for (int b = from; b < to; b += BATCH) {
                int n = Math.min(BATCH, to - b);
                Batch batch = new Batch(SCHEMA, n);
                long[] id = new long[n];
                int[] k = new int[n];
                double[] f = new double[n];
                float[] fl = new float[n];
                String[] s = new String[n];
                long[] u = new long[n];
                byte[][] bin = new byte[n][];
                BigDecimal[] dec = new BigDecimal[n];
                boolean[] bo = new boolean[n];
                boolean[][] valid = new boolean[SCHEMA.size()][n];
                for (int i = 0; i < n; i++) {
                    Object[] row = rows.get(b + i);
                    for (int c = 0; c < row.length; c++) {
                        valid[c][i] = row[c] != null;
                    }
                    id[i] = (Long) row[0];
                    k[i] = row[1] == null ? 0 : (Integer) row[1];
                    f[i] = row[2] == null ? 0 : (Double) row[2];
                    fl[i] = row[3] == null ? 0 : (Float) row[3];
                    s[i] = (String) row[4];
                    u[i] = row[5] == null ? 0 : (Long) row[5];
                    bin[i] = row[6] == null ? new byte[0] : (byte[]) row[6];
                    dec[i] = row[7] == null ? BigDecimal.ZERO.setScale(2) : (BigDecimal) row[7];
                    bo[i] = row[8] != null && (Boolean) row[8];
                }
                batch.set("id", id).set("k", k, valid[1]).set("f", f, valid[2]).set("r", fl, valid[3])
                        .set("s", s, valid[4]).set("u", u, valid[5]).set("bin", bin, valid[6])
                        .set("dec", dec, valid[7]).set("b", bo, valid[8]);
                w.write(batch);
            }
            w.finish();
        }
    }

    /** The test's own order of column {@code c}'s non-null values. */
    @SuppressWarnings("unchecked")
    private static int compareValues(String column, Object a, Object b) {
        switch (column) {
            case "f": return Double.compare((Double) a, (Double) b);
            case "r": return Float.compare((Float) a, (Float) b);
            case "u": return Long.compareUnsigned((Long) a, (Long) b);
            case "bin": return Arrays.compareUnsigned((byte[]) a, (byte[]) b);
            default: return ((Comparable<Object>) a).compareTo(b);
        }
    }

    /** The ids of the rows {@code filter} keeps, sorted by {@code keys} then id, rows offset .. offset + fetch - 1. */
    private static List<Long> reference(List<SortKey> keys, LongPredicate filter, int offset, int fetch) {
        Comparator<Object[]> order = (x, y) -> 0;
        for (SortKey key : keys) {
            int c = SCHEMA.indexOf(key.column());
            order = order.thenComparing((x, y) -> {
                Object a = x[c];
                Object b = y[c];
                if (a == null || b == null) {
                    return a == b ? 0 : (a == null) == key.nullsFirst() ? -1 : 1;
                }
                int v = key.granule() == 1 ? compareValues(key.column(), a, b)
                        : Long.compare(Math.floorDiv((Long) a, key.granule()), Math.floorDiv((Long) b, key.granule()));
                return key.descending() ? -v : v;
            });
        }
        order = order.thenComparing(x -> (Long) x[0]);
        List<Object[]> kept = new ArrayList<>();
        for (Object[] row : rows) {
            if (filter.test((Long) row[0])) {
                kept.add(row);
            }
        }
        kept.sort(order);
        List<Long> ids = new ArrayList<>();
        for (int i = offset; i < kept.size() && i < offset + fetch; i++) {
            ids.add((Long) kept.get(i)[0]);
        }
        return ids;
    }

    private static List<Long> topN(VortexDataset d, long targetRows, Predicate filter, List<SortKey> keys, int offset,
            int fetch, int threads) {
        return TopN.run(d, d.splits(filter, targetRows), List.of("id"), filter, keys, offset, fetch, threads,
                (split, columns, row) -> ((Int64Array) columns[0]).getLong(row));
    }

    private static final List<List<SortKey>> KEYS = List.of(
            List.of(new SortKey("k", false, false)),
            List.of(new SortKey("k", true, true), new SortKey("f", false, false)),
            List.of(new SortKey("f", true, false)),
            List.of(new SortKey("f", false, true)),
            List.of(new SortKey("r", true, true), new SortKey("s", true, false)),
            List.of(new SortKey("s", false, true)),
            List.of(new SortKey("s", true, false), new SortKey("k", true, false)),
            List.of(new SortKey("u", false, false)),
            List.of(new SortKey("u", true, true)),
            List.of(new SortKey("bin", false, true), new SortKey("dec", true, false)),
            List.of(new SortKey("dec", false, false)),
            List.of(new SortKey("b", true, true), new SortKey("u", false, true)),
            List.of(new SortKey("id", true, false)),
            List.of(new SortKey("id", true, false, 1000), new SortKey("k", false, true)));

    @Test
    public void everyOrderOverSplitsFilesAndThreads() {
        int[][] windows = {{0, 10}, {0, 1}, {37, 200}, {0, 0}, {11_990, 50}, {0, ROWS + 5}};
        for (List<SortKey> keys : KEYS) {
            for (int[] w : windows) {
                List<Long> expected = reference(keys, id -> true, w[0], w[1]);
                for (int threads : new int[] {1, 2, 3}) {
                    String what = keys + " offset " + w[0] + " fetch " + w[1] + " threads " + threads;
                    // One file in splits of ~3 chunks, then a folder of five files, whole.
                    assertEquals(what + " (file)", expected, topN(file, 3 * BATCH, null, keys, w[0], w[1], threads));
                    assertEquals(what + " (folder)", expected,
                            topN(folder, VortexDataset.DEFAULT_TARGET_ROWS, null, keys, w[0], w[1], threads));
                }
            }
        }
    }

    @Test
    public void onlySelectedRowsCount() {
        Predicate filter = Predicate.or(Predicate.lt("id", 1500L), Predicate.between("id", 7000L, 7100L));
        LongPredicate kept = id -> id < 1500 || id >= 7000 && id <= 7100;
        for (List<SortKey> keys : KEYS) {
            List<Long> expected = reference(keys, kept, 3, 40);
            assertEquals(keys.toString(), expected, topN(file, 2 * BATCH, filter, keys, 3, 40, 2));
            assertEquals(keys.toString(), expected, topN(folder, 1_000_000, filter, keys, 3, 40, 2));
        }
        // A filter nothing passes.
        assertEquals(List.of(), topN(file, BATCH, Predicate.lt("id", -1L), KEYS.get(0), 0, 10, 2));
    }

    @Test
    public void unknownAndUnsortableColumnsFailByName() {
        try {
            topN(file, BATCH, null, List.of(new SortKey("nope", false, false)), 0, 10, 1);
            fail("unknown column accepted");
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("'nope'"));
        }
        try {
            topN(file, BATCH, null, List.of(new SortKey("s", false, false, 10)), 0, 10, 1);
            fail("a granule on strings accepted");
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("'s'") && e.getMessage().contains("granule"));
        }
    }
}
