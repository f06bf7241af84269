package io.vortex4j.reader.compute;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.compute.GroupAggregate.Aggregate;
import io.vortex4j.reader.compute.GroupAggregate.Function;
import io.vortex4j.reader.dataset.DatasetTest;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.exec.SplitExecutor;
import io.vortex4j.reader.oracle.ReferenceScan;
import io.vortex4j.reader.predicate.Predicate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.After;
import org.junit.Test;

/**
 * Counts and pushed aggregates through the filter prepared once per scan (selection and count or
 * aggregate in one native call per chunk, no bitmap in Java) against independent answers:
 * vortex's own filtered scan, the row-by-row path, and aggregates computed here from the values
 * read row by row (or from the generator, for datasets of 1, 10 and 100 files at 1, 2 and 8
 * threads), with Computed leaves, nulls and several chunks.
 */
public class PreparedFilterTest {
    @After
    public void restore() {
        PredicateEvaluator.setDictFilterEnabled(true);
    }

    private static final Predicate.ValueTest UPPER_A = v -> v == null ? null : ((String) v).toUpperCase().startsWith("A");
    /** TRUE for null, unknown for the empty string. */
    private static final Predicate.ValueTest ODD = v -> v == null ? Boolean.TRUE : ((String) v).isEmpty() ? null : ((String) v).contains("a");

    /** Filters over the dictionary fixtures' columns id, s, v; computed leaves last. */
    private static List<Predicate> filters() {
        List<Predicate> out = new ArrayList<>(DictFilterCrossCheckTest.leaves());
        out.add(Predicate.gt("v", 100L));
        out.add(Predicate.isNull("v"));
        out.add(Predicate.and(Predicate.eq("s", "AAPL"), Predicate.between("v", -200L, 250.5)));
        out.add(Predicate.or(Predicate.isNull("v"), Predicate.lt("id", 500L), Predicate.in("s", "MSFT", "Zürich")));
        out.add(Predicate.not(Predicate.and(Predicate.ge("v", 0L), Predicate.like("s", "A%"))));
        for (Predicate.ValueTest t : List.of(UPPER_A, ODD)) {
            Predicate c = new Predicate.Computed("s", "f(s)", t, false);
            out.add(c);
            out.add(Predicate.not(c));
            out.add(Predicate.and(c, Predicate.gt("v", -100L)));
            out.add(Predicate.or(c, Predicate.isNull("v"), Predicate.eq("s", "AAPL")));
        }
        return out;
    }

    private static boolean computed(Predicate p) {
        if (p instanceof Predicate.Computed) {
            return true;
        }
        List<Predicate> children = p instanceof Predicate.And a ? a.children() : p instanceof Predicate.Or o ? o.children()
                : p instanceof Predicate.Not n ? List.of(n.child()) : List.of();
        return children.stream().anyMatch(PreparedFilterTest::computed);
    }

    /**
     * Compute.count over fresh chunks. With native evaluation on, checks the native count was
     * taken: the filter's selection never reached Java (only computed leaves' selections did,
     * which is all of it for a filter that is one computed leaf).
     */
    private static long count(VortexFile file, Predicate p) {
        return count(file, p, true);
    }

    private static long count(VortexFile file, Predicate p, boolean checkNative) {
        long n = 0;
        try (Scan scan = file.scan(List.of("id", "s", "v"))) {
            for (Chunk c : scan) {
                try (c) {
                    n += Compute.count(c, p);
                    if (checkNative && PredicateEvaluator.isDictFilterEnabled()) {
                        assertNativeCount(c, p);
                    }
                }
            }
        }
        return n;
    }

    private static void assertNativeCount(Chunk c, Predicate p) {
        if (!(p.normalize() instanceof Predicate.Computed)) {
            assertFalse(p + ": a selection crossed into Java", c.selectionMemo().containsKey(p));
        }
        c.selectionMemo().keySet().forEach(k -> assertTrue(p + ": " + k, k instanceof Predicate.Computed));
    }

