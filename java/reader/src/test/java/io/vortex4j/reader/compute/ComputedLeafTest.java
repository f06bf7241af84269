package io.vortex4j.reader.compute;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DictFixture;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.compute.GroupAggregate.Aggregate;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.RowFilter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.After;
import org.junit.Test;

/**
 * Computed leaves and computed group keys on dictionary columns, evaluated once per entry: the
 * same rows and groups as row-by-row evaluation (and as the generated values read one by one),
 * negated, with nulls; the function called at most once per entry per dictionary; a function
 * that throws fails exactly the chunks (and aggregations) where a row holds the value it throws
 * on, with its own exception, from the first such row.
 */
public class ComputedLeafTest {
    @After
    public void restore() {
        PredicateEvaluator.setDictFilterEnabled(true);
    }

    /** 8 chunks of 40 rows: dictionaries of 33 words, so a chunk leaves some entries unused. */
    private static Fixtures.DictFile sparse;

    private static synchronized Fixtures.DictFile sparse() {
        if (sparse == null) {
            Path p = Fixtures.tempDir().resolve("dict-sparse.vortex");
            sparse = new Fixtures.DictFile(p, DictFixture.write(p.toString(), 8, 40, 11, false));
        }
        return sparse;
    }

    private static final Predicate.ValueTest UPPER_A = v -> v == null ? null : ((String) v).toUpperCase().startsWith("A");
    /** FALSE (not unknown) for null: NOT selects the null rows. */
    private static final Predicate.ValueTest LONG = v -> v != null && ((String) v).codePointCount(0, ((String) v).length()) > 3;
    /** TRUE for null, unknown for the empty string. */
    private static final Predicate.ValueTest ODD = v -> v == null ? Boolean.TRUE : ((String) v).isEmpty() ? null : ((String) v).contains("a");

    private static List<Predicate> filters() {
        List<Predicate> out = new ArrayList<>();
        for (Predicate.ValueTest t : List.of(UPPER_A, LONG, ODD)) {
            Predicate c = new Predicate.Computed("s", "f(s)", t, false);
            out.add(c);
            out.add(Predicate.not(c));
            out.add(Predicate.or(c, Predicate.eq("s", "AAPL")));
            out.add(Predicate.not(Predicate.and(c, Predicate.isNotNull("s"))));
        }
        return out;
    }

    /** The rows the generated values select, one by one with the test itself. */
    private static long[] oracle(Fixtures.DictFile f, Predicate p) {
        List<Long> rows = new ArrayList<>();
        for (int r = 0; r < f.s.size(); r++) {
            if (Boolean.TRUE.equals(eval(p, f.s.get(r)))) {
                rows.add((long) r);
            }
        }
        return rows.stream().mapToLong(Long::longValue).toArray();
    }

    /** Three-valued evaluation of the filters above on one value. */
    private static Boolean eval(Predicate p, String v) {
        if (p instanceof Predicate.Computed c) {
            Boolean b = c.test().test(v);
            return b == null ? null : Boolean.valueOf(b != c.negated());
        } else if (p instanceof Predicate.Not n) {
            Boolean b = eval(n.child(), v);
            return b == null ? null : Boolean.valueOf(!b);
        } else if (p instanceof Predicate.Or o) {
            Boolean acc = false;
            for (Predicate c : o.children()) {
                Boolean b = eval(c, v);
                if (Boolean.TRUE.equals(b)) {
                    return true;
                }
                acc = b == null ? null : acc;
            }
            return acc;
        } else if (p instanceof Predicate.And a) {
            Boolean acc = true;
            for (Predicate c : a.children()) {
                Boolean b = eval(c, v);
                if (Boolean.FALSE.equals(b)) {
                    return false;
                }
                acc = b == null ? null : acc;
            }
            return acc;
        }
        if (RowFilter.test(p.normalize(), v)) {
            return Boolean.TRUE;
        }
        return RowFilter.test(Predicate.not(p).normalize(), v) ? Boolean.FALSE : null;
    }

    @Test
    public void perEntryEqualsRowByRow() {
        for (Fixtures.DictFile f : List.of(Fixtures.flatDict(), Fixtures.referenceDict(), sparse())) {
            try (VortexFile file = VortexFile.open(f.path)) {
                for (Predicate p : filters()) {
                    long[] want = oracle(f, p);
                    PredicateEvaluator.setDictFilterEnabled(true);
                    assertArrayEquals("per entry: " + p, want, DictFilterCrossCheckTest.javaRows(file, p));
                    PredicateEvaluator.setDictFilterEnabled(false);
                    assertArrayEquals("row by row: " + p, want, DictFilterCrossCheckTest.javaRows(file, p));
                }
            }
        }
    }

