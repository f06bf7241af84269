package io.vortex4j.reader.predicate;

import static io.vortex4j.reader.predicate.Predicate.and;
import static io.vortex4j.reader.predicate.Predicate.between;
import static io.vortex4j.reader.predicate.Predicate.eq;
import static io.vortex4j.reader.predicate.Predicate.ge;
import static io.vortex4j.reader.predicate.Predicate.gt;
import static io.vortex4j.reader.predicate.Predicate.in;
import static io.vortex4j.reader.predicate.Predicate.isNotNull;
import static io.vortex4j.reader.predicate.Predicate.isNull;
import static io.vortex4j.reader.predicate.Predicate.le;
import static io.vortex4j.reader.predicate.Predicate.lt;
import static io.vortex4j.reader.predicate.Predicate.ne;
import static io.vortex4j.reader.predicate.Predicate.not;
import static io.vortex4j.reader.predicate.Predicate.notIn;
import static io.vortex4j.reader.predicate.Predicate.or;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.NativeAccess;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Binary;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.compute.PredicateEvaluator;
import io.vortex4j.reader.oracle.ReferenceScan;
import io.vortex4j.reader.oracle.Sql3;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The predicate wire encoding (Java encode/decode), {@link Predicate#normalize()}, and that the
 * Rust side decodes and applies what Java encodes: vortex's own filtered scan ({@link
 * ReferenceScan#selectedRows}) must select exactly the rows the tests' own three-valued
 * evaluation ({@link Sql3}) selects.
 */
public class PredicateCodecTest {
    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final BigInteger TWO_63 = BigInteger.ONE.shiftLeft(63);

    // ---- the encoding

    /** Every node kind and every literal kind, nested. */
    static Predicate rich() {
        return or(
                and(
                        ge("sym", "Zürich"),
                        between("price", 1.5, -3L),
                        eq("flag", true),
                        ne("flag", false),
                        lt("e", ""),
                        le("tokyo", "東京🎉")),
                in("sym", null, "a", new byte[] {0, (byte) 0xFF, 7}, U64_MAX, Long.MIN_VALUE),
                notIn("v", 1, 2L, (short) 3, (byte) 4, 2.5f, Double.NaN, -0.0),
                notIn("empty"),
                in("empty"),
                not(isNull("v")),
                isNotNull("w"),
                gt("d", new BigDecimal("-12345.678")),
                eq("d", new BigDecimal("1E+5")),
                eq("u", TWO_63),
                eq("u", BigInteger.valueOf(-5)),
                eq("n", null),
                between("n", null, null),
                and(),
                or(),
                not(not(and(or(eq("x", 'c')), not(in("x", Collections.emptyList()))))),
                new Predicate.Like("s", "a!%_東%", '!', false, true),
                new Predicate.Like("s", "\\%ü", null, true, false),
                not(Predicate.like("s", "")));
    }

    @Test
    public void richPredicateRoundTrips() {
        Predicate p = rich();
        byte[] bytes = PredicateCodec.encode(p);
        Predicate back = PredicateCodec.decode(bytes);
        assertEquals(p, back);
        assertEquals(p.toString(), back.toString());
        assertArrayEquals(bytes, PredicateCodec.encode(back));
    }

    @Test
    public void literalsAreNormalizedAndKeepTheirValue() {
        Predicate.In in = (Predicate.In) ((Predicate.Or) PredicateCodec.decode(PredicateCodec.encode(rich())))
                .children().get(2);
        List<Object> v = in.values();
        assertEquals(Arrays.asList(1L, 2L, 3L, 4L, 2.5, Double.NaN, -0.0), v);
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits((Double) v.get(6)));

        Predicate.In first = (Predicate.In) ((Predicate.Or) PredicateCodec.decode(PredicateCodec.encode(rich())))
                .children().get(1);
        assertEquals(null, first.values().get(0));
        assertEquals("a", first.values().get(1));
        assertEquals(new Binary(new byte[] {0, (byte) 0xFF, 7}), first.values().get(2));
        assertEquals(U64_MAX, first.values().get(3));
        assertEquals(Long.MIN_VALUE, first.values().get(4));

        // BigInteger that fits a long becomes a Long; above Long.MAX_VALUE it stays exact.
        assertEquals(-5L, ((Predicate.Compare) eq("u", BigInteger.valueOf(-5))).value());
        assertEquals(TWO_63, ((Predicate.Compare) decode(eq("u", TWO_63))).value());
        // A negative decimal keeps its scale.
        BigDecimal d = (BigDecimal) ((Predicate.Compare) decode(gt("d", new BigDecimal("-12345.678")))).value();
        assertEquals(3, d.scale());
        assertEquals(new BigInteger("-12345678"), d.unscaledValue());
        BigDecimal big = (BigDecimal) ((Predicate.Compare) decode(eq("d", new BigDecimal("1E+5")))).value();
        assertEquals(-5, big.scale());
        assertEquals(0, big.compareTo(new BigDecimal(100_000)));
        BigDecimal huge = new BigDecimal(BigInteger.ONE.shiftLeft(126).negate(), 20);
        assertEquals(huge, ((Predicate.Compare) decode(eq("d", huge))).value());
        // Non-ASCII and 4-byte UTF-8 column names and strings survive.
        assertEquals("東京🎉", ((Predicate.Compare) decode(le("列🎉", "東京🎉"))).value());
        assertEquals("列🎉", ((Predicate.Compare) decode(le("列🎉", "東京🎉"))).column());
    }

    private static Predicate decode(Predicate p) {
        return PredicateCodec.decode(PredicateCodec.encode(p));
    }

    /** The byte layout of docs/predicate-encoding.md, written out by hand. */
    @Test
    public void encodingMatchesTheDocumentedLayout() {
        assertArrayEquals(new byte[] {
            1, // version
            1, 0, 1, 0, 0, 0, 'a', // COMPARE EQ "a"
            2, 1, 0, 0, 0, 0, 0, 0, 0, // I64 1
        }, PredicateCodec.encode(eq("a", 1)));
        assertArrayEquals(new byte[] {
            1,
            9, // NOT
            8, 2, 0, 0, 0, // OR of 2
            5, 1, 0, 0, 0, 'b', // IS_NULL "b"
            3, 1, 0, 0, 0, 'c', 3, 0, 0, 0, // IN "c", 3 literals
            0, // NULL
            1, 1, // BOOL true
            4, 2, 0, 0, 0, (byte) 0xC3, (byte) 0xBC, // UTF8 "ü"
        }, PredicateCodec.encode(not(or(isNull("b"), in("c", null, true, "ü")))));
        byte[] dec = PredicateCodec.encode(lt("d", new BigDecimal("-1.5")));
        // ... 6 DECIMAL, scale 1 (i32), unscaled -15 as i128 little-endian.
        byte[] tail = Arrays.copyOfRange(dec, dec.length - 21, dec.length);
        byte[] want = new byte[21];
        want[0] = 6;
        want[1] = 1;
        want[5] = (byte) -15;
        Arrays.fill(want, 6, 21, (byte) 0xFF);
        assertArrayEquals(want, tail);
        byte[] u64 = PredicateCodec.encode(eq("u", U64_MAX));
        byte[] u64tail = Arrays.copyOfRange(u64, u64.length - 9, u64.length);
        assertArrayEquals(new byte[] {7, -1, -1, -1, -1, -1, -1, -1, -1}, u64tail);
        byte[] notIn = PredicateCodec.encode(notIn("z"));
        assertArrayEquals(new byte[] {1, 4, 1, 0, 0, 0, 'z', 0, 0, 0, 0}, notIn);
        assertArrayEquals(new byte[] {
            1,
            10, 3, // LIKE, flags: negated | case-insensitive
            1, 0, 0, 0, 's', // column
            3, 0, 0, 0, 'a', '!', '%', // pattern
            1, 0, 0, 0, '!', // escape
        }, PredicateCodec.encode(new Predicate.Like("s", "a!%", '!', true, true)));
        assertArrayEquals(new byte[] {1, 10, 0, 1, 0, 0, 0, 's', 1, 0, 0, 0, '%', 0, 0, 0, 0},
                PredicateCodec.encode(Predicate.like("s", "%")));
        byte[] f = PredicateCodec.encode(eq("f", 1.0));
        assertArrayEquals(new byte[] {3, 0, 0, 0, 0, 0, 0, (byte) 0xF0, 0x3F},
                Arrays.copyOfRange(f, f.length - 9, f.length));
    }

    @Test
    public void literalsThatCannotCrossAreRejected() {
        for (Object bad : new Object[] {
            BigInteger.ONE.shiftLeft(64), BigInteger.ONE.shiftLeft(64).negate(),
            new BigDecimal(BigInteger.ONE.shiftLeft(127), 2), LocalDate.of(2024, 1, 1),
        }) {
            try {
                PredicateCodec.encode(eq("x", bad));
                fail("encoded " + bad);
            } catch (IllegalArgumentException expected) {
                assertTrue(expected.getMessage(), expected.getMessage().contains(String.valueOf(bad)));
            }
        }
        // Unpaired surrogates have no UTF-8 form: such strings are evaluated in Java.
        for (Predicate bad : List.of(eq("x", "a\uD800"), in("x", "ok", "\uDC00b"), Predicate.like("x", "%\uD83D"),
                new Predicate.Like("x", "a", '\uDFFF', false, false))) {
            try {
                PredicateCodec.encode(bad);
                fail("encoded " + bad);
            } catch (IllegalArgumentException expected) {
                assertTrue(expected.getMessage(), expected.getMessage().contains("surrogate"));
            }
        }
        PredicateCodec.encode(eq("x", "paired 🎉"));
        try {
            PredicateCodec.encode(new Predicate.Computed("x", "f(x)", v -> true, false));
            fail("encoded a Java function");
        } catch (IllegalArgumentException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains("Java"));
        }
        try {
            eq("x", new Object());
            fail("accepted an Object literal");
        } catch (IllegalArgumentException expected) {
            // ok
        }
    }

    @Test
    public void malformedEncodingsAreRejected() {
        byte[] good = PredicateCodec.encode(rich());
        for (int n = 1; n < good.length; n += 7) {
            byte[] prefix = Arrays.copyOf(good, n);
            try {
                PredicateCodec.decode(prefix);
                fail("decoded a prefix of " + n + " bytes");
            } catch (RuntimeException expected) {
                // BufferUnderflowException or IllegalArgumentException
            }
        }
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        try {
            PredicateCodec.decode(longer);
            fail("decoded trailing bytes");
        } catch (IllegalArgumentException expected) {
            assertTrue(expected.getMessage().contains("trailing"));
        }
        byte[] version2 = good.clone();
        version2[0] = 2;
        try {
            PredicateCodec.decode(version2);
            fail("decoded version 2");
        } catch (IllegalArgumentException expected) {
            assertTrue(expected.getMessage().contains("version"));
        }
    }

    /** The Rust decoder rejects bad bytes with an exception, not a crash. */
    @Test
    public void nativeDecoderRejectsMalformedBytes() {
        Path p = smallFile();
        try (VortexFile file = VortexFile.open(p)) {
            NativeAccess.withHandle(file, h -> {
                byte[] good = PredicateCodec.encode(and(eq("i", 1), in("s", "a", null),
                        new Predicate.Like("s", "x!%", '!', true, true)));
                for (int n = 0; n < good.length; n++) {
                    try {
                        io.vortex4j.reader.internal.Native.filteredScanRows(h, Arrays.copyOf(good, n));
                        fail("native decoded a prefix of " + n + " bytes");
                    } catch (VortexException expected) {
                        // ok
                    }
                }
                byte[] badTag = {1, 42};
                try {
                    io.vortex4j.reader.internal.Native.filteredScanRows(h, badTag);
                    fail("native decoded tag 42");
                } catch (VortexException expected) {
                    assertTrue(expected.getMessage(), expected.getMessage().contains("42"));
                }
                return null;
            });
        }
    }

    // ---- normalize

    @Test
    public void normalizePushesNotToTheLeaves() {
        assertEquals(or(ge("a", 1), or(lt("b", 1), gt("b", 2))),
                not(and(lt("a", 1), between("b", 1, 2))).normalize());
        assertEquals(and(ne("a", 1), isNotNull("b"), notIn("c", 1, 2), in("d", 3)),
                not(or(eq("a", 1), isNull("b"), in("c", 1, 2), notIn("d", 3))).normalize());
        assertEquals(and(ne("x", 1), isNull("y")), and(not(eq("x", 1)), isNull("y")).normalize());
        assertEquals(eq("x", 1), not(not(eq("x", 1))).normalize());
        assertEquals(or(), not(and()).normalize());
        assertEquals(and(), not(or()).normalize());
        Predicate leaf = between("b", null, 5);
        assertEquals(leaf, leaf.normalize());
        assertEquals(or(lt("b", null), gt("b", 5)), not(leaf).normalize());
        // Each operator's negation: the complement on non-null rows.
        Predicate.Op[][] table = {
            {Predicate.Op.EQ, Predicate.Op.NE}, {Predicate.Op.NE, Predicate.Op.EQ},
            {Predicate.Op.LT, Predicate.Op.GE}, {Predicate.Op.LE, Predicate.Op.GT},
            {Predicate.Op.GT, Predicate.Op.LE}, {Predicate.Op.GE, Predicate.Op.LT},
        };
        for (Predicate.Op[] pair : table) {
            assertEquals(new Predicate.Compare("c", pair[1], 7L),
                    not(new Predicate.Compare("c", pair[0], 7)).normalize());
        }
        // The result has no NOT anywhere.
        assertTrue(noNot(not(rich()).normalize()));
        assertTrue(noNot(rich().normalize()));
    }

    private static boolean noNot(Predicate p) {
        if (p instanceof Predicate.Not) {
            return false;
        }
        if (p instanceof Predicate.And a) {
            return a.children().stream().allMatch(PredicateCodecTest::noNot);
        }
        if (p instanceof Predicate.Or o) {
            return o.children().stream().allMatch(PredicateCodecTest::noNot);
        }
        return true;
    }

    /** normalize() keeps the three-valued result (TRUE, FALSE or unknown) of every row. */
    @Test
    public void normalizeKeepsThreeValuedResults() {
        Data d = data();
        Random r = new Random(11);
        for (int k = 0; k < 400; k++) {
            Predicate p = randomPredicate(r, 3);
            Predicate n = p.normalize();
            assertTrue(noNot(n));
            for (int row = 0; row < d.rows; row += 37) {
                Function<String, Object> values = d.row(row);
                assertEquals(p + " vs " + n + " on row " + row, Sql3.eval(p, values), Sql3.eval(n, values));
                assertEquals(Sql3.eval(not(p), values), Sql3.eval(not(p).normalize(), values));
            }
        }
    }

    // ---- Java encodes, Rust decodes and filters

    private static final String[] WORDS = {
        "AAPL", "", "A", "AA", "Zürich", "zurich", "東京", "🎉party", "\uE000private", "\uFFFF", "Ω", "z",
    };

    /** The values of the small file, column by column, as the tests generated them. */
    static final class Data {
        final Path path;
        final List<String> names;
        final Object[][] columns;
        final int rows;

        Data(Path path, List<String> names, Object[][] columns, int rows) {
            this.path = path;
            this.names = names;
            this.columns = columns;
            this.rows = rows;
        }

        Function<String, Object> row(int row) {
            return name -> columns[names.indexOf(name)][row];
        }
    }

    private static Data data;

    static final Schema SCHEMA = Schema.of(
            new Field("id", DataType.INT64, false),
            new Field("i", DataType.INT64, true),
            new Field("i32", DataType.INT32, true),
            new Field("u8", DataType.UINT8, true),
            new Field("u64", DataType.UINT64, true),
            new Field("f", DataType.FLOAT64, true),
            new Field("f32", DataType.FLOAT32, true),
            new Field("s", DataType.UTF8, true),
            new Field("sh", DataType.UTF8, true),
            new Field("bin", DataType.BINARY, true),
            new Field("dec", DataType.decimal(10, 2), true),
            new Field("flag", DataType.BOOL, true));

    private static final BigInteger[] U64S = {
        BigInteger.ZERO, BigInteger.ONE, TWO_63, TWO_63.subtract(BigInteger.ONE), U64_MAX, BigInteger.valueOf(1000),
    };
    private static final double[] DOUBLES = {
        -1.5, 0.0, 2.25, 1e300, -1e300, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.1, 3.0,
    };
    private static final byte[][] BINS = {
        {}, {0}, {0, 0}, {(byte) 0xFF}, {1, 2, 3}, {(byte) 0x80, 0x7F},
    };

    static synchronized Data data() {
        if (data != null) {
            return data;
        }
        int rows = 40_000;
        Random r = new Random(5);
        Object[][] cols = new Object[SCHEMA.size()][rows];
        for (int row = 0; row < rows; row++) {
            boolean nulls = r.nextInt(8) != 0;
            cols[0][row] = (long) row;
            cols[1][row] = nullOr(r, row % 1000 == 0 ? (Object) Long.MIN_VALUE
                    : row % 1000 == 1 ? (Object) Long.MAX_VALUE : (Object) (long) (r.nextInt(121) - 60));
            cols[2][row] = nullOr(r, r.nextInt(2001) - 1000);
            cols[3][row] = nullOr(r, r.nextInt(256));
            cols[4][row] = nullOr(r, U64S[r.nextInt(U64S.length)]);
            cols[5][row] = nullOr(r, r.nextBoolean() ? DOUBLES[r.nextInt(DOUBLES.length)] : (r.nextInt(201) - 100) / 2.0);
            cols[6][row] = nullOr(r, r.nextInt(41) / 4.0f - 5);
            cols[7][row] = nullOr(r, WORDS[r.nextInt(WORDS.length)]);
            cols[8][row] = nullOr(r, "k" + r.nextInt(100_000) + (r.nextBoolean() ? "é" : ""));
            cols[9][row] = nullOr(r, BINS[r.nextInt(BINS.length)]);
            cols[10][row] = nullOr(r, BigDecimal.valueOf(r.nextInt(20_001) - 10_000, 2));
            cols[11][row] = nullOr(r, r.nextBoolean());
            if (!nulls) {
                // Some rows null in every nullable column at once.
                for (int c = 1; c < cols.length; c++) {
                    cols[c][row] = null;
                }
            }
        }
        Path path = Fixtures.tempDir().resolve("predicates.vortex");
        try (VortexWriter w = VortexWriter.create(path, SCHEMA)) {
            int batch = 15_000;
            for (int from = 0; from < rows; from += batch) {
                int n = Math.min(batch, rows - from);
                Batch b = new Batch(SCHEMA, n);
                long[] id = new long[n];
                long[] i = new long[n];
                int[] i32 = new int[n];
                byte[] u8 = new byte[n];
                long[] u64 = new long[n];
                double[] f = new double[n];
                float[] f32 = new float[n];
                boolean[] flag = new boolean[n];
                boolean[][] valid = new boolean[SCHEMA.size()][n];
                for (int k = 0; k < n; k++) {
                    int row = from + k;
                    for (int c = 0; c < SCHEMA.size(); c++) {
                        valid[c][k] = cols[c][row] != null;
                    }
                    id[k] = (Long) cols[0][row];
                    i[k] = cols[1][row] == null ? 0 : (Long) cols[1][row];
                    i32[k] = cols[2][row] == null ? 0 : (Integer) cols[2][row];
                    u8[k] = cols[3][row] == null ? 0 : (byte) (int) (Integer) cols[3][row];
                    u64[k] = cols[4][row] == null ? 0 : ((BigInteger) cols[4][row]).longValue();
                    f[k] = cols[5][row] == null ? 0 : (Double) cols[5][row];
                    f32[k] = cols[6][row] == null ? 0 : (Float) cols[6][row];
                    flag[k] = cols[11][row] != null && (Boolean) cols[11][row];
                }
                b.set("id", id).set("i", i, valid[1]).set("i32", i32, valid[2]).set("u8", u8, valid[3])
                        .set("u64", u64, valid[4]).set("f", f, valid[5]).set("f32", f32, valid[6])
                        .set("s", Arrays.copyOfRange(cols[7], from, from + n, String[].class))
                        .set("sh", Arrays.copyOfRange(cols[8], from, from + n, String[].class))
                        .set("bin", Arrays.copyOfRange(cols[9], from, from + n, byte[][].class))
                        .set("dec", Arrays.copyOfRange(cols[10], from, from + n, BigDecimal[].class))
                        .set("flag", flag, valid[11]);
                w.write(b);
            }
            w.finish();
        }
        data = new Data(path, SCHEMA.names(), cols, rows);
        return data;
    }

    private static Object nullOr(Random r, Object v) {
        return r.nextInt(10) == 0 ? null : v;
    }

    private static Path smallFile() {
        return data().path;
    }

    @BeforeClass
    public static void checkTheFileHoldsTheData() {
        Data d = data();
        try (VortexFile file = VortexFile.open(d.path); Scan scan = file.scan()) {
            assertEquals(d.rows, file.rowCount());
            int row = 0;
            for (Chunk chunk : scan) {
                try (chunk) {
                    for (int c = 0; c < d.names.size(); c++) {
                        Array a = chunk.column(c);
                        for (int i = 0; i < a.length(); i++) {
                            Object want = d.columns[c][row + i];
                            Object got = Values.valueAt(a, i);
                            if (want instanceof byte[]) {
                                assertArrayEquals((byte[]) want, (byte[]) got);
                            } else {
                                assertEquals(d.names.get(c) + " row " + (row + i), want, got);
                            }
                        }
                    }
                    row += chunk.length();
                }
            }
            assertEquals(d.rows, row);
        }
    }

    /** Hand-picked predicates for the edges of the semantics. */
    static List<Predicate> edgePredicates() {
        List<Predicate> out = new ArrayList<>(Arrays.asList(
                eq("i", 5), ne("i", 5), lt("i", -10), le("i", -10), gt("i", 50), ge("i", 50),
                eq("i", Long.MIN_VALUE), eq("i", Long.MAX_VALUE), gt("i", U64_MAX), lt("i", U64_MAX),
                eq("i", 2.5), lt("i", 2.5), ge("i", -2.5), le("i", new BigDecimal("-2.50")), eq("i", new BigDecimal("7.00")),
                between("i", -5, 5), between("i", 5, -5), between("i", null, 5), not(between("i", null, 5)),
                not(between("i", -5, 5)), in("i", 1, 2, 3), in("i", 1, null), notIn("i", 1, 2, 3), notIn("i", 1, null),
                in("i"), notIn("i"), isNull("i"), isNotNull("i"), eq("i", null), ne("i", null), not(eq("i", null)),
                eq("i32", 1000), gt("i32", 1e10), lt("i32", -1e10), ge("i32", 999.5),
                eq("u8", 255), eq("u8", 300), lt("u8", 300), gt("u8", -1), lt("u8", -1), ne("u8", 256), le("u8", 0.5),
                eq("u64", U64_MAX), gt("u64", TWO_63), ge("u64", TWO_63), lt("u64", TWO_63), eq("u64", -1),
                gt("u64", -1), in("u64", TWO_63, U64_MAX, 1), notIn("u64", 0, U64_MAX),
                eq("f", 2.25), gt("f", 1e300), ge("f", Double.POSITIVE_INFINITY), lt("f", Double.NEGATIVE_INFINITY),
                le("f", Double.NEGATIVE_INFINITY), eq("f", 3), lt("f", 0), eq("f", 0.1), between("f", -1.5, 2.25),
                eq("f32", 0.25), eq("f32", 0.1), lt("f32", 0.1), gt("f32", -4.9), le("f32", 5),
                eq("s", "Zürich"), eq("s", ""), ne("s", ""), lt("s", "A"), le("s", "A"), gt("s", "z"),
                lt("s", "\uE000"), gt("s", "\uFFFF"), gt("s", "東京"), lt("s", "🎉"), ge("s", "🎉"),
                between("s", "A", "Zz"), in("s", "AAPL", "Ω", "nope"), notIn("s", "AAPL", ""), notIn("s", "AAPL", null),
                isNull("s"), not(isNull("s")), eq("s", "zurich "), lt("s", "AA\u0000"),
                lt("sh", "k5"), ge("sh", "k99999é"), eq("sh", "k100"), in("sh", "k1", "k2é", "k3"),
                eq("bin", new byte[] {}), eq("bin", new byte[] {0}), lt("bin", new byte[] {0, 0}),
                gt("bin", new byte[] {(byte) 0x80}), eq("bin", "\u0001\u0002\u0003"), in("bin", new byte[] {(byte) 0xFF}, null),
                eq("dec", new BigDecimal("12.34")), gt("dec", new BigDecimal("12.345")), le("dec", new BigDecimal("-0.005")),
                eq("dec", new BigDecimal("12.340000")), lt("dec", 0), ge("dec", 100), eq("dec", new BigDecimal("1E+2")),
                between("dec", new BigDecimal("-1"), new BigDecimal("1.001")), gt("dec", new BigDecimal("99999999.99")),
                lt("dec", new BigDecimal("-1E+30")),
                eq("flag", true), ne("flag", true), lt("flag", true), in("flag", false, null), isNull("flag"),
                and(), or(), not(and()), not(or()),
                and(eq("flag", true), gt("i", 0), not(isNull("s"))),
                or(eq("s", "AAPL"), lt("i", -50), isNull("f")),
                not(or(eq("s", "AAPL"), and(gt("i", 0), lt("i", 10)), in("u8", 1, 2, null))),
                not(and(ne("s", "A"), notIn("i", 1, 2))),
                and(or(isNull("i"), eq("i", 3)), or(isNull("s"), ne("s", "z")))));
        return out;
    }

    @Test
    public void rustSelectsWhatTheSqlSemanticsSelectOnEdgeCases() {
        Data d = data();
        try (VortexFile file = VortexFile.open(d.path)) {
            for (Predicate p : edgePredicates()) {
                checkAgainstReference(file, d, p);
            }
        }
    }

    @Test
    public void rustSelectsWhatTheSqlSemanticsSelectOnRandomPredicates() {
        Data d = data();
        Random r = new Random(99);
        int nonTrivial = 0;
        try (VortexFile file = VortexFile.open(d.path)) {
            for (int k = 0; k < 250; k++) {
                Predicate p = randomPredicate(r, 3);
                long[] selected = checkAgainstReference(file, d, p);
                if (selected.length > 0 && selected.length < d.rows) {
                    nonTrivial++;
                }
            }
        }
        // The random predicates are not all trivially empty or full.
        assertTrue("only " + nonTrivial + " non-trivial predicates", nonTrivial > 100);
    }

    /** The benchmark baseline counts what the filtered scan selects, with or without decoding. */
    @Test
    public void referenceFilteredCountCountsTheSelectedRows() {
        Data d = data();
        try (VortexFile file = VortexFile.open(d.path)) {
            for (Predicate p : Arrays.asList(eq("s", "AAPL"), and(gt("i", 0), isNotNull("dec")), or(), and(),
                    not(in("u8", 1, 2, 3)))) {
                long want = Sql3.selectedRows(p, d.names, d.columns, d.rows).length;
                assertEquals(p.toString(), want, file.referenceFilteredCount(p, false, "id"));
                assertEquals(p.toString(), want, file.referenceFilteredCount(p, true, "s", "dec", "bin"));
            }
            try {
                file.referenceFilteredCount(eq("s", "x"), true, "nope");
                fail("projected an unknown column");
            } catch (VortexException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("'nope'"));
            }
        }
    }

    /** The Java evaluators (dictionary kernel on and off) agree with the same semantics. */
    @Test
    public void javaEvaluationSelectsWhatTheSqlSemanticsSelect() {
        Data d = data();
        List<Predicate> predicates = new ArrayList<>(edgePredicates());
        Random r = new Random(123);
        for (int k = 0; k < 100; k++) {
            predicates.add(randomPredicate(r, 3));
        }
        boolean before = PredicateEvaluator.isDictFilterEnabled();
        try {
            for (boolean dict : new boolean[] {true, false}) {
                PredicateEvaluator.setDictFilterEnabled(dict);
                try (VortexFile file = VortexFile.open(d.path)) {
                    for (Predicate p : predicates) {
                        long[] want = Sql3.selectedRows(p, d.names, d.columns, d.rows);
                        assertRows(p + " (Java path, dictionary filter " + dict + ")", want, javaRows(file, p));
                    }
                }
            }
        } finally {
            PredicateEvaluator.setDictFilterEnabled(before);
        }
    }

    public static long[] javaRows(VortexFile file, Predicate p) {
        List<Long> rows = new ArrayList<>();
        try (Scan scan = file.scan()) {
            for (Chunk c : scan) {
                try (c) {
                    Bitmap sel = Compute.selection(c, p);
                    assertEquals(sel.cardinality(), Compute.count(c, p));
                    for (int i = 0; i < c.length(); i++) {
                        assertEquals(sel.get(i), Compute.matches(c, p, i));
                        if (sel.get(i)) {
                            rows.add(c.firstRow() + i);
                        }
                    }
                }
            }
        }
        return rows.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    public void doubleLiteralOnDecimalColumnComparesByValue() {
        Data d = data();
        try (VortexFile file = VortexFile.open(d.path)) {
            for (Predicate p : Arrays.asList(eq("dec", 12.5), lt("dec", -0.125), ge("dec", 99.99), eq("dec", 0.1))) {
                long[] want = Sql3.selectedRows(p, d.names, d.columns, d.rows);
                assertRows(p + " (Java path)", want, javaRows(file, p));
                checkAgainstReference(file, d, p);
            }
        }
    }

    @Test
    public void decimalLiteralOnDoubleColumnComparesByValue() {
        Data d = data();
        try (VortexFile file = VortexFile.open(d.path)) {
            for (Predicate p : Arrays.asList(eq("f", new BigDecimal("0.1")), lt("f", new BigDecimal("0.1")),
                    ge("f", new BigDecimal("0.1")), ne("f32", new BigDecimal("0.1")))) {
                long[] want = Sql3.selectedRows(p, d.names, d.columns, d.rows);
                assertRows(p + " (Java path)", want, javaRows(file, p));
                checkAgainstReference(file, d, p);
            }
        }
    }

    private static long[] checkAgainstReference(VortexFile file, Data d, Predicate p) {
        long[] want = Sql3.selectedRows(p, d.names, d.columns, d.rows);
        long[] got;
        try {
            got = ReferenceScan.selectedRows(file, p);
        } catch (RuntimeException e) {
            throw new AssertionError("reference scan failed for " + p + ": " + e, e);
        }
        assertRows(p + " (vortex filtered scan)", want, got);
        return want;
    }

    public static void assertRows(String what, long[] want, long[] got) {
        if (!Arrays.equals(want, got)) {
            int i = 0;
            while (i < Math.min(want.length, got.length) && want[i] == got[i]) {
                i++;
            }
            fail(what + ": expected " + want.length + " rows, got " + got.length + "; first difference at index "
                    + i + ": expected " + (i < want.length ? want[i] : "none") + ", got "
                    + (i < got.length ? got[i] : "none"));
        }
    }

    // ---- random predicates over the small file's columns

    static Predicate randomPredicate(Random r, int depth) {
        int k = r.nextInt(depth > 0 ? 10 : 6);
        if (k >= 6) {
            List<Predicate> children = new ArrayList<>();
            int n = r.nextInt(4);
            for (int i = 0; i < n; i++) {
                children.add(randomPredicate(r, depth - 1));
            }
            switch (k) {
                case 6: return and(children);
                case 7: return or(children);
                default: return not(randomPredicate(r, depth - 1));
            }
        }
        String column = SCHEMA.field(1 + r.nextInt(SCHEMA.size() - 1)).name();
        switch (k) {
            case 0:
            case 1:
            case 2: {
                Predicate.Op op = Predicate.Op.values()[r.nextInt(6)];
                return new Predicate.Compare(column, op, literal(r, column));
            }
            case 3:
                return between(column, literal(r, column), literal(r, column));
            case 4: {
                List<Object> values = new ArrayList<>();
                int n = r.nextInt(5);
                for (int i = 0; i < n; i++) {
                    values.add(literal(r, column));
                }
                return new Predicate.In(column, values, r.nextBoolean());
            }
            default:
                return new Predicate.IsNull(column, r.nextBoolean());
        }
    }

    /** A literal for {@code column}: mostly values the column holds, sometimes edges or null. */
    static Object literal(Random r, String column) {
        if (r.nextInt(15) == 0) {
            return null;
        }
        boolean odd = r.nextInt(4) == 0;
        switch (column) {
            case "i":
                if (odd) {
                    return pick(r, Long.MIN_VALUE, Long.MAX_VALUE, U64_MAX, 2.5, -0.5, new BigDecimal("3.000"),
                            new BigDecimal("-7.25"), 1e19, -1e19);
                }
                return (long) (r.nextInt(131) - 65);
            case "i32":
                return odd ? pick(r, 1e12, -3.5, new BigDecimal("999.99"), Long.MAX_VALUE, Integer.MIN_VALUE - 1L)
                        : (Object) (long) (r.nextInt(2101) - 1050);
            case "u8":
                return odd ? pick(r, -1L, 256L, 1000L, 0.5, 254.5, U64_MAX) : (Object) (long) r.nextInt(256);
            case "u64":
                return odd ? pick(r, -1L, Long.MIN_VALUE, 1.5, 1e19, 2e19)
                        : U64S[r.nextInt(U64S.length)];
            case "f":
                return odd ? pick(r, 3L, -100L, Long.MAX_VALUE, new BigDecimal("2.25"), new BigDecimal("-0.5"))
                        : (Object) (r.nextBoolean() ? DOUBLES[r.nextInt(DOUBLES.length)] : (r.nextInt(201) - 100) / 2.0);
            case "f32":
                return odd ? pick(r, 0.1, 1e-50, 3.4e38, 1e39, 2L, new BigDecimal("-1.25"))
                        : (Object) (double) (r.nextInt(45) / 4.0f - 5.5f);
            case "s":
                return odd ? pick(r, "", "B", "Zz", "\uD7FF", "\uE000", "東", "🎉", "AAP", "zzz")
                        : WORDS[r.nextInt(WORDS.length)];
            case "sh":
                return "k" + r.nextInt(110_000) + (r.nextBoolean() ? "é" : "");
            case "bin":
                return odd ? (Object) "\u0000" : new Binary(BINS[r.nextInt(BINS.length)]);
            case "dec":
                return odd ? pick(r, 5L, -100L, new BigDecimal("0.001"), new BigDecimal("-99.995"),
                        new BigDecimal("1E+9"), new BigDecimal("12"))
                        : BigDecimal.valueOf(r.nextInt(20_001) - 10_000, 2);
            case "flag":
                return r.nextBoolean();
            default:
                throw new AssertionError(column);
        }
    }

    private static Object pick(Random r, Object... values) {
        return values[r.nextInt(values.length)];
    }

    @Test
    public void sqlSemanticsHelperAgreesWithHandWorkedRows() {
        // A sanity check of the tests' own evaluator on rows worked out by hand.
        Function<String, Object> row = name -> name.equals("x") ? 5L : name.equals("s") ? "é" : null;
        assertEquals(Boolean.TRUE, Sql3.eval(eq("x", 5), row));
        assertEquals(Boolean.FALSE, Sql3.eval(eq("x", 5.5), row));
        assertEquals(null, Sql3.eval(eq("x", null), row));
        assertEquals(null, Sql3.eval(eq("n", 1), row));
        assertEquals(null, Sql3.eval(not(eq("n", 1)), row));
        assertEquals(Boolean.FALSE, Sql3.eval(and(eq("n", 1), eq("x", 4)), row));
        assertEquals(Boolean.TRUE, Sql3.eval(or(eq("n", 1), eq("x", 5)), row));
        assertEquals(null, Sql3.eval(in("x", 1, null), row));
        assertEquals(Boolean.TRUE, Sql3.eval(in("x", 5, null), row));
        assertEquals(null, Sql3.eval(notIn("x", 1, null), row));
        assertEquals(Boolean.FALSE, Sql3.eval(in("n"), row));
        assertEquals(Boolean.TRUE, Sql3.eval(notIn("n"), row));
        assertEquals(Boolean.FALSE, Sql3.eval(between("x", null, 4), row));
        assertEquals(null, Sql3.eval(between("x", null, 6), row));
        // "é" is C3 A9 in UTF-8: above every ASCII string, below U+E000 (EE 80 80).
        assertEquals(Boolean.TRUE, Sql3.eval(gt("s", "zzz"), row));
        assertEquals(Boolean.TRUE, Sql3.eval(lt("s", "\uE000"), row));
        assertNotEquals(Boolean.TRUE, Sql3.eval(lt("s", "é"), row));
        // U+E000 (EE 80 80) sorts below U+1F389 (F0 9F 8E 89) in UTF-8 though not in UTF-16.
        assertEquals(-1, Integer.signum(Sql3.compare("\uE000", "🎉")));
        assertEquals(1, Integer.signum("\uE000".compareTo("🎉")));
        assertEquals(-1, Integer.signum(Sql3.compare(new byte[] {0x7F}, new Binary(new byte[] {(byte) 0x80}))));
        assertEquals(0, Sql3.compare(BigInteger.TEN, new BigDecimal("10.000")));
        assertEquals(1, Sql3.compare(U64_MAX, Long.MAX_VALUE));
        // The double nearest 0.1 is 0.1000000000000000055..., above the decimal 0.1.
        assertEquals(1, Sql3.compare(0.1, new BigDecimal("0.1")));
        assertEquals(0, Sql3.compare(0.25f, new BigDecimal("0.25")));
    }
}
