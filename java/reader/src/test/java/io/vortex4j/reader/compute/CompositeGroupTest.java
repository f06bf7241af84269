package io.vortex4j.reader.compute;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.compute.GroupAggregate.Aggregate;
import io.vortex4j.reader.compute.GroupAggregate.Function;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * GROUP BY several columns: dictionary columns (composite codes, natively), a mix with a plain
 * integer column (row by row in Java), partition columns of Hive folders; against an independent
 * evaluation over the rows as written. Each file (and each batch) draws its strings from its own
 * subset, so the files' dictionaries differ and groups must merge by value, not by code.
 */
public class CompositeGroupTest {
    private static final Schema SCHEMA = Schema.of(
            new Field("a", DataType.UTF8, true),
            new Field("b", DataType.UTF8, true),
            new Field("n", DataType.INT32, true),
            new Field("v", DataType.INT64, true),
            new Field("f", DataType.FLOAT64, true));
    private static final String[] WORDS = {"x", "y", "Zürich", "日本", "😀", "", "AAPL", "MSFT", "ω", "q"};
    private static final int BATCHES = 4;
    private static final int ROWS = 40_000;
    private static final List<Aggregate> AGGS = List.of(Aggregate.countStar(), Aggregate.of(Function.COUNT, "v"),
            Aggregate.of(Function.SUM, "v"), Aggregate.of(Function.MIN, "v"), Aggregate.of(Function.MAX, "v"),
            Aggregate.of(Function.SUM, "f"));

    private static Path dir;
    /** Per file: its rows as {a, b, n, v, f}. */
    private static final Map<Path, List<Object[]>> written = new HashMap<>();

    @BeforeClass
    public static void writeFiles() throws Exception {
        dir = Fixtures.tempDir().resolve("composite");
        write(dir.resolve("one.vortex"), 1, 0);
        for (int p = 0; p < 3; p++) {
            write(dir.resolve("hive").resolve("p=" + p).resolve("f.vortex"), 10 + p, 3 * p);
        }
    }

    /** Batches whose strings come from different subsets of {@link #WORDS}, nulls in every column. */
    private static void write(Path path, int seed, int words) throws Exception {
        Files.createDirectories(path.getParent());
        SplittableRandom r = new SplittableRandom(seed);
        List<Object[]> rows = new ArrayList<>();
        try (VortexWriter w = VortexWriter.create(path, SCHEMA)) {
            for (int batch = 0; batch < BATCHES; batch++) {
                String[] a = new String[ROWS];
                String[] b = new String[ROWS];
                int[] n = new int[ROWS];
                long[] v = new long[ROWS];
                double[] f = new double[ROWS];
                boolean[] nOk = new boolean[ROWS];
                boolean[] vOk = new boolean[ROWS];
                for (int i = 0; i < ROWS; i++) {
                    a[i] = r.nextInt(12) == 0 ? null : WORDS[(words + batch + r.nextInt(4)) % WORDS.length];
                    b[i] = r.nextInt(9) == 0 ? null : WORDS[(words + 2 * batch + r.nextInt(3)) % WORDS.length];
                    n[i] = r.nextInt(5) - 2;
                    nOk[i] = r.nextInt(10) != 0;
                    v[i] = r.nextLong(-1_000_000, 1_000_000);
                    vOk[i] = r.nextInt(8) != 0;
                    f[i] = r.nextInt(64) / 4.0;
                    rows.add(new Object[] {a[i], b[i], nOk[i] ? n[i] : null, vOk[i] ? v[i] : null, f[i]});
                }
                w.write(new Batch(SCHEMA, ROWS).set("a", a).set("b", b).set("n", n, nOk).set("v", v, vOk).set("f", f));
            }
            w.finish();
        }
        written.put(path, rows);
    }

    /** The independent answer: key (list of values) → {count, countV, sumV, minV, maxV, sumF}. */
    private static Map<List<Object>, Object[]> expected(Map<Object, List<Object[]>> rowsByPartition, int[] keys,
            java.util.function.Predicate<Object[]> keep) {
        Map<List<Object>, Object[]> groups = new HashMap<>();
        rowsByPartition.forEach((partition, rows) -> {
            for (Object[] row : rows) {
                if (!keep.test(row)) {
                    continue;
                }
                List<Object> key = new ArrayList<>();
                for (int k : keys) {
                    key.add(k < 0 ? partition : row[k]);
                }
                Object[] g = groups.computeIfAbsent(key, x -> new Object[] {0L, 0L, null, null, null, null});
                g[0] = (Long) g[0] + 1;
                Long v = (Long) row[3];
                if (v != null) {
                    g[1] = (Long) g[1] + 1;
                    g[2] = g[2] == null ? v : (Long) g[2] + v;
                    g[3] = g[3] == null || v < (Long) g[3] ? v : g[3];
                    g[4] = g[4] == null || v > (Long) g[4] ? v : g[4];
                }
                // Quarters sum exactly in any order.
                g[5] = g[5] == null ? (Double) row[4] : (Double) g[5] + (Double) row[4];
            }
        });
        return groups;
    }