    /** A test that counts its calls per value (null counted under a marker). */
    private static final class Counting implements Predicate.ValueTest {
        final Map<Object, AtomicInteger> calls = new ConcurrentHashMap<>();
        final AtomicInteger total = new AtomicInteger();

        @Override
        public Boolean test(Object value) {
            calls.computeIfAbsent(value == null ? "<null>" : value, k -> new AtomicInteger()).incrementAndGet();
            total.incrementAndGet();
            return value != null && ((String) value).startsWith("A");
        }
    }

    /** The distinct dictionaries of column s in a scan: id to number of entries. */
    private static Map<Long, Integer> dictionaries(VortexFile file) {
        Map<Long, Integer> out = new HashMap<>();
        try (Scan scan = file.scan("s")) {
            for (Chunk c : scan) {
                try (c) {
                    VarBinDictArray.Dictionary d = c.dictionary(0);
                    if (d != null && d.entries().length() <= c.length()) {
                        out.put(d.strings().id(), d.entries().length());
                    }
                }
            }
        }
        return out;
    }

    @Test
    public void calledAtMostOncePerEntryPerDictionary() {
        Fixtures.DictFile f = Fixtures.sharedDict();
        try (VortexFile file = VortexFile.open(f.path)) {
            Counting counting = new Counting();
            Predicate p = new Predicate.Computed("s", "s LIKE 'A%'", counting, false);
            try (Scan scan = file.scan("s")) {
                for (Chunk c : scan) {
                    try (c) {
                        // Twice per chunk (the memo is per chunk; the table per dictionary), negated too.
                        Compute.count(c, p);
                        Compute.count(c, Predicate.not(p));
                        c.selectionMemo().clear();
                        Compute.count(c, p);
                    }
                }
            }
            Map<Long, Integer> dictionaries = dictionaries(file);
            int bound = 0;
            for (int entries : dictionaries.values()) {
                bound += entries + 1;
            }
            assertTrue("a shared dictionary: " + dictionaries, dictionaries.size() < 3);
            assertTrue(counting.total + " calls for " + dictionaries, counting.total.get() <= bound);
            for (Map.Entry<Object, AtomicInteger> e : counting.calls.entrySet()) {
                assertTrue(e.getKey() + " " + e.getValue(), e.getValue().get() <= dictionaries.size());
            }
            assertEquals(new HashSet<>(f.s).size(), counting.calls.size());

            // Row by row it runs once per row.
            Counting rowwise = new Counting();
            PredicateEvaluator.setDictFilterEnabled(false);
            DictFilterCrossCheckTest.javaRows(file, new Predicate.Computed("s", "s LIKE 'A%'", rowwise, false));
            assertEquals(f.s.size(), rowwise.total.get());
        }
    }

    /** A test that throws on some values, remembering each exception it threw. */
    private static final class Throwing implements Predicate.ValueTest {
        final Set<Object> bad;
        final List<RuntimeException> thrown = new ArrayList<>();

        Throwing(Object... bad) {
            this.bad = new HashSet<>(java.util.Arrays.asList(bad));
        }

        @Override
        public synchronized Boolean test(Object value) {
            if (bad.contains(value == null ? "<null>" : value)) {
                RuntimeException e = new IllegalArgumentException("cannot evaluate " + value);
                thrown.add(e);
                throw e;
            }
            return value != null;
        }

        synchronized RuntimeException last() {
            return thrown.get(thrown.size() - 1);
        }
    }

    /** The values of the rows of chunk {@code c} (40 rows each in the sparse fixture). */
    private static List<String> rowsOf(Fixtures.DictFile f, int c) {
        return f.s.subList(40 * c, 40 * c + 40);
    }

    /** Chunk shapes 0..2: dictionaries of 33 words no larger than the chunk. */
    private static boolean byEntry(int chunk) {
        return chunk % 4 != 3;
    }

