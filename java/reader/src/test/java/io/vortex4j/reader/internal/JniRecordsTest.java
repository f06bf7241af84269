package io.vortex4j.reader.internal;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.ColumnStatistics;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.DataType.Kind;
import io.vortex4j.reader.DataType.TimeUnit;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.NativeAccess;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.compute.GroupAggregate;
import io.vortex4j.reader.compute.GroupAggregate.Aggregate;
import io.vortex4j.reader.compute.GroupAggregate.Function;
import io.vortex4j.reader.compute.PreparedFilter;
import io.vortex4j.reader.convert.ConvertOptions;
import io.vortex4j.reader.convert.Converter;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * One Java → native → Java round trip per record of docs/jni.md ("Records"): rows drawn here from
 * a seeded {@link Random} are written through the native writer and read back through the native
 * entry points, and every answer is compared with one computed here from the rows written.
 */
public class JniRecordsTest {
    private static final String[] WORDS = {"AAPL", "MSFT", "Zürich", "東京", "", "x y"};
    private static final Schema SCHEMA = Schema.of(f("id", DataType.INT64, false), f("b", DataType.BOOL, true),
            f("i8", DataType.INT8, true), f("i16", DataType.INT16, true), f("i32", DataType.INT32, true),
            f("i64", DataType.INT64, true), f("u8", DataType.UINT8, true), f("u16", DataType.UINT16, true),
            f("u32", DataType.UINT32, true), f("u64", DataType.UINT64, true), f("f32", DataType.FLOAT32, true),
            f("f64", DataType.FLOAT64, true), f("s", DataType.UTF8, true), f("w", DataType.UTF8, true),
            f("bin", DataType.BINARY, true), f("dec", DataType.decimal(12, 3), true), f("d", DataType.DATE, true),
            f("t", DataType.time(TimeUnit.MICROSECONDS), true),
            f("ts", DataType.timestamp(TimeUnit.MILLISECONDS, "UTC"), true),
            f("tsl", DataType.timestamp(TimeUnit.NANOSECONDS, null), true),
            f("st", DataType.struct(List.of(f("x", DataType.INT32, true), f("y", DataType.UTF8, true))), true),
            f("l", DataType.list(DataType.INT64, true), true));
    /** The columns the counts scan. */
    private static final List<String> COUNTED = List.of("id", "s", "w", "i32", "i64");

    private static Path path;
    private static int rows;
    /** values[c][row]: column c of row {@code row} as {@link Values#valueAt} gives it (null: NULL). */
    private static Object[][] values;

    private static Field f(String name, DataType type, boolean nullable) {
        return new Field(name, type, nullable);
    }

    private static Object[] column(String name) {
        return values[SCHEMA.indexOf(name)];
    }

    /** Column {@code c} of row {@code row}: null one time in eight where nullable. */
    private static Object generate(Random r, int c, int row) {
        if (c == 0) {
            return (long) row;
        }
        if (r.nextInt(8) == 0) {
            return null;
        }
        switch (SCHEMA.field(c).name()) {
            case "b": return r.nextBoolean();
            case "i8": return (byte) r.nextInt();
            case "i16": return (short) r.nextInt();
            case "i32": return r.nextInt(7) - 3;
            case "i64": return r.nextLong() >> 20;
            case "u8": return r.nextInt(256);
            case "u16": return r.nextInt(65_536);
            case "u32": return Integer.toUnsignedLong(r.nextInt());
            case "u64": return new BigInteger(64, r);
            case "f32": return r.nextInt(4_000) / 4f;
            case "f64": return (r.nextInt(2_000_000) - 1_000_000) / 4.0; // quarters: sums are exact
            case "s": return "r" + row + (row % 5 == 0 ? "ü" : "");
            case "w": return WORDS[r.nextInt(WORDS.length)];
            case "bin": return new BigInteger(r.nextInt(40), r).toByteArray();
            case "dec": return BigDecimal.valueOf(r.nextLong() % 100_000_000_000L, 3);
            case "d": return LocalDate.ofEpochDay(r.nextInt(40_000) - 10_000);
            case "t": return LocalTime.ofNanoOfDay(Math.floorMod(r.nextLong(), 86_400_000_000L) * 1_000);
            case "ts": return Instant.ofEpochMilli(1_600_000_000_000L + r.nextInt(1 << 30));
            case "tsl": return LocalDateTime.ofEpochSecond(1_600_000_000L + r.nextInt(), r.nextInt(1_000_000_000), ZoneOffset.UTC);
            case "st": {
                Map<String, Object> st = new LinkedHashMap<>();
                st.put("x", r.nextInt(3) == 0 ? null : r.nextInt());
                st.put("y", r.nextInt(3) == 0 ? null : WORDS[r.nextInt(WORDS.length)]);
                return st;
            }
            default: return r.ints(r.nextInt(4)).mapToObj(x -> x % 5 == 0 ? null : (Object) (long) x).toList();
        }
    }

