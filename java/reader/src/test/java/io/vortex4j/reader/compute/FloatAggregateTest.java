package io.vortex4j.reader.compute;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.compute.GroupAggregate.Aggregate;
import io.vortex4j.reader.compute.GroupAggregate.Function;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Float SUM / MIN / MAX through {@link GroupAggregate} (natively computed where the kernel takes
 * them) against sums written here: every kept non-null value added in row order to 0.0, bit for
 * bit, and MIN/MAX by {@code Double.compare}; over NaN, ±infinity, -0.0, nulls, empty selections
 * and all-null selections, several chunks, f64 and f32 columns.
 */
public class FloatAggregateTest {
    private static final Schema SCHEMA = Schema.of(new Field("id", DataType.INT64, false),
            new Field("s", DataType.UTF8, true), new Field("f", DataType.FLOAT64, true),
            new Field("r", DataType.FLOAT32, true));
    private static final int ROWS = 60_000;
    private static final double[] SPECIAL = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, 1e300, -1e300, Double.MIN_VALUE};
    private static final String[] STRINGS = {"a", "b", "c", null};
    private static final List<Aggregate> AGGS = List.of(Aggregate.countStar(), Aggregate.of(Function.SUM, "f"),
            Aggregate.of(Function.SUM, "r"), Aggregate.of(Function.MIN, "f"), Aggregate.of(Function.MAX, "f"),
            Aggregate.of(Function.MIN, "r"), Aggregate.of(Function.MAX, "r"), Aggregate.of(Function.COUNT, "f"));

    private static final long[] id = new long[ROWS];
    private static final String[] s = new String[ROWS];
    private static final Double[] f = new Double[ROWS];
    private static final Float[] r = new Float[ROWS];
    private static Path path;

    @BeforeClass
    public static void write() throws Exception {
        SplittableRandom rnd = new SplittableRandom(17);
        for (int i = 0; i < ROWS; i++) {
            id[i] = i;
            s[i] = STRINGS[rnd.nextInt(STRINGS.length)];
            // The first rows' f are null: a filter on them selects only nulls.
            f[i] = i < 100 || rnd.nextInt(7) == 0 ? null
                    : rnd.nextInt(40) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)] : rnd.nextDouble(-1000, 1000) / 7;
            r[i] = rnd.nextInt(7) == 0 ? null
                    : rnd.nextInt(40) == 0 ? (float) SPECIAL[rnd.nextInt(SPECIAL.length)] : (float) rnd.nextDouble(-50, 50);
        }
        path = Files.createTempFile("vortex4j-float-agg", ".vortex");
        try (VortexWriter w = VortexWriter.create(path, SCHEMA)) {
            for (int b = 0; b < ROWS; b += 5_000) {
                int n = Math.min(5_000, ROWS - b);
                Batch batch = new Batch(SCHEMA, n);
                long[] ids = new long[n];
                String[] ss = new String[n];
                double[] fs = new double[n];
                float[] rs = new float[n];
                boolean[] fv = new boolean[n];
                boolean[] rv = new boolean[n];
                for (int i = 0; i < n; i++) {
                    ids[i] = id[b + i];
                    ss[i] = s[b + i];
                    fv[i] = f[b + i] != null;
                    fs[i] = fv[i] ? f[b + i] : 0;
                    rv[i] = r[b + i] != null;
                    rs[i] = rv[i] ? r[b + i] : 0;
                }
                w.write(batch.set("id", ids).set("s", ss).set("f", fs, fv).set("r", rs, rv));
            }
            w.finish();
        }
    }

    @AfterClass
    public static void delete() throws Exception {
        Files.deleteIfExists(path);
    }

    /** Per group key: {count, sum f, sum r, min f, max f, min r, max r, count f}, rows in order. */
    private static Map<Object, Object[]> expected(java.util.function.IntPredicate keep, boolean grouped) {
        Map<Object, Object[]> groups = new LinkedHashMap<>();
        if (!grouped) {
            groups.put(null, new Object[] {0L, null, null, null, null, null, null, 0L});
        }
        for (int i = 0; i < ROWS; i++) {
            if (!keep.test(i)) {
                continue;
            }
            Object[] a = groups.computeIfAbsent(grouped ? s[i] : null, k -> new Object[] {0L, null, null, null, null, null, null, 0L});
            a[0] = (Long) a[0] + 1;
            if (f[i] != null) {
                a[1] = (a[1] == null ? 0.0 : (Double) a[1]) + f[i];
                a[3] = a[3] == null || Double.compare(f[i], (Double) a[3]) < 0 ? f[i] : a[3];
                a[4] = a[4] == null || Double.compare(f[i], (Double) a[4]) > 0 ? f[i] : a[4];
                a[7] = (Long) a[7] + 1;
            }
            if (r[i] != null) {
                double v = r[i];
                a[2] = (a[2] == null ? 0.0 : (Double) a[2]) + v;
                a[5] = a[5] == null || Float.compare(r[i], (Float) a[5]) < 0 ? r[i] : a[5];
                a[6] = a[6] == null || Float.compare(r[i], (Float) a[6]) > 0 ? r[i] : a[6];
            }
        }
        return groups;
    }

    /** Values equal as the bits Java keeps ({@code Double.equals}: NaN equal, -0.0 not 0.0). */
    private static void check(String what, Map<Object, Object[]> want, GroupAggregate.Result got) {
        assertEquals(what + ": groups", want.size(), got.size());
        for (int g = 0; g < got.size(); g++) {
            Object[] w = want.get(got.key(g));
            assertTrue(what + ": unexpected group " + got.key(g), w != null);
            for (int a = 0; a < AGGS.size(); a++) {
                assertTrue(what + " " + got.key(g) + " " + AGGS.get(a) + ": " + got.value(g, a) + " vs " + w[a],
                        Objects.equals(w[a], got.value(g, a)));
            }
        }
    }

    @Test
    public void sumsAreRowOrderSumsBitForBit() {
        Map<String, Predicate> filters = new LinkedHashMap<>();
        Map<String, java.util.function.IntPredicate> keeps = new LinkedHashMap<>();
        filters.put("all", null);
        keeps.put("all", i -> true);
        filters.put("id range", Predicate.between("id", 1_234L, 51_000L));
        keeps.put("id range", i -> i >= 1_234 && i <= 51_000);
        filters.put("f range", Predicate.between("f", -20.0, 20.0));
        // The reader orders floats totally (NaN above +infinity), as Double.compare.
        keeps.put("f range", i -> f[i] != null && Double.compare(f[i], -20.0) >= 0 && Double.compare(f[i], 20.0) <= 0);
        filters.put("s = a", Predicate.eq("s", "a"));
        keeps.put("s = a", i -> "a".equals(s[i]));
        filters.put("empty", Predicate.lt("id", 0L));
        keeps.put("empty", i -> false);
        filters.put("only null f", Predicate.lt("id", 100L));
        keeps.put("only null f", i -> i < 100);
        try (VortexFile file = VortexFile.open(path)) {
            for (String name : filters.keySet()) {
                for (boolean grouped : new boolean[] {false, true}) {
                    Map<Object, Object[]> want = expected(keeps.get(name), grouped);
                    check(name + (grouped ? " by s" : ""), want,
                            GroupAggregate.run(file, grouped ? "s" : null, filters.get(name), AGGS));
                }
            }
            GroupAggregate.Result none = GroupAggregate.run(file, null, Predicate.lt("id", 100L), AGGS);
            assertNull("SUM of no non-null value", none.value(0, 1));
        }
    }

    /** Over a dataset, per-split sums merge in split order: the same bits at every thread count. */
    @Test
    public void datasetSumsDoNotDependOnThreads() throws Exception {
        try (VortexDataset dataset = VortexDataset.open(path)) {
            List<Object> first = null;
            for (int threads : new int[] {1, 2, 8}) {
                GroupAggregate.Result got = GroupAggregate.run(dataset, null, Predicate.between("id", 7L, 55_555L), AGGS, threads);
                List<Object> values = new ArrayList<>();
                for (int a = 0; a < AGGS.size(); a++) {
                    values.add(got.value(0, a));
                }
                if (first == null) {
                    first = values;
                }
                assertEquals("threads=" + threads, first, values);
            }
        }
    }
}
