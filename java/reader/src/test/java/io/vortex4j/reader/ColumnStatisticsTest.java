package io.vortex4j.reader;

import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.Test;

/**
 * {@link VortexFile#columnStatistics()} against the null counts, minima, maxima and sums computed
 * here from the values written (strings in UTF-8 byte order, as vortex orders them): three batches
 * of every kind the footer keeps statistics for, nulls, a column of nothing but nulls, a string
 * column whose maximum is longer than the 64 bytes the writer keeps (a bound: absent or exact),
 * a floating-point column holding NaN (vortex's min/max/sum skip NaN: absent), and i64 values
 * whose sum overflows (absent, or exact when the writer's running sum never left 64 bits).
 */
public class ColumnStatisticsTest {
    private static final String[] WORDS = {"AAPL", "", "Zürich", "東京", "🎉party", "naïve", "A", "Ω", "zz"};

    /** Expected statistics of one column, kept while the rows are generated. */
    private static final class Expected {
        final Comparator<Object> order;
        long nulls;
        Object min;
        Object max;
        /** The exact sum of the numeric values (doubles added exactly as BigDecimal). */
        BigDecimal sum = BigDecimal.ZERO;
        /** The sum of the values' magnitudes: bounds a floating-point sum's rounding error. */
        double magnitude;

        Expected(Comparator<Object> order) {
            this.order = order;
        }

        void add(Object v) {
            if (v == null) {
                nulls++;
                return;
            }
            if (v instanceof Number x) {
                sum = sum.add(x instanceof BigDecimal d ? d : x instanceof Double d ? new BigDecimal(d)
                        : BigDecimal.valueOf(x.longValue()));
                magnitude += Math.abs(x.doubleValue());
            }
            min = min == null || order.compare(v, min) < 0 ? v : min;
            max = max == null || order.compare(v, max) > 0 ? v : max;
        }
    }