    @BeforeClass
    public static void writeRows() {
        int[] batches = {70_000, 0, 1, 50_000, 40_000};
        rows = Arrays.stream(batches).sum();
        values = new Object[SCHEMA.size()][rows];
        Random r = new Random(20_260_101);
        for (int row = 0; row < rows; row++) {
            for (int c = 0; c < SCHEMA.size(); c++) {
                values[c][row] = generate(r, c, row);
            }
        }
        path = Fixtures.tempDir().resolve("records.vortex");
        write(path, batches);
    }

    /** Writes the first rows of {@link #values} in batches of {@code batches} rows; returns the file's size. */
    private static long write(Path file, int[] batches) {
        try (VortexWriter w = VortexWriter.create(file, SCHEMA)) {
            int from = 0;
            for (int n : batches) {
                Batch b = new Batch(SCHEMA, n);
                for (int c = 0; c < SCHEMA.size(); c++) {
                    Object[] v = Arrays.copyOfRange(values[c], from, from + n);
                    boolean[] valid = new boolean[n];
                    Object data = raw(SCHEMA.field(c).type(), v, valid);
                    b.set(SCHEMA.field(c).name(), data, valid);
                }
                w.write(b);
                from += n;
            }
            assertEquals(from, w.rows());
            return w.finish();
        }
    }

    /**
     * The values in the form {@link Batch#set} takes, converted here: primitives (unsigned as the
     * signed type; {@code t} in µs, {@code ts} in ms, {@code tsl} in ns), typed object arrays, and
     * nested rows as they are; {@code valid} filled in.
     */
    private static Object raw(DataType t, Object[] v, boolean[] valid) {
        Class<?> primitive = switch (t.kind()) {
            case BOOL -> boolean.class;
            case INT8, UINT8 -> byte.class;
            case INT16, UINT16 -> short.class;
            case INT32, UINT32 -> int.class;
            case INT64, UINT64, TIME, TIMESTAMP -> long.class;
            case FLOAT32 -> float.class;
            case FLOAT64 -> double.class;
            default -> null;
        };
        Object data = primitive == null ? v : java.lang.reflect.Array.newInstance(primitive, v.length);
        for (int r = 0; r < v.length; r++) {
            valid[r] = v[r] != null;
            if (primitive != null && valid[r]) {
                java.lang.reflect.Array.set(data, r, switch (t.kind()) {
                    case UINT8 -> (byte) (int) (Integer) v[r];
                    case UINT16 -> (short) (int) (Integer) v[r];
                    case UINT32 -> (int) (long) (Long) v[r];
                    case UINT64 -> ((BigInteger) v[r]).longValue();
                    case TIME -> ((LocalTime) v[r]).toNanoOfDay() / 1_000;
                    case TIMESTAMP -> v[r] instanceof Instant i ? i.toEpochMilli()
                            : ((LocalDateTime) v[r]).toEpochSecond(ZoneOffset.UTC) * 1_000_000_000L
                                    + ((LocalDateTime) v[r]).getNano();
                    default -> v[r];
                });
            }
        }
        return switch (t.kind()) {
            case UTF8 -> Arrays.copyOf(v, v.length, String[].class);
            case BINARY -> Arrays.copyOf(v, v.length, byte[][].class);
            case DECIMAL -> Arrays.copyOf(v, v.length, BigDecimal[].class);
            case DATE -> Arrays.copyOf(v, v.length, LocalDate[].class);
            default -> data;
        };
    }

