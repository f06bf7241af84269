package io.vortex4j.arrow;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryEncoder;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.util.Text;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Vortex ↔ Arrow Java through the C Data Interface. Values are compared with those written
 * (every supported type, nulls, three chunks); dictionaries with their encoding and sharing;
 * memory with Arrow's allocator, which must account nothing after close.
 */
public class ArrowInteropTest {
    private static final int BATCHES = 3;
    private static final int ROWS = 5_000;
    private static final String[] SYMS = {"AAPL", "MSFT", "IBM", "Zürich", "", "東京"};

    private static final Schema TYPES = Schema.of(
            new Field("b", DataType.BOOL, true),
            new Field("i8", DataType.INT8, true),
            new Field("i16", DataType.INT16, true),
            new Field("i32", DataType.INT32, false),
            new Field("i64", DataType.INT64, true),
            new Field("u8", DataType.UINT8, true),
            new Field("u16", DataType.UINT16, true),
            new Field("u32", DataType.UINT32, true),
            new Field("u64", DataType.UINT64, true),
            new Field("f32", DataType.FLOAT32, true),
            new Field("f64", DataType.FLOAT64, true),
            new Field("sym", DataType.UTF8, true),
            new Field("text", DataType.UTF8, true),
            new Field("bin", DataType.BINARY, true),
            new Field("dec", DataType.decimal(18, 3), true),
            new Field("day", DataType.DATE, true),
            new Field("tod", DataType.time(DataType.TimeUnit.MICROSECONDS), true),
            new Field("ts", DataType.timestamp(DataType.TimeUnit.MICROSECONDS, null), true),
            new Field("tz", DataType.timestamp(DataType.TimeUnit.MILLISECONDS, "UTC"), true),
            new Field("nothing", DataType.NULL, true));

    private static Path dir;
    private static Path file;
    /** Every written row, values as {@link Values#valueAt} gives them. */
    private static final List<Object[]> written = new ArrayList<>();

