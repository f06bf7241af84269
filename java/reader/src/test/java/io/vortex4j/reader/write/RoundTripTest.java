package io.vortex4j.reader.write;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.BoolArray;
import io.vortex4j.reader.array.DecimalArray;
import io.vortex4j.reader.array.Float32Array;
import io.vortex4j.reader.array.Float64Array;
import io.vortex4j.reader.array.Int16Array;
import io.vortex4j.reader.array.Int32Array;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.Int8Array;
import io.vortex4j.reader.array.UInt16Array;
import io.vortex4j.reader.array.UInt32Array;
import io.vortex4j.reader.array.UInt64Array;
import io.vortex4j.reader.array.UInt8Array;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.array.VarBinArray;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.predicate.Predicate;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Writes every dtype vortex4j supports with {@link VortexWriter}, reads the file back and checks
 * every value of every row, through {@link Values#valueAt} and through the typed getters.
 *
 * <p>The expected values are Java objects generated here (the form {@link Values#valueAt}
 * documents); the test converts them to the raw form {@link Batch} takes with its own code, so
 * the library's decoding is checked against an independent encoding.
 */
public class RoundTripTest {
    /** Batch sizes: uneven, one of a single row, one empty, more than 65536 rows in total. */
    private static final int[] BATCHES = {40_000, 1, 0, 33_333, 12_000, 30_000};

    private static final String[] WORDS = {
        "AAPL", "", "Zürich", "東京", "🎉party", "naïve", "A", "AA", "\u0000nul", "Ω",
    };

    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    /** One column: its field, and how to make the expected value of a row (null = SQL NULL). */
    // (Not a record: Gradle 4.4's test scanner cannot read record class files.)
    private static final class Col {
        private final Field field;
        private final Gen gen;

        Col(Field field, Gen gen) {
            this.field = field;
            this.gen = gen;
        }

        Field field() {
            return field;
        }

        Gen gen() {
            return gen;
        }
    }

    @FunctionalInterface
    private interface Gen {
        Object next(Random r, int row);
    }

    private static final List<Col> COLUMNS = new ArrayList<>();
    private static Schema schema;
    private static Path path;
    private static long totalRows;
    /** expected[c][row]: the value of column c in file row {@code row}. */
    private static Object[][] expected;

    private static void col(String name, DataType type, boolean nullable, Gen gen) {
        COLUMNS.add(new Col(new Field(name, type, nullable), gen));
    }

    /** Null about one row in {@code n}, else {@code v}. */
    private static Object nullish(Random r, int n, java.util.function.Supplier<Object> v) {
        return r.nextInt(n) == 0 ? null : v.get();
    }

    private static final float[] SPECIAL_FLOATS = {
        Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, 0.0f,
        Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, 1.5f,
    };
    private static final double[] SPECIAL_DOUBLES = {
        Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0,
        Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, 1e-300,
    };

    static {
        col("id", DataType.INT64, false, (r, row) -> (long) row);
        col("b", DataType.BOOL, true, (r, row) -> nullish(r, 5, () -> r.nextBoolean()));
        col("b_nn", DataType.BOOL, false, (r, row) -> row % 3 == 0);
        col("i8", DataType.INT8, true, (r, row) -> nullish(r, 7, () -> (byte) r.nextInt()));
        col("i16", DataType.INT16, true, (r, row) -> nullish(r, 7, () -> (short) r.nextInt()));
        col("i32", DataType.INT32, true, (r, row) -> nullish(r, 7, () -> r.nextInt()));
        col("i32_small", DataType.INT32, false, (r, row) -> r.nextInt(100) - 50);
        col("i64", DataType.INT64, true, (r, row) -> nullish(r, 7,
                () -> row % 1000 == 0 ? (row % 2000 == 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r.nextLong()));
        col("u8", DataType.UINT8, true, (r, row) -> nullish(r, 7, () -> r.nextInt(256)));
        col("u16", DataType.UINT16, true, (r, row) -> nullish(r, 7, () -> r.nextInt(65536)));
        col("u32", DataType.UINT32, true, (r, row) -> nullish(r, 7,
                () -> row % 100 == 0 ? 0xFFFF_FFFFL : Integer.toUnsignedLong(r.nextInt())));
        col("u64", DataType.UINT64, true, (r, row) -> nullish(r, 7, () -> row % 100 == 0
                ? TWO_64.subtract(BigInteger.ONE)
                : new BigInteger(64, r)));
        col("f32", DataType.FLOAT32, true, (r, row) -> nullish(r, 7, () -> row % 50 < SPECIAL_FLOATS.length
                ? SPECIAL_FLOATS[row % 50] : (r.nextFloat() - 0.5f) * 1e6f));
        col("f64", DataType.FLOAT64, true, (r, row) -> nullish(r, 7, () -> row % 50 < SPECIAL_DOUBLES.length
                ? SPECIAL_DOUBLES[row % 50] : r.nextGaussian() * 1e9));
        col("f64_prices", DataType.FLOAT64, false, (r, row) -> Math.round(r.nextDouble() * 100_000) / 100.0);
        col("s_low", DataType.UTF8, true, (r, row) -> nullish(r, 9, () -> WORDS[r.nextInt(WORDS.length)]));
        col("s_high", DataType.UTF8, true, (r, row) -> nullish(r, 9,
                () -> "row " + row + " ü" + Long.toHexString(r.nextLong()) + (row % 2 == 0 ? "東" : "")));
        col("bin", DataType.BINARY, true, (r, row) -> nullish(r, 9, () -> {
            byte[] b = new byte[r.nextInt(12)];
            r.nextBytes(b);
            return b;
        }));
        col("dec", DataType.decimal(12, 3), true, (r, row) -> nullish(r, 7,
                () -> BigDecimal.valueOf(r.nextLong() % 1_000_000_000_000L, 3)));
        col("dec38", DataType.decimal(38, 10), true, (r, row) -> nullish(r, 7, () -> {
            BigInteger max = BigInteger.TEN.pow(38).subtract(BigInteger.ONE);
            if (row % 100 == 0) {
                return new BigDecimal(row % 200 == 0 ? max : max.negate(), 10);
            }
            BigInteger u = new BigInteger(120, r).mod(max);
            return new BigDecimal(r.nextBoolean() ? u : u.negate(), 10);
        }));
        col("dec_int", DataType.decimal(5, 0), false, (r, row) -> BigDecimal.valueOf(r.nextInt(199_999) - 99_999));
        col("d", DataType.DATE, true, (r, row) -> nullish(r, 7,
                () -> LocalDate.ofEpochDay(r.nextInt(200_000) - 100_000)));
        for (DataType.TimeUnit unit : DataType.TimeUnit.values()) {
            String u = unitSuffix(unit);
            col("t_" + u, DataType.time(unit), true, (r, row) -> nullish(r, 7,
                    () -> LocalTime.ofNanoOfDay(Math.floorMod(r.nextLong(), 86_400_000_000_000L))
                            .truncatedTo(chrono(unit))));
            col("ts_" + u, DataType.timestamp(unit, null), true, (r, row) -> nullish(r, 7,
                    () -> LocalDateTime.ofInstant(randomInstant(r, unit), ZoneOffset.UTC)));
            col("tsz_" + u, DataType.timestamp(unit, unit == DataType.TimeUnit.MICROSECONDS
                    ? "America/New_York" : "UTC"), true, (r, row) -> nullish(r, 7, () -> randomInstant(r, unit)));
        }
        // Compressible shapes, so the export sees more encodings than plain buffers: runs,
        // constants, mostly-null (sparse), narrow ranges (bit-packing), sorted values (deltas),
        // few decimals (ALP), a low-cardinality binary column.
        col("i64_runs", DataType.INT64, true, (r, row) -> (row / 1000) % 5 == 4 ? null : (long) ((row / 700) % 3 - 1));
        col("i16_const", DataType.INT16, false, (r, row) -> (short) -7);
        col("i64_sparse", DataType.INT64, true, (r, row) -> row % 997 == 0 ? (long) row * 31 : null);
        col("u16_narrow", DataType.UINT16, true, (r, row) -> nullish(r, 4, () -> 60_000 + r.nextInt(16)));
        col("f32_few", DataType.FLOAT32, true, (r, row) -> nullish(r, 6, () -> r.nextInt(10_000) / 4.0f));
        col("ts_sorted", DataType.timestamp(DataType.TimeUnit.MILLISECONDS, null), false,
                (r, row) -> LocalDateTime.ofInstant(Instant.ofEpochMilli(1_700_000_000_000L + row * 250L), ZoneOffset.UTC));
        col("s_const", DataType.UTF8, false, (r, row) -> "same for every row ✓");
        col("bin_low", DataType.BINARY, true, (r, row) -> nullish(r, 5, () -> new byte[] {(byte) 0xFF, 0, (byte) (row % 3)}));
        col("nothing", DataType.NULL, true, (r, row) -> null);
    }

    private static String unitSuffix(DataType.TimeUnit unit) {
        switch (unit) {
            case SECONDS: return "s";
            case MILLISECONDS: return "ms";
            case MICROSECONDS: return "us";
            default: return "ns";
        }
    }

    private static ChronoUnit chrono(DataType.TimeUnit unit) {
        switch (unit) {
            case SECONDS: return ChronoUnit.SECONDS;
            case MILLISECONDS: return ChronoUnit.MILLIS;
            case MICROSECONDS: return ChronoUnit.MICROS;
            default: return ChronoUnit.NANOS;
        }
    }

    /** An instant before or after the epoch (within ±250 years, so nanoseconds fit i64). */
    private static Instant randomInstant(Random r, DataType.TimeUnit unit) {
        long seconds = Math.floorMod(r.nextLong(), 2L * 250 * 365 * 86_400) - 250L * 365 * 86_400;
        return Instant.ofEpochSecond(seconds, r.nextInt(1_000_000_000)).truncatedTo(chrono(unit));
    }

    // ---- the test's own conversion of expected values to the raw form Batch and getters use

    /** The raw long of a TIME value in its unit. */
    private static long rawTime(LocalTime t, DataType.TimeUnit unit) {
        return chrono(unit).between(LocalTime.MIDNIGHT, t);
    }

    /** The raw long of a TIMESTAMP value in its unit, since the epoch. */
    private static long rawTimestamp(Object v, DataType.TimeUnit unit) {
        Instant i = v instanceof LocalDateTime ? ((LocalDateTime) v).toInstant(ZoneOffset.UTC) : (Instant) v;
        return chrono(unit).between(Instant.EPOCH, i);
    }

    private static Object batchData(Field f, Object[] values, int from, int n, boolean[] valid) {
        DataType t = f.type();
        switch (t.kind()) {
            case NULL:
                return null;
            case BOOL: {
                boolean[] out = new boolean[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[from + i] != null && (Boolean) values[from + i];
                }
                return out;
            }
            case INT8: {
                byte[] out = new byte[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[from + i] == null ? 0 : (Byte) values[from + i];
                }
                return out;
            }
            case UINT8: {
                byte[] out = new byte[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[from + i] == null ? 0 : (byte) (int) (Integer) values[from + i];
                }
                return out;
            }
            case INT16: {
                short[] out = new short[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[from + i] == null ? 0 : (Short) values[from + i];
                }
                return out;
            }
            case UINT16: {
                short[] out = new short[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[from + i] == null ? 0 : (short) (int) (Integer) values[from + i];
                }
                return out;
            }
            case INT32: {
                int[] out = new int[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[from + i] == null ? 0 : (Integer) values[from + i];
                }
                return out;
            }
            case UINT32: {
                int[] out = new int[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[from + i] == null ? 0 : (int) (long) (Long) values[from + i];
                }
                return out;
            }
            case INT64: {
                long[] out = new long[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[from + i] == null ? 0 : (Long) values[from + i];
                }
                return out;
            }
            case UINT64: {
                long[] out = new long[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[from + i] == null ? 0 : ((BigInteger) values[from + i]).longValue();
                }
                return out;
            }
            case FLOAT32: {
                float[] out = new float[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[from + i] == null ? 0 : (Float) values[from + i];
                }
                return out;
            }
            case FLOAT64: {
                double[] out = new double[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[from + i] == null ? 0 : (Double) values[from + i];
                }
                return out;
            }
            case UTF8:
                return Arrays.copyOfRange(values, from, from + n, String[].class);
            case BINARY:
                return Arrays.copyOfRange(values, from, from + n, byte[][].class);
            case DECIMAL:
                return Arrays.copyOfRange(values, from, from + n, BigDecimal[].class);
            case DATE: {
                // Exercise both input forms Batch accepts: epoch days with a validity array for
                // odd batches, LocalDate[] with null elements for even ones.
                if (from % 2 == 1) {
                    int[] days = new int[n];
                    for (int i = 0; i < n; i++) {
                        days[i] = values[from + i] == null ? 0 : (int) ((LocalDate) values[from + i]).toEpochDay();
                    }
                    return days;
                }
                return Arrays.copyOfRange(values, from, from + n, LocalDate[].class);
            }
            case TIME: {
                long[] out = new long[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[from + i] == null ? 0 : rawTime((LocalTime) values[from + i], t.unit());
                }
                return out;
            }
            case TIMESTAMP: {
                long[] out = new long[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[from + i] == null ? 0 : rawTimestamp(values[from + i], t.unit());
                }
                return out;
            }
            default:
                throw new AssertionError("no test data for " + t);
        }
    }

    @BeforeClass
    public static void writeFile() {
        List<Field> fields = new ArrayList<>();
        for (Col c : COLUMNS) {
            fields.add(c.field());
        }
        schema = new Schema(fields);
        totalRows = Arrays.stream(BATCHES).asLongStream().sum();
        int rows = Math.toIntExact(totalRows);
        expected = new Object[COLUMNS.size()][rows];
        Random r = new Random(20240611);
        for (int row = 0; row < rows; row++) {
            for (int c = 0; c < COLUMNS.size(); c++) {
                expected[c][row] = COLUMNS.get(c).gen().next(r, row);
            }
        }
        path = Fixtures.tempDir().resolve("roundtrip.vortex");
        try (VortexWriter w = VortexWriter.create(path, schema)) {
            int from = 0;
            for (int n : BATCHES) {
                Batch batch = new Batch(schema, n);
                for (int c = 0; c < COLUMNS.size(); c++) {
                    Field f = COLUMNS.get(c).field();
                    boolean[] valid = null;
                    if (f.nullable() && f.type().kind() != DataType.Kind.NULL) {
                        valid = new boolean[n];
                        for (int i = 0; i < n; i++) {
                            valid[i] = expected[c][from + i] != null;
                        }
                    }
                    batch.set(f.name(), batchData(f, expected[c], from, n, valid), valid);
                }
                w.write(batch);
                from += n;
            }
            assertEquals(totalRows, w.rows());
            assertTrue(w.finish() > 0);
        }
    }

    @AfterClass
    public static void dropExpected() {
        expected = null;
    }

    @Test
    public void schemaAndRowCountRoundTrip() {
        try (VortexFile file = VortexFile.open(path)) {
            assertEquals(totalRows, file.rowCount());
            assertEquals(schema.names(), file.schema().names());
            for (int c = 0; c < schema.size(); c++) {
                Field written = schema.field(c);
                Field read = file.schema().field(c);
                assertEquals(written.name(), written.type().kind(), read.type().kind());
                assertEquals(written.name(), written.type().unit(), read.type().unit());
                assertEquals(written.name(), written.type().timezone(), read.type().timezone());
                assertEquals(written.name(), written.type().precision(), read.type().precision());
                assertEquals(written.name(), written.type().scale(), read.type().scale());
                assertEquals(written.name() + " nullability", written.nullable(), read.nullable());
                assertEquals(written, read);
            }
        }
    }

    @Test
    public void everyValueOfEveryColumnRoundTrips() {
        try (VortexFile file = VortexFile.open(path); Scan scan = file.scan()) {
            long row = 0;
            int chunks = 0;
            for (Chunk chunk : scan) {
                try (chunk) {
                    assertEquals("first row of " + chunk, row, chunk.firstRow());
                    assertEquals(chunks, chunk.index());
                    for (int c = 0; c < COLUMNS.size(); c++) {
                        checkColumn(COLUMNS.get(c).field(), chunk.column(c), expected[c], (int) row);
                        // By name gives the same view.
                        assertTrue(chunk.column(COLUMNS.get(c).field().name()) == chunk.column(c));
                    }
                    row += chunk.length();
                    chunks++;
                }
            }
            assertEquals(totalRows, row);
            assertTrue("expected several chunks, got " + chunks, chunks > 1);
        }
    }

    @Test
    public void projectedColumnsInAnyOrder() {
        List<String> names = Arrays.asList("tsz_us", "s_low", "u64", "id");
        try (VortexFile file = VortexFile.open(path); Scan scan = file.scan(names)) {
            assertEquals(names, scan.schema().names());
            long row = 0;
            for (Chunk chunk : scan) {
                try (chunk) {
                    assertEquals(names.size(), chunk.schema().size());
                    for (int i = 0; i < names.size(); i++) {
                        int c = schema.indexOf(names.get(i));
                        checkColumn(schema.field(c), chunk.column(i), expected[c], (int) row);
                    }
                    row += chunk.length();
                }
            }
            assertEquals(totalRows, row);
        }
    }

    @Test
    public void lowCardinalityStringsArriveDictionaryEncoded() {
        int c = schema.indexOf("s_low");
        try (VortexFile file = VortexFile.open(path); Scan scan = file.scan("s_low")) {
            long row = 0;
            Set<String> dictionaryEntries = new HashSet<>();
            for (Chunk chunk : scan) {
                try (chunk) {
                    Array a = chunk.column(0);
                    assertTrue("s_low in " + chunk + " is " + a, a instanceof VarBinDictArray);
                    VarBinDictArray d = (VarBinDictArray) a;
                    assertTrue(d.codeWidth() == 1 || d.codeWidth() == 2 || d.codeWidth() == 4);
                    // The dictionary holds only the distinct words (and maybe a null slot).
                    assertTrue(d.dictionary().length() <= WORDS.length + 1);
                    for (int i = 0; i < d.length(); i++) {
                        Object want = expected[c][(int) row + i];
                        assertEquals(want == null, d.isNull(i));
                        if (want != null) {
                            assertFalse(d.isCodeNull(i));
                            int code = d.getCode(i);
                            assertEquals(want, d.dictionary().getString(code));
                            assertEquals(want, d.getString(i));
                            assertArrayEquals(((String) want).getBytes(StandardCharsets.UTF_8), d.getBytes(i));
                        } else {
                            assertNull(d.getString(i));
                            assertNull(d.getBytes(i));
                        }
                    }
                    for (int e = 0; e < d.dictionary().length(); e++) {
                        if (!d.dictionary().isNull(e)) {
                            dictionaryEntries.add(d.dictionary().getString(e));
                        }
                    }
                    row += chunk.length();
                }
            }
            assertEquals(new HashSet<>(Arrays.asList(WORDS)), dictionaryEntries);
        }
    }

    @Test
    public void highCardinalityStringsArrivePlain() {
        try (VortexFile file = VortexFile.open(path); Scan scan = file.scan("s_high", "bin")) {
            for (Chunk chunk : scan) {
                try (chunk) {
                    assertTrue("s_high in " + chunk + " is " + chunk.column(0),
                            chunk.column(0) instanceof VarBinArray);
                    assertTrue("bin in " + chunk + " is " + chunk.column(1),
                            chunk.column(1) instanceof VarBinArray);
                }
            }
        }
    }

    /**
     * Temporal predicates (which only the Java path evaluates: the wire encoding has no temporal
     * literals) select, row by row, the rows java.time's own ordering selects in the values
     * written.
     */
    @Test
    public void temporalPredicatesOnTheJavaPath() {
        LocalDate day = LocalDate.of(1990, 6, 15);
        LocalTime noon = LocalTime.NOON;
        LocalDateTime local = LocalDateTime.of(2001, 9, 9, 1, 46, 40);
        Instant instant = Instant.parse("1969-07-20T20:17:40Z");
        List<Predicate> predicates = Arrays.asList(
                Predicate.ge("d", day), Predicate.lt("t_s", noon), Predicate.gt("t_ns", noon),
                Predicate.le("ts_ms", local), Predicate.gt("tsz_us", instant),
                Predicate.between("tsz_ns", instant, Instant.parse("2100-01-01T00:00:00Z")),
                Predicate.eq("ts_sorted", LocalDateTime.ofInstant(Instant.ofEpochMilli(1_700_000_000_000L + 777 * 250L),
                        ZoneOffset.UTC)),
                Predicate.in("d", day, firstNonNull("d", 1000), firstNonNull("d", 90_000), null),
                Predicate.ne("tsz_s", firstNonNull("tsz_s", 5)), Predicate.isNull("t_ms"));
        try (VortexFile file = VortexFile.open(path)) {
            for (Predicate p : predicates) {
                int c = schema.indexOf(p.column());
                long selected = 0;
                int row = 0;
                try (Scan scan = file.scan(p.column())) {
                    for (Chunk chunk : scan) {
                        try (chunk) {
                            Bitmap got = Compute.selection(chunk, p);
                            assertEquals(p + " in " + chunk, chunk.length(), got.length());
                            for (int i = 0; i < chunk.length(); i++, row++) {
                                boolean want = temporalSelects(p, expected[c][row]);
                                assertEquals(p + " at row " + row + " holding " + expected[c][row], want, got.get(i));
                                assertEquals(p + " matches at row " + row, want, Compute.matches(chunk, p, i));
                                selected += want ? 1 : 0;
                            }
                        }
                    }
                }
                assertEquals(p + " covers every row", totalRows, row);
                assertTrue(p + " selects nothing", selected > 0);
                assertTrue(p + " selects everything", selected < totalRows);
            }
            // A literal of the wrong temporal class names the column.
            try (Scan scan = file.scan("d"); Chunk chunk = scan.next()) {
                Compute.count(chunk, Predicate.eq("d", local));
                fail("compared a date with a date-time");
            } catch (io.vortex4j.VortexException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("'d'"));
            }
        }
    }

    /** The value of {@code column} in the first non-null row from {@code row} on. */
    private static Object firstNonNull(String column, int row) {
        int c = schema.indexOf(column);
        while (expected[c][row] == null) {
            row++;
        }
        return expected[c][row];
    }

    /** The test's own evaluation of a temporal leaf with java.time ordering. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static boolean temporalSelects(Predicate p, Object v) {
        if (p instanceof Predicate.IsNull n) {
            return (v == null) != n.negated();
        }
        if (v == null) {
            return false;
        }
        Comparable value = (Comparable) v;
        if (p instanceof Predicate.Compare c) {
            // Spelled out here rather than through the production Op.test, so a wrong operator
            // there cannot hide behind the same wrong operator here.
            int order = Integer.signum(value.compareTo(c.value()));
            switch (c.op().symbol()) {
                case "=": return order == 0;
                case "<>": return order != 0;
                case "<": return order < 0;
                case "<=": return order <= 0;
                case ">": return order > 0;
                case ">=": return order >= 0;
                default: throw new AssertionError("operator " + c.op().symbol());
            }
        }
        if (p instanceof Predicate.Between b) {
            return value.compareTo(b.low()) >= 0 && value.compareTo(b.high()) <= 0;
        }
        for (Object o : ((Predicate.In) p).values()) {
            if (o != null && value.compareTo(o) == 0) {
                return true;
            }
        }
        return false;
    }

    @Test
    public void fileWithoutRowsRoundTrips() {
        Path empty = Fixtures.tempDir().resolve("empty.vortex");
        Schema s = Schema.of(new Field("a", DataType.INT32, true), new Field("s", DataType.UTF8, false));
        try (VortexWriter w = VortexWriter.create(empty, s)) {
            w.write(new Batch(s, 0).set("a", new int[0]).set("s", new String[0]));
            w.finish();
        }
        try (VortexFile file = VortexFile.open(empty); Scan scan = file.scan()) {
            assertEquals(0, file.rowCount());
            assertEquals(s, file.schema());
            long rows = 0;
            for (Chunk c : scan) {
                try (c) {
                    rows += c.length();
                }
            }
            assertEquals(0, rows);
        }
    }

    @Test
    public void unfinishedWriterLeavesNoFile() {
        Path p = Fixtures.tempDir().resolve("abandoned.vortex");
        Schema s = Schema.of(new Field("a", DataType.INT64, false));
        try (VortexWriter w = VortexWriter.create(p, s)) {
            w.write(new Batch(s, 3).set("a", new long[] {1, 2, 3}));
        }
        assertFalse(java.nio.file.Files.exists(p));
    }

    // ---- checking one column of one chunk

    private static void checkColumn(Field f, Array a, Object[] want, int first) {
        DataType t = f.type();
        assertEquals(f.name(), t.kind(), a.type().kind());
        if (!f.nullable()) {
            assertFalse(f.name() + " is not nullable", a.mayHaveNulls());
        }
        for (int i = 0; i < a.length(); i++) {
            Object w = want[first + i];
            String where = f.name() + " row " + (first + i);
            assertEquals(where + " isNull", w == null, a.isNull(i));
            assertEquals(where + " isValid", w != null, a.isValid(i));
            if (w == null) {
                assertTrue(where + ": a null row but mayHaveNulls() is false", a.mayHaveNulls());
            }
            Object got = Values.valueAt(a, i);
            assertValue(where, w, got);
            if (w != null) {
                checkTypedGetter(where, t, a, i, w);
            }
        }
        try {
            a.isNull(a.length());
            fail(f.name() + ": row " + a.length() + " of " + a.length() + " should be out of bounds");
        } catch (IndexOutOfBoundsException expectedException) {
            // ok
        }
    }

    private static void assertValue(String where, Object want, Object got) {
        if (want instanceof byte[]) {
            assertTrue(where + " is " + got, got instanceof byte[]);
            assertArrayEquals(where, (byte[]) want, (byte[]) got);
        } else if (want instanceof BigDecimal) {
            // Same value and the column's scale.
            assertEquals(where, want, got);
        } else {
            // Float/Double equals treats NaN as equal to NaN and -0.0 as different from 0.0.
            assertEquals(where, want, got);
            if (want != null) {
                assertEquals(where, want.getClass(), got.getClass());
            }
        }
    }

    private static void checkTypedGetter(String where, DataType t, Array a, int i, Object w) {
        switch (t.kind()) {
            case BOOL:
                assertEquals(where, w, ((BoolArray) a).getBoolean(i));
                break;
            case INT8:
                assertEquals(where, (byte) (Byte) w, ((Int8Array) a).getByte(i));
                break;
            case INT16:
                assertEquals(where, (short) (Short) w, ((Int16Array) a).getShort(i));
                break;
            case INT32:
                assertEquals(where, (int) (Integer) w, ((Int32Array) a).getInt(i));
                break;
            case INT64:
                assertEquals(where, (long) (Long) w, ((Int64Array) a).getLong(i));
                break;
            case UINT8:
                assertEquals(where, (int) (Integer) w, ((UInt8Array) a).getInt(i));
                break;
            case UINT16:
                assertEquals(where, (int) (Integer) w, ((UInt16Array) a).getInt(i));
                break;
            case UINT32:
                assertEquals(where, (long) (Long) w, ((UInt32Array) a).getLong(i));
                break;
            case UINT64: {
                BigInteger b = (BigInteger) w;
                assertEquals(where, b, ((UInt64Array) a).getBigInteger(i));
                assertEquals(where, b.longValue(), ((UInt64Array) a).getLong(i));
                break;
            }
            case FLOAT32:
                assertEquals(where, Float.floatToRawIntBits((Float) w),
                        Float.floatToRawIntBits(((Float32Array) a).getFloat(i)));
                break;
            case FLOAT64:
                assertEquals(where, Double.doubleToRawLongBits((Double) w),
                        Double.doubleToRawLongBits(((Float64Array) a).getDouble(i)));
                break;
            case UTF8: {
                byte[] bytes = ((String) w).getBytes(StandardCharsets.UTF_8);
                if (a instanceof VarBinArray v) {
                    assertEquals(where, w, v.getString(i));
                    assertArrayEquals(where, bytes, v.getBytes(i));
                    assertEquals(where, bytes.length, v.byteLength(i));
                } else {
                    VarBinDictArray d = (VarBinDictArray) a;
                    assertEquals(where, w, d.getString(i));
                    assertArrayEquals(where, bytes, d.getBytes(i));
                }
                break;
            }
            case BINARY:
                if (a instanceof VarBinArray v) {
                    assertArrayEquals(where, (byte[]) w, v.getBytes(i));
                    assertEquals(where, ((byte[]) w).length, v.byteLength(i));
                } else {
                    assertArrayEquals(where, (byte[]) w, ((VarBinDictArray) a).getBytes(i));
                }
                break;
            case DECIMAL:
                assertEquals(where, w, ((DecimalArray) a).getBigDecimal(i));
                assertEquals(where, t.scale(), ((DecimalArray) a).getBigDecimal(i).scale());
                break;
            case DATE:
                assertEquals(where, ((LocalDate) w).toEpochDay(), ((Int32Array) a).getInt(i));
                break;
            case TIME:
                assertEquals(where, rawTime((LocalTime) w, t.unit()), ((Int64Array) a).getLong(i));
                break;
            case TIMESTAMP:
                assertEquals(where, rawTimestamp(w, t.unit()), ((Int64Array) a).getLong(i));
                break;
            default:
                throw new AssertionError(where + ": unexpected kind " + t.kind());
        }
    }
}