    private static void assertValue(String where, Object want, Object got) {
        if (!Objects.deepEquals(want, got)) {
            fail(where + ": expected " + show(want) + " but was " + show(got));
        }
    }

    private static Object show(Object v) {
        return v instanceof byte[] b ? Arrays.toString(b) : v;
    }

    private static long count(IntPredicate keep, long from, long to) {
        return IntStream.range((int) from, (int) to).filter(keep).count();
    }

    @Test
    public void schemaRoundTrips() {
        List<Field> fields = new ArrayList<>(List.of(f("n", DataType.NULL, true), f("b", DataType.BOOL, false),
                f("i8", DataType.INT8, true), f("i16", DataType.INT16, false), f("i32", DataType.INT32, true),
                f("i64", DataType.INT64, false), f("u8", DataType.UINT8, true), f("u16", DataType.UINT16, false),
                f("u32", DataType.UINT32, true), f("u64", DataType.UINT64, false), f("f32", DataType.FLOAT32, true),
                f("f64", DataType.FLOAT64, false), f("s", DataType.UTF8, true), f("bin", DataType.BINARY, false),
                f("dec", DataType.decimal(38, 10), true), f("dec5", DataType.decimal(5, 0), false),
                f("d", DataType.DATE, true)));
        String[] zones = {"UTC", "America/New_York", "Europe/Paris", "Asia/Tokyo"};
        for (TimeUnit u : TimeUnit.values()) {
            fields.add(f("t_" + u, DataType.time(u), u.ordinal() % 2 == 0));
            fields.add(f("ts_" + u, DataType.timestamp(u, null), true));
            fields.add(f("tsz_" + u, DataType.timestamp(u, zones[u.ordinal()]), u.ordinal() % 2 == 1));
        }
        DataType inner = DataType.struct(List.of(f("z", DataType.DATE, true), f("l", DataType.list(DataType.INT32, false), true)));
        fields.add(f("st", DataType.struct(List.of(f("x", DataType.INT64, false), f("y", DataType.UTF8, true),
                f("inner", inner, true))), true));
        fields.add(f("ls", DataType.list(DataType.struct(List.of(f("a", DataType.decimal(9, 2), true))), true), false));
        fields.add(f("ll", DataType.list(DataType.list(DataType.UINT16, true), false), true));
        fields.add(f("fsl", DataType.fixedSizeList(DataType.FLOAT32, true, 3), true));
        Schema schema = new Schema(fields);
        Path p = Fixtures.tempDir().resolve("schema.vortex");
        try (VortexWriter w = VortexWriter.create(p, schema)) {
            w.finish();
        }
        try (VortexFile file = VortexFile.open(p)) {
            assertEquals(describe(schema.fields()), describe(file.schema().fields()));
            assertRecord("", schema.fields(), NativeAccess.withHandle(file, Native::schema));
            assertEquals(schema, file.schema());
        }
    }

    /** Everything a schema says of each field (its children's too), one line per field. */
    private static List<String> describe(List<Field> fields) {
        return fields.stream().map(x -> {
            DataType t = x.type();
            return x.name() + (x.nullable() ? "? " : " ") + t.kind() + " precision " + t.precision() + " scale "
                    + t.scale() + " unit " + t.unit() + " zone " + t.timezone() + " size " + t.listSize() + " "
                    + describe(t.children());
        }).toList();
    }