    @BeforeClass
    public static void write() throws Exception {
        dir = Files.createTempDirectory("vortex4j-arrow");
        file = dir.resolve("types.vortex");
        SplittableRandom r = new SplittableRandom(7);
        try (VortexWriter w = VortexWriter.create(file, TYPES)) {
            for (int batch = 0; batch < BATCHES; batch++) {
                Object[][] cols = new Object[TYPES.size()][ROWS];
                boolean[] b = new boolean[ROWS];
                byte[] i8 = new byte[ROWS];
                short[] i16 = new short[ROWS];
                int[] i32 = new int[ROWS];
                long[] i64 = new long[ROWS];
                byte[] u8 = new byte[ROWS];
                short[] u16 = new short[ROWS];
                int[] u32 = new int[ROWS];
                long[] u64 = new long[ROWS];
                float[] f32 = new float[ROWS];
                double[] f64 = new double[ROWS];
                String[] sym = new String[ROWS];
                String[] text = new String[ROWS];
                byte[][] bin = new byte[ROWS][];
                BigDecimal[] dec = new BigDecimal[ROWS];
                LocalDate[] day = new LocalDate[ROWS];
                long[] tod = new long[ROWS];
                long[] ts = new long[ROWS];
                long[] tz = new long[ROWS];
                boolean[][] valid = new boolean[TYPES.size()][ROWS];
                for (int i = 0; i < ROWS; i++) {
                    long x = r.nextLong();
                    for (int c = 0; c < TYPES.size(); c++) {
                        valid[c][i] = !TYPES.field(c).nullable() || r.nextInt(9) != 0;
                    }
                    b[i] = (x & 1) == 0;
                    i8[i] = (byte) x;
                    i16[i] = (short) x;
                    i32[i] = (int) x;
                    i64[i] = x;
                    u8[i] = (byte) (x >> 8);
                    u16[i] = (short) (x >> 16);
                    u32[i] = (int) (x >> 24);
                    u64[i] = x * 31;
                    f32[i] = (float) (x % 100_000) / 16f;
                    f64[i] = (double) (x % 10_000_000) / 1024.0;
                    sym[i] = valid[11][i] ? SYMS[r.nextInt(SYMS.length)] : null;
                    text[i] = valid[12][i] ? "t" + Long.toHexString(x) + (i % 3 == 0 ? "é" : "") : null;
                    bin[i] = valid[13][i] ? new byte[] {(byte) x, (byte) (x >> 8), 0, -1} : null;
                    dec[i] = valid[14][i] ? BigDecimal.valueOf(x % 1_000_000_000_000L, 3) : null;
                    day[i] = valid[15][i] ? LocalDate.ofEpochDay(Math.floorMod(x, 50_000) - 10_000) : null;
                    tod[i] = Math.floorMod(x, 86_400_000_000L);
                    ts[i] = x >> 10;
                    tz[i] = x >> 20;
                }
                Batch batchData = new Batch(TYPES, ROWS)
                        .set("b", b, valid[0]).set("i8", i8, valid[1]).set("i16", i16, valid[2]).set("i32", i32, valid[3])
                        .set("i64", i64, valid[4]).set("u8", u8, valid[5]).set("u16", u16, valid[6]).set("u32", u32, valid[7])
                        .set("u64", u64, valid[8]).set("f32", f32, valid[9]).set("f64", f64, valid[10]).set("sym", sym)
                        .set("text", text).set("bin", bin).set("dec", dec).set("day", day)
                        .set("tod", tod, valid[16]).set("ts", ts, valid[17]).set("tz", tz, valid[18])
                        .set("nothing", null);
                w.write(batchData);
            }
            w.finish();
        }
        // The expected values, read back by the reader's own (non-Arrow) path.
        try (VortexFile f = VortexFile.open(file); Scan scan = f.scan()) {
            for (Chunk chunk : scan) {
                try (chunk) {
                    for (int row = 0; row < chunk.length(); row++) {
                        Object[] values = new Object[TYPES.size()];
                        for (int c = 0; c < values.length; c++) {
                            values[c] = Values.valueAt(chunk.column(c), row);
                        }
                        written.add(values);
                    }
                }
            }
        }
        assertEquals(BATCHES * ROWS, written.size());
    }