    /** The rows of a dictionary fixture, read one by one: {id, s, v}. */
    private static List<Object[]> rows(VortexFile file) {
        List<Object[]> rows = new ArrayList<>();
        try (Scan scan = file.scan(List.of("id", "s", "v"))) {
            for (Chunk c : scan) {
                try (c) {
                    for (int r = 0; r < c.length(); r++) {
                        rows.add(new Object[] {Values.valueAt(c.column(0), r), Values.valueAt(c.column(1), r),
                            Values.valueAt(c.column(2), r)});
                    }
                }
            }
        }
        return rows;
    }

    private static final List<Aggregate> AGGREGATES = List.of(Aggregate.countStar(), Aggregate.of(Function.COUNT, "v"),
            Aggregate.of(Function.SUM, "v"), Aggregate.of(Function.MIN, "v"), Aggregate.of(Function.MAX, "id"));

    /** The aggregates per s (null key included) of the selected rows, computed here. */
    private static Map<Object, List<Object>> expectedGroups(List<Object[]> rows, long[] selected) {
        Map<Object, long[]> acc = new HashMap<>(); // rows, count v, sum v, min v, max id
        for (long r : selected) {
            Object[] row = rows.get((int) r);
            long[] a = acc.computeIfAbsent(row[1], k -> new long[] {0, 0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
            a[0]++;
            if (row[2] != null) {
                long v = (Long) row[2];
                a[1]++;
                a[2] += v;
                a[3] = Math.min(a[3], v);
            }
            a[4] = Math.max(a[4], (Long) row[0]);
        }
        Map<Object, List<Object>> out = new HashMap<>();
        acc.forEach((k, a) -> out.put(k, java.util.Arrays.asList(a[0], a[1], a[1] == 0 ? null : a[2],
                a[1] == 0 ? null : a[3], a[4])));
        return out;
    }

    private static Map<Object, List<Object>> groups(GroupAggregate.Result r) {
        Map<Object, List<Object>> out = new HashMap<>();
        for (int g = 0; g < r.size(); g++) {
            List<Object> values = new ArrayList<>();
            for (int a = 0; a < AGGREGATES.size(); a++) {
                values.add(r.value(g, a));
            }
            assertNull("group " + r.key(g) + " twice", out.put(r.key(g), values));
        }
        return out;
    }

    /** The rows the row-by-row path selects (native evaluation off). */
    private static long[] rowPath(VortexFile file, Predicate p) {
        PredicateEvaluator.setDictFilterEnabled(false);
        List<Long> rows = new ArrayList<>();
        try (Scan scan = file.scan(List.of("id", "s", "v"))) {
            for (Chunk c : scan) {
                try (c) {
                    Bitmap selected = Compute.selection(c, p);
                    for (int i = selected.nextSetBit(0); i >= 0; i = selected.nextSetBit(i + 1)) {
                        rows.add(c.firstRow() + i);
                    }
                }
            }
            return rows.stream().mapToLong(Long::longValue).toArray();
        } finally {
            PredicateEvaluator.setDictFilterEnabled(true);
        }
    }

    private static void check(Fixtures.DictFile f) {
        try (VortexFile file = VortexFile.open(f.path)) {
            List<Object[]> rows = rows(file);
            for (Predicate p : filters()) {
                long[] selected = computed(p) ? rowPath(file, p) : ReferenceScan.selectedRows(file, p);
                assertEquals("prepared count: " + p, selected.length, count(file, p));
                PredicateEvaluator.setDictFilterEnabled(false);
                assertEquals("row path count: " + p, selected.length, count(file, p));
                PredicateEvaluator.setDictFilterEnabled(true);
                assertEquals("prepared aggregate: " + p, expectedGroups(rows, selected),
                        groups(GroupAggregate.run(file, "s", p, AGGREGATES)));
                Map<Object, List<Object>> all = expectedGroups(rows, selected);
                long total = all.values().stream().mapToLong(v -> (Long) v.get(0)).sum();
                GroupAggregate.Result one = GroupAggregate.run(file, null, p, List.of(Aggregate.countStar()));
                assertEquals("prepared COUNT(*): " + p, total, one.value(0, 0));
            }
        }
    }

    @Test
    public void flatFixtureCountsAndAggregatesMatchIndependentAnswers() {
        check(Fixtures.flatDict());
    }

    @Test
    public void referenceStrategyFixtureCountsAndAggregatesMatchIndependentAnswers() {
        check(Fixtures.referenceDict());
    }

    @Test
    public void sharedDictionaryFixtureCountsAndAggregatesMatchIndependentAnswers() {
        check(Fixtures.sharedDict());
    }

    /** A computed leaf that throws fails a count exactly as the selection path does. */
    @Test
    public void aThrowingComputedLeafFailsAsTheSelectionPathDoes() {
        Fixtures.DictFile f = Fixtures.flatDict();
        Predicate.ValueTest boom = v -> {
            if ("AAPL".equals(v)) {
                throw new IllegalArgumentException("boom on AAPL");
            }
            return v != null;
        };
        Predicate throwing = new Predicate.Computed("s", "boom(s)", boom, false);
        try (VortexFile file = VortexFile.open(f.path)) {
            // An AND whose first child selects nothing never reaches the leaf.
            assertEquals(0, count(file, Predicate.and(Predicate.eq("s", "absent"), throwing), false));
            try {
                count(file, Predicate.or(Predicate.eq("s", "x"), throwing), false);
                fail("the function throws on AAPL rows");
            } catch (IllegalArgumentException e) {
                assertEquals("boom on AAPL", e.getMessage());
            }
        }
    }

    /**
     * Prepared filters belong to their scan and are freed with it: a chunk outliving its scan is
     * still counted right (by the selection path), a closed chunk throws.
     */
    @Test
    public void preparedFiltersAreFreedWithTheirScan() {
        Fixtures.DictFile f = Fixtures.flatDict();
        Predicate p = Predicate.eq("s", "AAPL");
        try (VortexFile file = VortexFile.open(f.path)) {
            Scan scan = file.scan(List.of("id", "s", "v"));
            Chunk chunk = scan.next();
            int expected = Compute.selection(chunk, Predicate.and(p)).cardinality();
            assertEquals(expected, Compute.count(chunk, p));
            assertTrue(scan.prepared(p).isOpen());
            PreparedFilter prepared = scan.prepared(p);
            scan.close();
            scan.close();
            assertFalse(prepared.isOpen());
            assertNull(scan.prepared(p));
            assertEquals(-1, prepared.count(chunk));
            assertEquals(expected, Compute.count(chunk, p));
            chunk.close();
            try {
                Compute.count(chunk, Predicate.eq("s", "MSFT"));
                fail("a closed chunk");
            } catch (IllegalStateException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("is closed"));
            }
        }
    }

    // ---- datasets: DatasetTest's generated rows (s = WORDS[i % 7], v = i * 3 % 101, null every 13th)

    private static final String[] WORDS = {"ant", "bee", "cat", "dog", "eel", "fox", "gnu"};
    private static final long ROWS = 30_000;

    private static Path dataset(int files) throws Exception {
        Path dir = Fixtures.tempDir().resolve("prepared-" + files);
        for (int k = 0; k < files; k++) {
            DatasetTest.write(dir.resolve(String.format("part-%03d.vortex", k)), ROWS * k / files, ROWS * (k + 1) / files, 1000);
        }
        return dir;
    }

    private static final Predicate.ValueTest HAS_E = v -> v == null ? null : ((String) v).contains("e");

    private static List<Predicate> datasetFilters() {
        Predicate hasE = new Predicate.Computed("s", "has_e(s)", HAS_E, false);
        return List.of(Predicate.eq("s", "cat"), Predicate.in("s", "ant", "gnu", "absent"),
                Predicate.between("v", 10L, 50L), Predicate.or(Predicate.isNull("v"), Predicate.eq("s", "dog")),
                hasE, Predicate.and(hasE, Predicate.gt("v", 60L)), Predicate.not(hasE));
    }

    /** Row {@code i} of the generated data against a filter of {@link #datasetFilters()}. */
    private static boolean selects(Predicate p, long i) {
        String s = WORDS[(int) (i % 7)];
        Long v = i % 13 == 0 ? null : i * 3 % 101;
        if (p instanceof Predicate.And a) {
            return a.children().stream().allMatch(c -> selects(c, i));
        } else if (p instanceof Predicate.Or o) {
            return o.children().stream().anyMatch(c -> selects(c, i));
        } else if (p instanceof Predicate.Not n) {
            return !selects(n.child(), i); // only over s, which is never null here
        } else if (p instanceof Predicate.Computed) {
            return s.contains("e");
        } else if (p instanceof Predicate.Compare c) {
            return c.column().equals("s") ? s.equals(c.value()) : v != null && v > (Long) c.value();
        } else if (p instanceof Predicate.In in) {
            return in.values().contains(s);
        } else if (p instanceof Predicate.Between b) {
            return v != null && v >= (Long) b.low() && v <= (Long) b.high();
        }
        return v == null; // IS NULL v
    }

    @Test
    public void datasetCountsAndAggregatesMatchTheGeneratorAtEveryThreadCount() throws Exception {
        for (int files : new int[] {1, 10, 100}) {
            try (VortexDataset d = VortexDataset.open(dataset(files))) {
                for (Predicate p : datasetFilters()) {
                    Map<Object, List<Object>> want = new HashMap<>();
                    long rows = 0;
                    for (long i = 0; i < ROWS; i++) {
                        if (!selects(p, i)) {
                            continue;
                        }
                        rows++;
                        Long v = i % 13 == 0 ? null : i * 3 % 101;
                        List<Object> a = want.computeIfAbsent(WORDS[(int) (i % 7)],
                                k -> new ArrayList<>(java.util.Arrays.asList(0L, 0L, null, null, Long.MIN_VALUE)));
                        a.set(0, (Long) a.get(0) + 1);
                        if (v != null) {
                            a.set(1, (Long) a.get(1) + 1);
                            a.set(2, a.get(2) == null ? v : (Long) a.get(2) + v);
                            a.set(3, a.get(3) == null ? v : Math.min((Long) a.get(3), v));
                        }
                        a.set(4, Math.max((Long) a.get(4), i));
                    }
                    List<Aggregate> aggs = List.of(Aggregate.countStar(), Aggregate.of(Function.COUNT, "v"),
                            Aggregate.of(Function.SUM, "v"), Aggregate.of(Function.MIN, "v"), Aggregate.of(Function.MAX, "id"));
                    for (int threads : new int[] {1, 2, 8}) {
                        String what = files + " files, " + threads + " threads: " + p;
                        assertEquals(what, rows, countSplits(d, p, threads));
                        Map<Object, List<Object>> got = new HashMap<>();
                        GroupAggregate.Result r = GroupAggregate.run(d, "s", p, aggs, threads);
                        for (int g = 0; g < r.size(); g++) {
                            List<Object> values = new ArrayList<>();
                            for (int a = 0; a < aggs.size(); a++) {
                                values.add(r.value(g, a));
                            }
                            got.put(r.key(g), values);
                        }
                        assertEquals(what, want, got);
                        GroupAggregate.Result one = GroupAggregate.run(d, null, p, List.of(Aggregate.countStar()), threads);
                        assertTrue(what, Objects.equals(rows, one.value(0, 0)));
                    }
                }
            }
        }
    }

    /** COUNT(*) as the SQL layer runs it: Compute.count per chunk of every split, on threads. */
    private static long countSplits(VortexDataset d, Predicate p, int threads) {
        List<Long> counts = SplitExecutor.map(d.splits(p, 4_000), threads, split -> {
            long n = 0;
            try (Scan scan = d.scan(split, List.of("s", "v"), p)) {
                for (Chunk c : scan) {
                    try (c) {
                        n += Compute.count(c, scan.chunkFilter());
                        assertNativeCount(c, scan.chunkFilter());
                    }
                }
            }
            return n;
        });
        return counts.stream().mapToLong(Long::longValue).sum();
    }
}