    private static Map<List<Object>, Object[]> actual(GroupAggregate.Result r) {
        Map<List<Object>, Object[]> out = new HashMap<>();
        for (int g = 0; g < r.size(); g++) {
            List<Object> key = new ArrayList<>();
            for (int k = 0; k < r.width(); k++) {
                key.add(r.key(g, k));
            }
            Object[] values = new Object[AGGS.size()];
            for (int a = 0; a < values.length; a++) {
                values[a] = r.value(g, a);
            }
            assertTrue("group " + key + " twice", out.put(key, values) == null);
        }
        return out;
    }

    private static void assertSameGroups(String what, Map<List<Object>, Object[]> want, Map<List<Object>, Object[]> have) {
        assertEquals(what + ": groups", want.keySet(), have.keySet());
        for (List<Object> k : want.keySet()) {
            assertEquals(what + ": group " + k, Arrays.asList(want.get(k)), Arrays.asList(have.get(k)));
        }
    }

    private static final String[] NAMES = {"a", "b", "n", "v", "f"};

    private static List<String> names(int[] keys) {
        List<String> out = new ArrayList<>();
        for (int k : keys) {
            out.add(k < 0 ? "p" : NAMES[k]);
        }
        return out;
    }

    /**
     * The string columns really are dictionaries (the native composite path), and the files'
     * dictionaries differ (merging by code would be wrong).
     */
    @Test
    public void filesHoldDifferentDictionaries() {
        List<List<Object>> dictionaries = new ArrayList<>();
        for (Path path : written.keySet()) {
            try (VortexFile file = VortexFile.open(path); Scan scan = file.scan("a", "b")) {
                for (Chunk c : scan) {
                    try (c) {
                        VarBinDictArray.Dictionary a = c.dictionary(0);
                        VarBinDictArray.Dictionary b = c.dictionary(1);
                        assertTrue(path + ": a chunk's string columns are dictionaries", a != null && b != null);
                        List<Object> entries = new ArrayList<>();
                        for (int e = 0; e < a.entries().length(); e++) {
                            entries.add(a.entries().isNull(e) ? null : a.value(e));
                        }
                        dictionaries.add(entries);
                    }
                }
            }
        }
        assertTrue(dictionaries.toString(), new java.util.HashSet<>(dictionaries).size() > 1);
    }

    @Test
    public void severalColumnsMatchTheRows() {
        Path path = dir.resolve("one.vortex");
        Map<Object, List<Object[]>> rows = Map.of("", written.get(path));
        Object[][] filters = {
            {null, (java.util.function.Predicate<Object[]>) r -> true},
            {Predicate.gt("v", 0L), (java.util.function.Predicate<Object[]>) r -> r[3] != null && (Long) r[3] > 0},
            {Predicate.or(Predicate.in("a", "Zürich", "日本"), Predicate.isNull("b")),
                (java.util.function.Predicate<Object[]>) r -> "Zürich".equals(r[0]) || "日本".equals(r[0]) || r[1] == null},
        };
        int[][] keySets = {{0, 1}, {1, 0}, {0, 1, 0}, {0, 2}, {2, 1, 0}};
        try (VortexFile file = VortexFile.open(path)) {
            for (Object[] f : filters) {
                @SuppressWarnings("unchecked")
                java.util.function.Predicate<Object[]> keep = (java.util.function.Predicate<Object[]>) f[1];
                for (int[] keys : keySets) {
                    String what = names(keys) + " where " + f[0];
                    assertSameGroups(what, expected(rows, keys, keep),
                            actual(GroupAggregate.runGrouped(file, names(keys), (Predicate) f[0], AGGS)));
                }
            }
        }
    }

    @Test
    public void partitionColumnsMatchTheRows() {
        Map<Object, List<Object[]>> rows = new HashMap<>();
        for (int p = 0; p < 3; p++) {
            rows.put((long) p, written.get(dir.resolve("hive").resolve("p=" + p).resolve("f.vortex")));
        }
        VortexDataset dataset = VortexDataset.open(dir.resolve("hive"));
        assertEquals(DataType.INT64, dataset.schema().field("p").type());
        int[][] keySets = {{-1}, {-1, 0}, {1, -1, 0}, {-1, 2}};
        for (int threads : new int[] {1, 2, 8}) {
            for (int[] keys : keySets) {
                String what = names(keys) + " on " + threads + " threads";
                assertSameGroups(what, expected(rows, keys, r -> true),
                        actual(GroupAggregate.runGrouped(dataset, names(keys), null, AGGS, threads)));
                // A filter on the partition column prunes a folder, one on a file column selects rows.
                Predicate filter = Predicate.and(Predicate.ne("p", 1L), Predicate.lt("v", 0L));
                Map<Object, List<Object[]>> kept = new HashMap<>(rows);
                kept.remove(1L);
                assertSameGroups(what + " where " + filter, expected(kept, keys, r -> r[3] != null && (Long) r[3] < 0),
                        actual(GroupAggregate.runGrouped(dataset, names(keys), filter, AGGS, threads)));
            }
        }
    }
}