    @AfterClass
    public static void cleanUp() throws Exception {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir.resolve("from-arrow.vortex"));
        Files.deleteIfExists(dir);
    }

    /** An Arrow value as {@link Values#valueAt} gives the same value. */
    private static Object fromArrow(FieldVector v, int row, DataType type) {
        if (v.isNull(row)) {
            return null;
        }
        Object o = v.getObject(row);
        switch (type.kind()) {
            case UINT8: return Byte.toUnsignedInt((Byte) o);
            case UINT16: return (int) (Character) o;
            case UINT32: return Integer.toUnsignedLong((Integer) o);
            case UINT64: return new BigInteger(Long.toUnsignedString((Long) o));
            case UTF8: return o.toString();
            case DATE: return LocalDate.ofEpochDay((Integer) o);
            case TIME: return java.time.LocalTime.ofNanoOfDay(((Long) o) * 1000);
            case TIMESTAMP:
                if (type.timezone() == null) {
                    return o; // LocalDateTime
                }
                return Instant.ofEpochMilli(((org.apache.arrow.vector.TimeStampMilliTZVector) v).get(row));
            default: return o;
        }
    }

    private static void assertSameValue(String what, Object expected, Object actual) {
        if (expected instanceof byte[] e) {
            assertArrayEquals(what, e, (byte[]) actual);
        } else if (expected instanceof BigDecimal e) {
            assertEquals(what, 0, e.compareTo((BigDecimal) actual));
        } else if (expected instanceof BigInteger e) {
            assertEquals(what, e, actual);
        } else if (expected instanceof java.time.LocalTime e && actual instanceof java.time.LocalTime a) {
            assertEquals(what, e, a);
        } else if (expected instanceof LocalDateTime e && actual instanceof LocalDateTime a) {
            assertEquals(what, e, a);
        } else {
            assertEquals(what, expected, actual);
        }
    }

    @Test
    public void everyTypeThroughArrowReaderWithDictionariesSharedAndNoLeak() throws Exception {
        try (BufferAllocator allocator = new RootAllocator()) {
            try (VortexFile f = VortexFile.open(file);
                 VortexArrowReader reader = VortexArrowReader.open(f, List.of(), null, allocator)) {
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                org.apache.arrow.vector.types.pojo.Field sym = root.getSchema().findField("sym");
                DictionaryEncoding encoding = sym.getDictionary();
                assertNotNull("sym is dictionary-encoded: " + sym, encoding);
                assertEquals(new ArrowType.Int(32, true), encoding.getIndexType());
                int row = 0;
                long dictionaryAddress = -1;
                int batches = 0;
                while (reader.loadNextBatch()) {
                    batches++;
                    Dictionary dictionary = reader.lookup(encoding.getId());
                    VarCharVector values = (VarCharVector) dictionary.getVector();
                    // The reference writer shares one dictionary across chunks: loaded once.
                    long address = values.getDataBuffer().memoryAddress();
                    if (dictionaryAddress != -1) {
                        assertEquals("the dictionary is not reloaded", dictionaryAddress, address);
                    }
                    dictionaryAddress = address;
                    List<FieldVector> columns = new ArrayList<>();
                    try {
                        for (int c = 0; c < TYPES.size(); c++) {
                            FieldVector v = root.getVector(c);
                            DictionaryEncoding e = v.getField().getDictionary();
                            columns.add(e == null ? v : (FieldVector) DictionaryEncoder.decode(v, reader.lookup(e.getId())));
                        }
                        for (int i = 0; i < root.getRowCount(); i++, row++) {
                            Object[] expected = written.get(row);
                            for (int c = 0; c < TYPES.size(); c++) {
                                assertSameValue(TYPES.field(c).name() + " row " + row, expected[c],
                                        fromArrow(columns.get(c), i, TYPES.field(c).type()));
                            }
                        }
                    } finally {
                        for (int c = 0; c < columns.size(); c++) {
                            if (columns.get(c) != root.getVector(c)) {
                                columns.get(c).close();
                            }
                        }
                    }
                }
                assertEquals(written.size(), row);
                assertTrue(batches >= 1);
                assertTrue(allocator.getAllocatedMemory() > 0);
            }
            assertEquals("Arrow memory after close", 0, allocator.getAllocatedMemory());
        }
    }

    @Test
    public void aFilterKeepsTheReadersSelection() throws Exception {
        Predicate filter = Predicate.and(Predicate.in("sym", "IBM", "東京"), Predicate.gt("i64", 0L));
        List<Object[]> expected = new ArrayList<>();
        for (Object[] row : written) {
            if (row[11] != null && (row[11].equals("IBM") || row[11].equals("東京")) && row[4] != null && (Long) row[4] > 0) {
                expected.add(row);
            }
        }
        assertTrue(expected.size() > 100);
        try (BufferAllocator allocator = new RootAllocator()) {
            try (VortexFile f = VortexFile.open(file);
                 VortexArrowReader reader = VortexArrowReader.open(f, List.of("i64", "sym"), filter, allocator)) {
                int n = 0;
                while (reader.loadNextBatch()) {
                    VectorSchemaRoot root = reader.getVectorSchemaRoot();
                    Dictionary d = reader.lookup(root.getSchema().findField("sym").getDictionary().getId());
                    try (FieldVector sym = (FieldVector) DictionaryEncoder.decode(root.getVector("sym"), d)) {
                        for (int i = 0; i < root.getRowCount(); i++, n++) {
                            assertEquals(expected.get(n)[4], ((BigIntVector) root.getVector("i64")).getObject(i));
                            assertEquals(expected.get(n)[11], sym.getObject(i).toString());
                        }
                    }
                }
                assertEquals(expected.size(), n);
            }
            assertEquals(0, allocator.getAllocatedMemory());
        }
    }

    @Test
    public void arrowBatchesWrittenIntoAVortexFile() throws Exception {
        Path out = dir.resolve("from-arrow.vortex");
        List<Object[]> rows = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            DictionaryEncoding enc = new DictionaryEncoding(1, false, new ArrowType.Int(32, true));
            try (VarCharVector dictValues = new VarCharVector("dict", allocator)) {
                dictValues.allocateNew();
                String[] words = {"red", "grün", ""};
                for (int i = 0; i < words.length; i++) {
                    dictValues.setSafe(i, words[i].getBytes(StandardCharsets.UTF_8));
                }
                dictValues.setValueCount(words.length);
                DictionaryProvider.MapDictionaryProvider provider = new DictionaryProvider.MapDictionaryProvider();
                provider.put(new Dictionary(dictValues, enc));
                org.apache.arrow.vector.types.pojo.Schema schema = new org.apache.arrow.vector.types.pojo.Schema(List.of(
                        org.apache.arrow.vector.types.pojo.Field.nullable("id", new ArrowType.Int(32, true)),
                        org.apache.arrow.vector.types.pojo.Field.nullable("x", new ArrowType.FloatingPoint(
                                org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE)),
                        org.apache.arrow.vector.types.pojo.Field.nullable("name", ArrowType.Utf8.INSTANCE),
                        new org.apache.arrow.vector.types.pojo.Field("colour",
                                new FieldType(true, new ArrowType.Int(32, true), enc), null)));
                try (VortexArrowWriter w = VortexArrowWriter.create(out, schema, allocator, provider);
                     VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
                    int id = 0;
                    for (int batch = 0; batch < 3; batch++) {
                        root.allocateNew();
                        int n = 1000 + batch;
                        for (int i = 0; i < n; i++, id++) {
                            boolean nulls = id % 13 == 0;
                            ((IntVector) root.getVector("id")).setSafe(i, id);
                            if (nulls) {
                                ((Float8Vector) root.getVector("x")).setNull(i);
                                ((VarCharVector) root.getVector("name")).setNull(i);
                                ((IntVector) root.getVector("colour")).setNull(i);
                            } else {
                                ((Float8Vector) root.getVector("x")).setSafe(i, id / 3.0);
                                ((VarCharVector) root.getVector("name")).setSafe(i, new Text("n" + id + "ü"));
                                ((IntVector) root.getVector("colour")).setSafe(i, id % 3);
                            }
                            rows.add(new Object[] {id, nulls ? null : id / 3.0, nulls ? null : "n" + id + "ü",
                                nulls ? null : words[id % 3]});
                        }
                        root.setRowCount(n);
                        w.write(root);
                    }
                    assertTrue(w.finish() > 0);
                }
            }
            assertEquals("Arrow memory after the write", 0, allocator.getAllocatedMemory());
        }
        // Read back with the reader (no Arrow involved).
        try (VortexFile f = VortexFile.open(out); Scan scan = f.scan()) {
            assertEquals(DataType.UTF8, f.schema().field("colour").type());
            int row = 0;
            for (Chunk chunk : scan) {
                try (chunk) {
                    for (int i = 0; i < chunk.length(); i++, row++) {
                        for (int c = 0; c < 4; c++) {
                            assertEquals("row " + row + " column " + c, rows.get(row)[c], Values.valueAt(chunk.column(c), i));
                        }
                    }
                }
            }
            assertEquals(rows.size(), row);
        }
    }

    @Test
    public void anEmptyFileHasTheSchemaAndNoBatch() throws Exception {
        Path empty = dir.resolve("empty.vortex");
        try (VortexWriter w = VortexWriter.create(empty, TYPES)) {
            w.finish();
        }
        try (BufferAllocator allocator = new RootAllocator();
             VortexFile f = VortexFile.open(empty);
             VortexArrowReader reader = VortexArrowReader.open(f, List.of(), null, allocator)) {
            assertEquals(TYPES.size(), reader.getVectorSchemaRoot().getSchema().getFields().size());
            assertNull(reader.getVectorSchemaRoot().getSchema().findField("sym").getDictionary());
            assertTrue(!reader.loadNextBatch());
        } finally {
            Files.deleteIfExists(empty);
        }
        assertNotEquals(0, written.size());
    }
}