    @Test
    public void aThrowingEntryFailsOnlyChunksWhoseRowsHoldIt() {
        Fixtures.DictFile f = sparse();
        // A word some by-entry chunk's rows hold and another's do not.
        String bad = null;
        for (String w : new String[] {"IBM", "Zürich", "東京", "snake_case", "100%", "a.b", "Ω", "META"}) {
            boolean held = false, unheld = false;
            for (int c = 0; c < 8; c++) {
                if (byEntry(c)) {
                    held |= rowsOf(f, c).contains(w);
                    unheld |= !rowsOf(f, c).contains(w);
                }
            }
            if (held && unheld) {
                bad = w;
                break;
            }
        }
        assertNotNull("the fixture has a word held by some chunks only", bad);
        try (VortexFile file = VortexFile.open(f.path)) {
            for (boolean byDictionary : new boolean[] {true, false}) {
                PredicateEvaluator.setDictFilterEnabled(byDictionary);
                Throwing t = new Throwing(bad);
                Predicate p = new Predicate.Computed("s", "f(s)", t, false);
                int failed = 0;
                try (Scan scan = file.scan("s")) {
                    for (Chunk c : scan) {
                        try (c) {
                            boolean holds = rowsOf(f, (int) c.index()).contains(bad);
                            try {
                                int n = Compute.count(c, p);
                                assertTrue("chunk " + c.index() + " holds " + bad, !holds);
                                int want = 0;
                                for (String v : rowsOf(f, (int) c.index())) {
                                    want += v != null ? 1 : 0;
                                }
                                assertEquals(want, n);
                            } catch (IllegalArgumentException e) {
                                assertTrue("chunk " + c.index() + " does not hold " + bad, holds);
                                // The test's own exception, the very object it threw.
                                assertSame(t.last(), e);
                                failed++;
                            }
                        }
                    }
                }
                assertTrue(failed > 0);
            }
        }
    }