    @SuppressWarnings("unchecked")
    private static final Comparator<Object> NATURAL = (a, b) -> ((Comparable<Object>) a).compareTo(b);
    private static final Comparator<Object> UTF8_BYTES = (a, b) -> Arrays.compareUnsigned(
            ((String) a).getBytes(StandardCharsets.UTF_8), ((String) b).getBytes(StandardCharsets.UTF_8));
    private static final Comparator<Object> UNSIGNED_BYTES = (a, b) -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);

    @Test
    public void footerStatisticsEqualTheValuesWritten() throws Exception {
        Schema schema = Schema.of(
                new Field("i64", DataType.INT64, true),
                new Field("i32", DataType.INT32, false),
                new Field("u8", DataType.UINT8, false),
                new Field("f64", DataType.FLOAT64, true),
                new Field("nan", DataType.FLOAT64, false),
                new Field("sym", DataType.UTF8, true),
                new Field("long", DataType.UTF8, false),
                new Field("flag", DataType.BOOL, true),
                new Field("amount", DataType.decimal(10, 2), true),
                new Field("day", DataType.DATE, true),
                new Field("bin", DataType.BINARY, true),
                new Field("none", DataType.INT64, true));
        Expected[] expected = new Expected[schema.size()];
        for (int c = 0; c < expected.length; c++) {
            String name = schema.field(c).name();
            expected[c] = new Expected(name.equals("sym") || name.equals("long") ? UTF8_BYTES
                    : name.equals("bin") ? UNSIGNED_BYTES : NATURAL);
        }
        Path path = Fixtures.tempDir().resolve("stats.vortex");
        Random random = new Random(42);
        String longest = "🎉party" + "~".repeat(100); // the greatest in UTF-8 byte order, and long
        long rows = 0;
        try (VortexWriter w = VortexWriter.create(path, schema)) {
            for (int n : new int[] {70_000, 1, 50_000}) {
                Object[][] values = new Object[schema.size()][n];
                for (int r = 0; r < n; r++) {
                    values[0][r] = random.nextInt(9) == 0 ? null : random.nextLong() >> random.nextInt(60);
                    values[1][r] = random.nextInt(2_000_001) - 1_000_000;
                    values[2][r] = random.nextInt(256);
                    values[3][r] = random.nextInt(7) == 0 ? null : random.nextGaussian() * 1e6;
                    values[4][r] = rows + r == 12_345 ? Double.NaN : random.nextDouble();
                    values[5][r] = random.nextInt(10) == 0 ? null : WORDS[random.nextInt(WORDS.length)];
                    values[6][r] = rows + r == 99_999 ? longest : WORDS[random.nextInt(WORDS.length)];
                    values[7][r] = random.nextInt(5) == 0 ? null : random.nextInt(4) != 0;
                    values[8][r] = random.nextInt(8) == 0 ? null : BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2);
                    values[9][r] = random.nextInt(6) == 0 ? null : LocalDate.ofEpochDay(18_000 + random.nextInt(3_000));
                    values[10][r] = random.nextInt(4) == 0 ? null : new byte[] {(byte) random.nextInt(256), (byte) r};
                    values[11][r] = null;
                }
                for (int c = 0; c < expected.length; c++) {
                    for (Object v : values[c]) {
                        expected[c].add(v instanceof Double d && d.isNaN() ? null : v);
                    }
                }
                expected[4].nulls = 0; // the NaN is a value, not a null
                w.write(batch(schema, n, values));
                rows += n;
            }
            w.finish();
        }
        List<ColumnStatistics> stats;
        try (VortexFile file = VortexFile.open(path)) {
            stats = file.columnStatistics();
        }
        assertEquals(schema.size(), stats.size());
        for (int c = 0; c < expected.length; c++) {
            String name = schema.field(c).name();
            ColumnStatistics s = stats.get(c);
            Expected e = expected[c];
            assertEquals(name, s.column());
            assertEquals(name + " nulls", e.nulls, s.nullCount().getAsLong());
            switch (name) {
                case "i64":
                    assertTrue("an overflowing sum is absent or exact: " + s, s.sum().isEmpty()
                            || BigDecimal.valueOf((Long) s.sum().get()).compareTo(e.sum) == 0);
                    break;
                case "i32":
                case "u8":
                    assertEquals(name + " sum", Optional.of(e.sum.longValueExact()), s.sum());
                    break;
                case "f64": {
                    // The writer's order (zones in row order, then their sums): not a correctly rounded sum.
                    double got = (Double) s.sum().get();
                    assertEquals(name + " sum", e.sum.doubleValue(), got, e.magnitude * 1e-12);
                    break;
                }
                case "amount":
                    assertEquals(name + " sum", Optional.of(e.sum.setScale(2)), s.sum());
                    break;
                case "none":
                    assertTrue("all null: " + s, s.sum().isEmpty() || s.sum().get().equals(0L));
                    break;
                default:
                    assertEquals(name + " has no sum: " + s, Optional.empty(), s.sum());
            }
            switch (name) {
                case "nan":
                    assertFalse("min/max skip NaN: not the column's", s.min().isPresent() || s.max().isPresent());
                    break;
                case "long":
                    assertEquals(e.min, s.min().get());
                    assertEquals(longest, e.max);
                    assertTrue("a truncated max is no value: " + s, s.max().isEmpty() || s.max().get().equals(longest));
                    break;
                case "none":
                    assertEquals(rows, s.nullCount().getAsLong());
                    assertFalse(s.min().isPresent() || s.max().isPresent());
                    break;
                case "bin":
                    assertArrayEquals((byte[]) e.min, (byte[]) s.min().get());
                    assertArrayEquals((byte[]) e.max, (byte[]) s.max().get());
                    break;
                default:
                    assertEquals(name + " min", Optional.of(e.min), s.min());
                    assertEquals(name + " max", Optional.of(e.max), s.max());
            }
        }
    }

    /** A batch of {@code values} (boxed, nulls as null) in the raw form {@link Batch#set} takes. */
    private static Batch batch(Schema schema, int n, Object[][] values) {
        Batch b = new Batch(schema, n);
        for (int c = 0; c < schema.size(); c++) {
            Field f = schema.field(c);
            Object[] v = values[c];
            boolean[] valid = new boolean[n];
            for (int r = 0; r < n; r++) {
                valid[r] = v[r] != null;
            }
            Object data;
            switch (f.type().kind()) {
                case INT64: {
                    long[] a = new long[n];
                    for (int r = 0; r < n; r++) {
                        a[r] = v[r] == null ? 0 : (Long) v[r];
                    }
                    data = a;
                    break;
                }
                case INT32: {
                    int[] a = new int[n];
                    for (int r = 0; r < n; r++) {
                        a[r] = (Integer) v[r];
                    }
                    data = a;
                    break;
                }
                case UINT8: {
                    byte[] a = new byte[n];
                    for (int r = 0; r < n; r++) {
                        a[r] = (byte) (int) (Integer) v[r];
                    }
                    data = a;
                    break;
                }
                case FLOAT64: {
                    double[] a = new double[n];
                    for (int r = 0; r < n; r++) {
                        a[r] = v[r] == null ? 0 : (Double) v[r];
                    }
                    data = a;
                    break;
                }
                case BOOL: {
                    boolean[] a = new boolean[n];
                    for (int r = 0; r < n; r++) {
                        a[r] = v[r] != null && (Boolean) v[r];
                    }
                    data = a;
                    break;
                }
                case UTF8:
                    data = Arrays.copyOf(v, n, String[].class);
                    break;
                case BINARY:
                    data = Arrays.copyOf(v, n, byte[][].class);
                    break;
                case DECIMAL:
                    data = Arrays.copyOf(v, n, BigDecimal[].class);
                    break;
                case DATE:
                    data = Arrays.copyOf(v, n, LocalDate[].class);
                    break;
                default:
                    throw new AssertionError(f);
            }
            b.set(f.name(), data, f.nullable() ? valid : null);
        }
        return b;
    }
}
