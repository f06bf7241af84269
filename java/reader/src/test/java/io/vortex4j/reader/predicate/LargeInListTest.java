package io.vortex4j.reader.predicate;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.compute.PredicateEvaluator;
import io.vortex4j.reader.oracle.ReferenceScan;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.After;
import org.junit.Test;

/**
 * Long IN / NOT IN lists (10, 100 and 10,000 literals with NULL, duplicates and mixed numeric
 * literal types), evaluated as sets natively (per-code tables, vortex's prepared set) and on the
 * generic path ({@link LiteralSet}), select exactly what comparing literal by literal selects
 * ({@link RowFilter#test}, one {@code Literals.compare} per literal) and what vortex's filtered
 * scan selects: strings on dictionaries, integers, floats with -0.0, NaN and infinities,
 * decimals, dates.
 */
public class LargeInListTest {
    @After
    public void restore() {
        PredicateEvaluator.setDictFilterEnabled(true);
    }

    private static final int ROWS = 6000;
    private static Path numbers;
    private static Object[][] columns;
    private static final List<String> NAMES = List.of("l", "i", "d", "f", "m", "day");

    /** Columns l (i64), i (i32), d (f64), f (f32), m (decimal(10,2)), day (date), with nulls. */
    private static synchronized Path numbers() {
        if (numbers != null) {
            return numbers;
        }
        Random r = new Random(9);
        double[] specials = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.5, 1e300, -2.25};
        long[] l = new long[ROWS];
        int[] i = new int[ROWS];
        double[] d = new double[ROWS];
        float[] f = new float[ROWS];
        BigDecimal[] m = new BigDecimal[ROWS];
        LocalDate[] day = new LocalDate[ROWS];
        boolean[] valid = new boolean[ROWS];
        columns = new Object[NAMES.size()][ROWS];
        for (int k = 0; k < ROWS; k++) {
            valid[k] = k % 17 != 16;
            l[k] = r.nextInt(3000) - 1500;
            i[k] = r.nextInt(3000) - 1500;
            d[k] = k < specials.length ? specials[k] : k % 7 == 0 ? specials[r.nextInt(specials.length)]
                    : (r.nextInt(4000) - 2000) / 4.0;
            f[k] = (float) d[k];
            m[k] = valid[k] ? BigDecimal.valueOf(r.nextInt(20000) - 10000, 2) : null;
            day[k] = valid[k] ? LocalDate.of(2024, 1, 1).plusDays(r.nextInt(500)) : null;
            Object[] row = {(Object) l[k], i[k], d[k], f[k], m[k], day[k]};
            for (int c = 0; c < row.length; c++) {
                columns[c][k] = valid[k] ? row[c] : null;
            }
        }
        Schema schema = Schema.of(new Field("l", DataType.INT64, true), new Field("i", DataType.INT32, true),
                new Field("d", DataType.FLOAT64, true), new Field("f", DataType.FLOAT32, true),
                new Field("m", DataType.decimal(10, 2), true), new Field("day", DataType.DATE, true));
        Path p = Fixtures.tempDir().resolve("numbers.vortex");
        try (VortexWriter w = VortexWriter.create(p, schema)) {
            w.write(new Batch(schema, ROWS).set("l", l, valid).set("i", i, valid).set("d", d, valid)
                    .set("f", f, valid).set("m", m).set("day", day));
            w.finish();
        }
        numbers = p;
        return p;
    }

    /** {@code n} numeric literals of every type, many representable, some duplicated. */
    private static List<Object> numericLiterals(Random r, int n) {
        List<Object> out = new ArrayList<>();
        for (int k = 0; out.size() < n; k++) {
            int v = r.nextInt(3200) - 1600;
            switch (k % 9) {
                case 0: out.add((long) v); break;
                case 1: out.add(v / 4.0); break;
                case 2: out.add(BigDecimal.valueOf(v, 2)); break;
                case 3: out.add(v + 0.5); break;
                case 4: out.add(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.valueOf(1 + (v & 0xFF)))); break;
                case 5: out.add(new double[] {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, 1e300, 0.1}[r.nextInt(6)]); break;
                case 6: out.add(v); break;
                case 7: out.add(out.get(r.nextInt(out.size()))); break;
                default: out.add(new BigDecimal(v).movePointLeft(1)); break;
            }
        }
        out.set(n / 3, 0L);
        return out;
    }

    /** IN and NOT IN of the literals, and both again with a NULL among them. */
    private static List<Predicate> lists(String column, List<Object> literals) {
        List<Object> withNull = new ArrayList<>(literals);
        withNull.add(withNull.size() / 2, null);
        return List.of(Predicate.in(column, literals), Predicate.notIn(column, literals),
                Predicate.in(column, withNull), Predicate.notIn(column, withNull));
    }

    /**
     * Literal by literal, once per distinct value. For long lists (this oracle costs values x
     * literals comparisons) only the rows holding one of {@code sample} distinct values, the
     * first seen (the specials come first in the data), are decided; -1 marks an undecided row.
     */
    private static long[] oneByOne(Predicate leaf, Object[] values, int sample) {
        Map<Object, Boolean> memo = new HashMap<>();
        List<Long> rows = new ArrayList<>();
        for (int k = 0; k < values.length; k++) {
            Object v = values[k];
            Object key = v == null ? "<null>" : v;
            if (!memo.containsKey(key) && memo.size() >= sample) {
                continue;
            }
            if (memo.computeIfAbsent(key, x -> RowFilter.test(leaf, v))) {
                rows.add((long) k);
            }
        }
        return rows.stream().mapToLong(Long::longValue).toArray();
    }

    /** The rows of {@code got} holding a value the oracle decided. */
    private static long[] decided(long[] got, Predicate leaf, Object[] values, int sample) {
        Map<Object, Boolean> seen = new HashMap<>();
        for (Object v : values) {
            if (seen.size() >= sample) {
                break;
            }
            seen.put(v == null ? "<null>" : v, true);
        }
        return java.util.Arrays.stream(got).filter(r -> seen.containsKey(values[(int) r] == null ? "<null>" : values[(int) r])).toArray();
    }

    private static long[] rows(VortexFile file, String column, Predicate p) {
        List<Long> out = new ArrayList<>();
        try (Scan scan = file.scan(column)) {
            for (Chunk c : scan) {
                try (c) {
                    Bitmap sel = Compute.selection(c, p);
                    for (int i = sel.nextSetBit(0); i >= 0; i = sel.nextSetBit(i + 1)) {
                        out.add(c.firstRow() + i);
                    }
                }
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * The native path, the generic path and (for literals that cross JNI) vortex's filtered scan
     * select the same rows, and those the one-by-one oracle decides.
     */
    private static void check(VortexFile file, String column, Object[] values, Predicate p, boolean native_) {
        int n = ((Predicate.In) p).values().size();
        int sample = n > 1000 ? 30 : n > 20 ? 300 : Integer.MAX_VALUE;
        PredicateEvaluator.setDictFilterEnabled(true);
        long[] got = rows(file, column, p);
        assertArrayEquals("oracle: " + column + " " + describe(p), oneByOne(p, values, sample), decided(got, p, values, sample));
        PredicateEvaluator.setDictFilterEnabled(false);
        assertArrayEquals("generic: " + column + " " + describe(p), got, rows(file, column, p));
        PredicateEvaluator.setDictFilterEnabled(true);
        if (native_) {
            assertArrayEquals("vortex: " + column + " " + describe(p), got, ReferenceScan.selectedRows(file, p));
        }
    }

    private static String describe(Predicate p) {
        Predicate.In in = (Predicate.In) p;
        return (in.negated() ? "NOT IN " : "IN ") + in.values().size() + (in.values().contains(null) ? " with NULL" : "");
    }

    @Test
    public void numbersFloatsDecimalsAndDates() {
        Random r = new Random(4);
        try (VortexFile file = VortexFile.open(numbers())) {
            for (int n : new int[] {10, 100, 10_000}) {
                List<Object> literals = numericLiterals(r, n);
                for (String column : List.of("l", "i", "d", "f", "m")) {
                    for (Predicate p : lists(column, literals)) {
                        check(file, column, columns[NAMES.indexOf(column)], p, true);
                    }
                }
                List<Object> days = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    days.add(LocalDate.of(2024, 1, 1).plusDays(r.nextInt(2000) - 700));
                }
                for (Predicate p : lists("day", days)) {
                    check(file, "day", columns[NAMES.indexOf("day")], p, false); // java.time literals stay in Java
                }
            }
        }
    }

    @Test
    public void stringsOnDictionaries() {
        Random r = new Random(5);
        for (Fixtures.DictFile f : List.of(Fixtures.flatDict(), Fixtures.sharedDict())) {
            Object[] values = f.s.toArray();
            try (VortexFile file = VortexFile.open(f.path)) {
                for (int n : new int[] {10, 100, 10_000}) {
                    List<Object> literals = new ArrayList<>();
                    while (literals.size() < n) {
                        int k = literals.size();
                        literals.add(k % 4 == 0 ? f.s.get(r.nextInt(f.s.size()))
                                : k % 4 == 1 ? String.format("w%05d", r.nextInt(100_000))
                                : k % 4 == 2 ? "absent " + k : literals.isEmpty() ? "AAPL" : literals.get(r.nextInt(k)));
                    }
                    literals.removeIf(java.util.Objects::isNull);
                    literals.add("Zürich");
                    for (Predicate p : lists("s", literals)) {
                        check(file, "s", values, p, true);
                    }
                }
            }
        }
        assertTrue(RowFilter.SET_MIN <= 10);
    }
}