    @Test
    public void theFirstFailingRowInRowOrderWins() {
        Fixtures.DictFile f = sparse();
        try (VortexFile file = VortexFile.open(f.path)) {
            for (int chunk = 0; chunk < 8; chunk++) {
                List<String> rows = rowsOf(f, chunk);
                // Two distinct non-null values of the chunk; the later-appearing one listed first.
                List<String> distinct = new ArrayList<>(new LinkedHashMap<String, Boolean>() {
                    {
                        for (String v : rows) {
                            if (v != null) {
                                put(v, true);
                            }
                        }
                    }
                }.keySet());
                String first = distinct.get(0), second = distinct.get(1);
                for (boolean byDictionary : new boolean[] {true, false}) {
                    PredicateEvaluator.setDictFilterEnabled(byDictionary);
                    Predicate p = new Predicate.Computed("s", "f(s)", new Throwing(second, first), true);
                    try (Scan scan = file.scan("s")) {
                        for (Chunk c : scan) {
                            try (c) {
                                if (c.index() != chunk) {
                                    continue;
                                }
                                try {
                                    Compute.selection(c, p);
                                    fail("chunk " + chunk + " holds " + first);
                                } catch (IllegalArgumentException e) {
                                    assertEquals("chunk " + chunk + " by dictionary " + byDictionary,
                                            "cannot evaluate " + first, e.getMessage());
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    public void aTestThrowingOnNullFailsChunksWithNullRows() {
        Fixtures.DictFile f = sparse();
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan("s")) {
            for (Chunk c : scan) {
                try (c) {
                    boolean nulls = rowsOf(f, (int) c.index()).contains(null);
                    Throwing t = new Throwing("<null>");
                    try {
                        Compute.selection(c, new Predicate.Computed("s", "f(s)", t, false));
                        assertTrue("chunk " + c.index() + " has null rows", !nulls);
                    } catch (IllegalArgumentException e) {
                        assertTrue("chunk " + c.index() + " has no null row", nulls);
                        assertSame(t.last(), e);
                    }
                }
            }
        }
    }

    // ---- group keys

    private static Map<Object, long[]> expectedGroups(Fixtures.DictFile f, Function<Object, Object> key,
            java.util.function.Predicate<String> selected) {
        Map<Object, long[]> out = new HashMap<>();
        for (String s : f.s) {
            if (selected.test(s)) {
                out.computeIfAbsent(key.apply(s), k -> new long[1])[0]++;
            }
        }
        return out;
    }

    private static Map<Object, long[]> groups(GroupAggregate.Result r) {
        Map<Object, long[]> out = new HashMap<>();
        for (int g = 0; g < r.size(); g++) {
            out.put(r.key(g), new long[] {(Long) r.value(g, 0)});
        }
        return out;
    }

    private static void assertGroups(Map<Object, long[]> want, Map<Object, long[]> got) {
        assertEquals(want.keySet(), got.keySet());
        for (Object k : want.keySet()) {
            assertEquals(String.valueOf(k), want.get(k)[0], got.get(k)[0]);
        }
    }

    /** A key function counting its calls per value. */
    private static final class CountingKey implements Function<Object, Object> {
        final Map<Object, AtomicInteger> calls = new ConcurrentHashMap<>();

        @Override
        public Object apply(Object v) {
            calls.computeIfAbsent(v == null ? "<null>" : v, k -> new AtomicInteger()).incrementAndGet();
            return v == null ? "?" : ((String) v).isEmpty() ? "" : ((String) v).substring(0, 1);
        }
    }

    @Test
    public void groupKeysOncePerEntryOnBothPaths() {
        for (Fixtures.DictFile f : List.of(Fixtures.sharedDict(), Fixtures.flatDict(), Fixtures.referenceDict())) {
            try (VortexFile file = VortexFile.open(f.path)) {
                Map<Long, Integer> dictionaries = dictionaries(file);
                // COUNT(*) alone: groups keyed on the native path; with MIN(s) the Java path too.
                for (List<Aggregate> aggs : List.of(List.of(Aggregate.countStar()),
                        List.of(Aggregate.countStar(), Aggregate.of(GroupAggregate.Function.MIN, "s")))) {
                    CountingKey key = new CountingKey();
                    GroupAggregate.Result r = GroupAggregate.run(file, "s", key, null, aggs);
                    assertGroups(expectedGroups(f, new CountingKey(), s -> true), groups(r));
                    if (f == Fixtures.sharedDict()) {
                        for (Map.Entry<Object, AtomicInteger> e : key.calls.entrySet()) {
                            assertTrue(e.getKey() + " keyed " + e.getValue(), e.getValue().get() <= dictionaries.size());
                        }
                    }
                }
                // Only entries some selected row holds are keyed.
                CountingKey key = new CountingKey();
                GroupAggregate.Result r = GroupAggregate.run(file, "s", key, Predicate.in("s", "AAPL", "Zürich"),
                        List.of(Aggregate.countStar()));
                assertGroups(expectedGroups(f, new CountingKey(), s -> "AAPL".equals(s) || "Zürich".equals(s)), groups(r));
                Set<Object> keyed = key.calls.keySet();
                assertTrue(keyed.toString(), Set.of("AAPL", "Zürich").containsAll(keyed));
            }
        }
    }

    /** Natively grouped or not, the failure is the first selected row's, not the lowest code's. */
    @Test
    public void aFailingGroupKeyFailsAtTheFirstSelectedRow() {
        Fixtures.DictFile f = sparse();
        String[] words = {"AAPL", "IBM", "Zürich", "東京", "a.b", "%", "META", "GOOG"};
        try (VortexFile file = VortexFile.open(f.path)) {
            for (String x : words) {
                for (String y : words) {
                    if (x.equals(y)) {
                        continue;
                    }
                    Set<String> bad = new HashSet<>(List.of(x, y));
                    Function<Object, Object> key = v -> {
                        if (bad.contains(v)) {
                            throw new ArithmeticException("no key for " + v);
                        }
                        return v;
                    };
                    String first = f.s.stream().filter(bad::contains).findFirst().orElseThrow();
                    for (List<Aggregate> aggs : List.of(List.of(Aggregate.countStar()),
                            List.of(Aggregate.of(GroupAggregate.Function.MIN, "s")))) {
                        try {
                            GroupAggregate.run(file, "s", key, Predicate.in("s", x, y, "AAPL"), aggs);
                            fail("keyed " + bad);
                        } catch (ArithmeticException e) {
                            assertEquals(bad + " " + aggs, "no key for " + first, e.getMessage());
                        }
                    }
                }
            }
        }
    }

    @Test
    public void aFailingGroupKeyFailsOnlyWhenASelectedRowHoldsIt() {
        Fixtures.DictFile f = sparse();
        String bad = "IBM";
        assertTrue(f.s.contains(bad));
        Function<Object, Object> key = v -> {
            if (bad.equals(v)) {
                throw new ArithmeticException("no key for " + v);
            }
            return v == null ? "?" : ((String) v).length();
        };
        try (VortexFile file = VortexFile.open(f.path)) {
            for (List<Aggregate> aggs : List.of(List.of(Aggregate.countStar()),
                    List.of(Aggregate.of(GroupAggregate.Function.MIN, "s")))) {
                // The dictionaries hold IBM, but no selected row does.
                GroupAggregate.Result r = GroupAggregate.run(file, "s", key, Predicate.ne("s", bad), aggs);
                assertTrue(r.size() > 1);
                try {
                    GroupAggregate.run(file, "s", key, Predicate.in("s", bad, "AAPL"), aggs);
                    fail("keyed " + bad);
                } catch (ArithmeticException e) {
                    assertEquals("no key for " + bad, e.getMessage());
                }
            }
        }
    }
}