    /** The record as it crosses: a type code, zone and dtype text per column, children only where nested. */
    private static void assertRecord(String at, List<Field> fields, Object[] record) {
        assertEquals(8, record.length);
        for (int i = 0; i < fields.size(); i++) {
            DataType t = fields.get(i).type();
            String where = at + fields.get(i).name();
            assertEquals(where, t.kind().code(), ((int[]) record[1])[i]);
            assertEquals(where, t.timezone(), ((String[]) record[5])[i]);
            assertNotNull(where, ((String[]) record[6])[i]);
            Object children = ((Object[]) record[7])[i];
            assertEquals(where + " children", !t.children().isEmpty(), children != null);
            if (children != null) {
                assertRecord(where + ".", t.children(), (Object[]) children);
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    public void columnStatisticsRoundTrip() {
        List<ColumnStatistics> stats;
        try (VortexFile file = VortexFile.open(path)) {
            stats = file.columnStatistics();
        }
        assertEquals(SCHEMA.size(), stats.size());
        for (int c = 0; c < SCHEMA.size(); c++) {
            Kind k = SCHEMA.field(c).type().kind();
            ColumnStatistics s = stats.get(c);
            String name = SCHEMA.field(c).name();
            List<Object> present = Arrays.stream(values[c]).filter(Objects::nonNull).toList();
            assertEquals(name, s.column());
            if (!k.isNested() || s.nullCount().isPresent()) {
                assertEquals(name + " nulls", rows - present.size(), s.nullCount().getAsLong());
            }
            // Strings and bytes in unsigned byte order, as vortex orders them.
            Comparator<Object> order = k == Kind.UTF8 ? Comparator.comparing(
                    v -> ((String) v).getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned)
                    : k == Kind.BINARY ? Comparator.comparing(v -> (byte[]) v, Arrays::compareUnsigned)
                    : (a, b) -> ((Comparable<Object>) a).compareTo(b);
            if (k == Kind.TIME || k == Kind.TIMESTAMP || k.isNested()) {
                assertFalse(name + ": min/max not decoded", s.min().isPresent() || s.max().isPresent());
            } else {
                assertValue(name + " min", Collections.min(present, order), s.min().orElse(null));
                assertValue(name + " max", Collections.max(present, order), s.max().orElse(null));
            }
            Object sum = k.isInteger() && k != Kind.UINT64 ? (Object) present.stream().mapToLong(v -> ((Number) v).longValue()).sum()
                    : k == Kind.FLOAT64 ? (Object) present.stream().mapToDouble(v -> (Double) v).sum()
                    : k == Kind.DECIMAL ? present.stream().map(BigDecimal.class::cast).reduce(BigDecimal.ZERO.setScale(3), BigDecimal::add)
                    : null;
            if (sum != null) {
                assertEquals(name + " sum", sum, s.sum().orElse(null));
            }
        }
    }

    @Test
    public void exportedColumnsRoundTrip() {
        int w = SCHEMA.indexOf("w");
        int s = SCHEMA.indexOf("s");
        int chunks = 0;
        try (VortexFile file = VortexFile.open(path); Scan scan = file.scan()) {
            for (Chunk c : scan) {
                try (c) {
                    int first = (int) c.firstRow();
                    for (int k = 0; k < SCHEMA.size(); k++) {
                        int column = k;
                        Object[] export = NativeAccess.withHandle(c, h -> Native.exportColumn(h, column));
                        long[] header = (long[]) export[0];
                        String at = SCHEMA.field(k).name() + " in " + c;
                        assertEquals(at + " length", c.length(), header[1]);
                        Kind kind = SCHEMA.field(k).type().kind();
                        if (k == w || kind != Kind.UTF8 && kind != Kind.BINARY) {
                            assertEquals(at + " layout", k == w ? 1 : 0, header[0]);
                        }
                        assertEquals(at + " children", kind.isNested(), export[6] != null);
                        ByteBuffer validity = (ByteBuffer) export[1];
                        Array a = c.column(k);
                        for (int i = 0; i < c.length(); i++) {
                            Object want = values[k][first + i];
                            boolean valid = validity == null || (validity.get(i >> 3) >> (i & 7) & 1) == 1;
                            if (header[0] == 0 && valid != (want != null) || a.isNull(i) != (want == null)
                                    || !Objects.deepEquals(want, Values.valueAt(a, i))) {
                                fail(at + " row " + (first + i) + ": wrote " + show(want) + ", validity bit " + valid
                                        + ", read " + show(Values.valueAt(a, i)));
                            }
                        }
                    }
                    // The dictionary column: its id in the column's header and in the dictionary's own.
                    long[] header = (long[]) NativeAccess.withHandle(c, h -> Native.exportColumn(h, w))[0];
                    Object[] entries = NativeAccess.withHandle(c, h -> Native.exportDictionary(h, w));
                    assertEquals(header[3], ((long[]) entries[0])[3]);
                    assertTrue(Arrays.toString(header), header[2] == 1 || header[2] == 2 || header[2] == 4);
                    VarBinDictArray.Dictionary d = c.dictionary(w);
                    assertNotNull(d);
                    VarBinDictArray codes = (VarBinDictArray) c.column(w);
                    for (int i = 0; i < c.length(); i++) {
                        assertEquals(values[w][first + i], codes.isNull(i) ? null : d.value(codes.getCode(i)));
                    }
                    assertNull(c.dictionary(s));
                    assertNull(NativeAccess.withHandle(c, h -> Native.exportDictionary(h, s)));
                    chunks++;
                }
            }
        }
        assertTrue(chunks + " chunks", chunks > 2);
    }

    @Test
    public void chunkPositionsCoverTheRows() {
        try (VortexFile file = VortexFile.open(path); VortexDataset dataset = VortexDataset.open(path)) {
            assertTrue(positions(file.scan("id"), 0, rows) > 2);
            positions(file.scanRows(List.of("id"), null, 12_345, rows - 6_789, null, null), 12_345, rows - 6_789);
            List<Split> splits = dataset.splits(null, rows / 5);
            assertTrue(splits.toString(), splits.size() > 1);
            for (Split split : splits) {
                positions(dataset.scan(split, List.of("id"), null), split.firstRow(), split.endRow());
            }
        }
    }

    /** Checks that a scan's chunks are rows {@code [from, to)} in order (by the ids they hold); returns their number. */
    private static int positions(Scan scan, long from, long to) {
        int chunks = 0;
        long next = from;
        try (scan) {
            for (Chunk c : scan) {
                try (c) {
                    assertEquals("first row of " + c, next, c.firstRow());
                    assertTrue(c.toString(), c.length() > 0);
                    for (int i = 0; i < c.length(); i++) {
                        assertEquals(c.firstRow() + i, ((Int64Array) c.column(0)).getLong(i));
                    }
                    next += c.length();
                    chunks++;
                }
            }
        }
        assertEquals(to, next);
        return chunks;
    }

    /** Filters and the rows they select: native leaves, and a case-insensitive LIKE declined on non-ASCII chunks. */
    private static List<Object[]> filters() {
        Object[] s = column("s");
        Object[] w = column("w");
        Object[] i32 = column("i32");
        Object[] i64 = column("i64");
        return List.of(new Object[] {Predicate.eq("w", "Zürich"), (IntPredicate) r -> "Zürich".equals(w[r])},
                new Object[] {Predicate.between("id", 10_000L, 99_999L), (IntPredicate) r -> r >= 10_000 && r <= 99_999},
                new Object[] {Predicate.isNull("i64"), (IntPredicate) r -> i64[r] == null},
                new Object[] {Predicate.and(Predicate.in("w", "AAPL", "東京"), Predicate.gt("i32", 0L)),
                    (IntPredicate) r -> ("AAPL".equals(w[r]) || "東京".equals(w[r])) && i32[r] != null && (Integer) i32[r] > 0},
                new Object[] {Predicate.or(Predicate.lt("i64", 0L), Predicate.isNull("w")),
                    (IntPredicate) r -> i64[r] != null && (Long) i64[r] < 0 || w[r] == null},
                new Object[] {new Predicate.Like("s", "%Ü%", null, true, false),
                    (IntPredicate) r -> s[r] != null && ((String) s[r]).contains("ü")});
    }

    private static Object[] nativeFilter(Predicate filter) {
        return PreparedFilter.nativeEncoding(Schema.of(COUNTED.stream().map(SCHEMA::field).toArray(Field[]::new)), filter);
    }

    /**
     * Counts the rest of a scan with {@code countChunks}, two chunks a call, a declined chunk's rows
     * counted here from its position ({@code pending}: {@code out} holds a record already); returns
     * {rows, chunks, declined chunks}.
     */
    private static long[] drain(long scan, long filter, IntPredicate keep, long[] out, boolean pending) {
        long[] total = new long[3];
        for (int calls = 0; calls < 100_000; calls++) {
            total[0] += pending ? 0 : Native.countChunks(scan, filter, 2, out);
            pending = false;
            if (out[2] != 0) {
                Native.freeChunk(out[2]);
                total[0] += count(keep, out[4], out[4] + out[3]);
                total[2]++;
            }
            assertTrue(Arrays.toString(out), out[0] >= 0 && out[0] <= 2);
            total[1] += out[0] + (out[2] != 0 ? 1 : 0);
            if (out[1] == 1) {
                return total;
            }
        }
        throw new AssertionError("the scan did not end");
    }

    @Test
    public void countedChunksEqualJavaCounts() {
        long declined = 0;
        try (VortexFile file = VortexFile.open(path)) {
            int chunks = positions(file.scan(COUNTED), 0, rows);
            for (Object[] f : filters()) {
                Predicate filter = (Predicate) f[0];
                IntPredicate keep = (IntPredicate) f[1];
                long want = count(keep, 0, rows);
                try (Scan scan = file.scan(COUNTED)) {
                    assertEquals(filter + ": countRemaining", want, scan.countRemaining(filter));
                }
                Object[] enc = nativeFilter(filter);
                long[] got = NativeAccess.withHandle(file, h -> {
                    long scan = Native.openScanRows(h, COUNTED.toArray(new String[0]), null, 0, rows);
                    try {
                        long prepared = Native.prepareFilter(scan, (int[]) enc[0], (byte[][]) enc[1], (int[]) enc[2]);
                        try {
                            return drain(scan, prepared, keep, new long[5], false);
                        } finally {
                            Native.freeFilter(prepared);
                        }
                    } finally {
                        Native.freeScan(scan);
                    }
                });
                assertEquals(filter + ": countChunks", List.of(want, (long) chunks), List.of(got[0], got[1]));
                declined += got[2];
            }
        }
        assertTrue("some chunks declined", declined > 0);
    }

    @Test
    public void countedSplitsEqualJavaCounts() {
        try (VortexDataset dataset = VortexDataset.open(path); VortexFile file = VortexFile.open(path)) {
            List<Split> splits = dataset.splits(null, rows / 5);
            int n = splits.size();
            assertTrue(splits.toString(), n > 1);
            long[] planned = splits.stream().flatMapToLong(s -> Arrays.stream(new long[] {s.firstRow(), s.endRow(),
                    s.fileSize(), s.modifiedMillis()})).toArray();
            for (Object[] f : filters()) {
                Predicate filter = (Predicate) f[0];
                IntPredicate keep = (IntPredicate) f[1];
                long want = count(keep, 0, rows);
                assertEquals(filter + ": dataset", want, dataset.count(splits, COUNTED, filter));
                assertEquals(filter + ": files", want, VortexFile.countSplits(Collections.nCopies(n, file), splits, COUNTED, filter));
                Object[] enc = nativeFilter(filter);
                long got = NativeAccess.withHandle(file, h -> {
                    long[] files = new long[n];
                    Arrays.fill(files, h);
                    long[] counts = new long[n];
                    long[] out = new long[7];
                    long total = 0;
                    for (int from = 0; from < n; ) {
                        int stopped = Native.countSplits(files, planned, from, COUNTED.toArray(new String[0]), null,
                                (int[]) enc[0], (byte[][]) enc[1], (int[]) enc[2], 2, counts, out);
                        for (int i = from; i < stopped; i++) {
                            assertEquals(filter + ": split " + i, count(keep, planned[4 * i], planned[4 * i + 1]), counts[i]);
                        }
                        total += Arrays.stream(counts, from, stopped).sum();
                        if (stopped < n) { // a split with chunks left or a declined chunk: its scan and filter are ours
                            try {
                                long rest = counts[stopped] + drain(out[5], out[6], keep, out, true)[0];
                                assertEquals(filter + ": split " + stopped,
                                        count(keep, planned[4 * stopped], planned[4 * stopped + 1]), rest);
                                total += rest;
                            } finally {
                                Native.freeScan(out[5]);
                                Native.freeFilter(out[6]);
                            }
                        }
                        from = stopped + 1;
                    }
                    return total;
                });
                assertEquals(filter + ": countSplits", want, got);
            }
        }
    }

    private static final List<Aggregate> AGGS = List.of(Aggregate.countStar(), Aggregate.of(Function.COUNT, "i64"),
            Aggregate.of(Function.SUM, "i64"), Aggregate.of(Function.MIN, "i64"), Aggregate.of(Function.MAX, "i64"),
            Aggregate.of(Function.MIN, "f64"), Aggregate.of(Function.MAX, "f64"));

    /** The values of columns {@code keys} in row {@code r}. */
    private static List<Object> key(List<String> keys, int r) {
        return keys.stream().map(k -> column(k)[r]).toList();
    }

    /** {@link #AGGS} of the rows {@code rs}, computed here. */
    private static List<Object> aggregates(List<Integer> rs) {
        List<Long> v = rs.stream().map(r -> (Long) column("i64")[r]).filter(Objects::nonNull).toList();
        List<Double> d = rs.stream().map(r -> (Double) column("f64")[r]).filter(Objects::nonNull).toList();
        return Arrays.asList((long) rs.size(), (long) v.size(), v.isEmpty() ? null : v.stream().mapToLong(x -> x).sum(),
                v.isEmpty() ? null : Collections.min(v), v.isEmpty() ? null : Collections.max(v),
                d.isEmpty() ? null : Collections.min(d), d.isEmpty() ? null : Collections.max(d));
    }

    @Test
    public void aggregatePartialsEqualJavaAggregation() {
        Object[] i64 = column("i64");
        List<Object[]> filters = List.of(new Object[] {null, (IntPredicate) r -> true}, filters().get(2),
                new Object[] {Predicate.gt("i64", 0L), (IntPredicate) r -> i64[r] != null && (Long) i64[r] > 0});
        try (VortexFile file = VortexFile.open(path)) {
            for (List<String> keys : List.of(List.<String>of(), List.of("w"), List.of("w", "i32"))) {
                for (Object[] f : filters) {
                    Map<List<Object>, List<Object>> want = IntStream.range(0, rows).filter((IntPredicate) f[1]).boxed()
                            .collect(Collectors.groupingBy(r -> key(keys, r), Collectors.collectingAndThen(Collectors.toList(),
                                    JniRecordsTest::aggregates)));
                    GroupAggregate.Result got = GroupAggregate.runGrouped(file, keys, (Predicate) f[0], AGGS);
                    Map<List<Object>, List<Object>> have = new HashMap<>();
                    for (int g = 0; g < got.size(); g++) {
                        int group = g;
                        have.put(IntStream.range(0, got.width()).mapToObj(k -> got.key(group, k)).toList(),
                                IntStream.range(0, AGGS.size()).mapToObj(a -> got.value(group, a)).toList());
                    }
                    assertEquals(keys + " where " + f[0], want, have);
                }
            }
            // The partials as they cross: rows per group by a dictionary, and by it and an integer column.
            try (Scan scan = file.scan("w", "i32")) {
                for (Chunk c : scan) {
                    try (c) {
                        for (List<String> keys : List.of(List.of("w"), List.of("w", "i32"))) {
                            Map<List<Object>, Long> want = IntStream.range(0, c.length())
                                    .mapToObj(i -> key(keys, (int) c.firstRow() + i))
                                    .collect(Collectors.groupingBy(k -> k, Collectors.counting()));
                            assertEquals(keys + " in " + c, want, nativeGroupRows(c, keys.size()));
                        }
                    }
                }
            }
        }
    }

    /** {@code aggregateChunk} of COUNT(*) by the chunk's first {@code keys} columns, its groups decoded here. */
    private static Map<List<Object>, Long> nativeGroupRows(Chunk c, int keys) {
        int[] columns = keys == 1 ? new int[] {0} : new int[] {0, 1};
        Object[] r = NativeAccess.withHandle(c, h -> Native.aggregateChunk(h, columns, null, new int[] {0}, new int[] {-1}, null));
        assertNotNull("the kernel takes " + c, r);
        int groups = (int) ((long[]) r[0])[0];
        long[] perGroup = (long[]) r[1];
        VarBinDictArray.Dictionary d = c.dictionary(0);
        Map<List<Object>, Long> out = new HashMap<>();
        for (int g = 0; g < groups; g++) {
            List<Object> key;
            if (keys == 1) { // group g is code g, the last one the null key
                key = Collections.singletonList(g == groups - 1 ? null : d.value(g));
            } else { // no composite codes; after the aggregate, each key's value and null bitmap per group
                assertEquals(0, ((long[]) r[2]).length);
                boolean null0 = (((long[]) r[6])[g / 64] >>> g & 1) == 1;
                boolean null1 = (((long[]) r[8])[g / 64] >>> g & 1) == 1;
                key = Arrays.asList(null0 ? null : d.value((int) ((long[]) r[5])[g]), null1 ? null : (int) ((long[]) r[7])[g]);
            }
            if (perGroup[g] > 0) {
                out.merge(key, perGroup[g], Long::sum);
            }
        }
        return out;
    }

    @Test
    public void writtenBatchesReadBack() throws IOException {
        for (int c = 1; c < SCHEMA.size(); c++) {
            List<Object> v = Arrays.asList(values[c]);
            assertTrue(SCHEMA.field(c) + " has nulls and values", v.contains(null) && v.stream().anyMatch(Objects::nonNull));
        }
        Path p = Fixtures.tempDir().resolve("batches.vortex");
        int[] batches = {1, 0, 9_999, 20_000, 3};
        long size = write(p, batches);
        assertEquals(Files.size(p), size);
        try (VortexFile file = VortexFile.open(p); Scan scan = file.scan()) {
            assertEquals(SCHEMA, file.schema());
            assertEquals(Arrays.stream(batches).sum(), file.rowCount());
            long seen = 0;
            for (Chunk c : scan) {
                try (c) {
                    for (int k = 0; k < SCHEMA.size(); k++) {
                        for (int i = 0; i < c.length(); i++) {
                            int row = (int) c.firstRow() + i;
                            if (!Objects.deepEquals(values[k][row], Values.valueAt(c.column(k), i))) {
                                assertValue(SCHEMA.field(k) + " row " + row, values[k][row], Values.valueAt(c.column(k), i));
                            }
                        }
                    }
                    seen += c.length();
                }
            }
            assertEquals(file.rowCount(), seen);
        }
    }

    @Test
    public void conversionReportsItsRows() throws IOException {
        Path dir = Fixtures.tempDir();
        Path csv = dir.resolve("in.csv");
        Random r = new Random(11);
        StringBuilder text = new StringBuilder("id,s,v\n");
        int good = 5_000;
        int bad = 0;
        for (int i = 0; i < good; i++) {
            if (i % 997 == 5) {
                text.append(i).append(",ragged\n"); // two fields of three: a bad record
                bad++;
            }
            text.append(i).append(',').append(WORDS[r.nextInt(WORDS.length)]).append(',').append(r.nextInt(1_000) / 4.0).append('\n');
        }
        Files.writeString(csv, text, StandardCharsets.UTF_8);
        ConvertOptions options = ConvertOptions.defaults().schema("id:int64,s:utf8,v:float64").skipBadRows(true)
                .maxRowsPerFile(2_000).batchRows(500);
        List<Converter.Progress> progress = new ArrayList<>();
        Converter.Summary summary = Converter.convert(List.of(csv), dir.resolve("out"), options, progress::add);
        assertTrue(progress.toString(), progress.size() > 2);
        for (int i = 1; i < progress.size(); i++) {
            assertTrue(progress.toString(), progress.get(i - 1).rows() <= progress.get(i).rows()
                    && progress.get(i).bytesDone() <= progress.get(i).bytesTotal());
        }
        Converter.Progress last = progress.get(progress.size() - 1);
        assertEquals(List.of((long) good, (long) bad, Files.size(csv), Files.size(csv)),
                List.of(last.rows(), last.badRows(), last.bytesDone(), last.bytesTotal()));
        assertEquals(List.of((long) good, (long) bad), List.of(summary.rows(), summary.badRows()));
        long written = 0;
        for (Converter.WrittenFile wf : summary.files()) {
            assertEquals(Files.size(Path.of(wf.location())), wf.bytes());
            try (VortexFile file = VortexFile.open(Path.of(wf.location()))) {
                assertEquals(wf.rows(), file.rowCount());
                assertTrue(wf.toString(), wf.rows() <= 2_000);
                written += file.rowCount();
            }
        }
        assertTrue(summary.files().toString(), summary.files().size() >= 3);
        assertEquals(good, written);
    }
}
