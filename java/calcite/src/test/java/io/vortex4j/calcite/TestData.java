package io.vortex4j.calcite;

import io.vortex4j.reader.DataType.TimeUnit;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import io.vortex4j.cli.sample.Trades;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The test files, written once per JVM into a temporary directory:
 *
 * <ul>
 *   <li>{@code trades.vortex}: the sample trades table, {@value #TRADES_ROWS} rows (several
 *       chunks, {@code sym} dictionary-encoded with about 5% nulls).
 *   <li>{@code types.vortex}: every dtype the reader supports, with nulls and awkward values
 *       (extremes, NaN, -0.0, infinities, strings beyond the BMP and at U+E000, sub-millisecond
 *       times), written in {@value #TYPES_BATCHES} batches of {@value #TYPES_BATCH_ROWS} rows.
 *   <li>{@code MixedCase.vortex}: a copy of the first types batch, for name-case tests.
 *   <li>{@code zones.vortex}: {@value #ZONE_BATCHES} batches of {@value #ZONE_ROWS} rows, each
 *       with its own narrow range of values ({@link #writeZones}), so that zone maps can rule
 *       whole chunks out.
 *   <li>{@code words.vortex}: a dictionary-encoded string column {@code w} over {@link #WORDS}
 *       (case pairs, non-ASCII, surrogate pairs, line terminators, LIKE and regex
 *       metacharacters, numbers as text) with about 8% nulls, in {@value #WORDS_BATCHES}
 *       batches, beside {@code id} and a small integer {@code n} ({@link #writeWords}).
 *   <li>{@code sums.vortex}: INTEGER and BIGINT columns whose sums overflow 32 and 64 bits
 *       ({@link #sumsRows()}).
 *   <li>{@code keywords.vortex}: columns named like SQL keywords ({@link #writeKeywords}).
 * </ul>
 *
 * <p>The values written to {@code types} are kept ({@link #types()}) for brute-force checks.
 */
public final class TestData {
    public static final long TRADES_ROWS = 200_000;
    static final int TYPES_BATCHES = 3;
    static final int TYPES_BATCH_ROWS = 3_000;

    static final Schema TYPES = Schema.of(
            new Field("id", DataType.INT64, false),
            new Field("b", DataType.BOOL, true),
            new Field("i8", DataType.INT8, true),
            new Field("i16", DataType.INT16, true),
            new Field("i32", DataType.INT32, true),
            new Field("i64", DataType.INT64, true),
            new Field("u8", DataType.UINT8, true),
            new Field("u16", DataType.UINT16, true),
            new Field("u32", DataType.UINT32, true),
            new Field("u64", DataType.UINT64, true),
            new Field("qty", DataType.INT32, true),
            new Field("f32", DataType.FLOAT32, true),
            new Field("f64", DataType.FLOAT64, true),
            new Field("s", DataType.UTF8, true),
            new Field("s2", DataType.UTF8, true),
            new Field("bin", DataType.BINARY, true),
            new Field("amount", DataType.decimal(12, 3), true),
            new Field("d", DataType.DATE, true),
            new Field("t_s", DataType.time(TimeUnit.SECONDS), true),
            new Field("t_ms", DataType.time(TimeUnit.MILLISECONDS), true),
            new Field("t_us", DataType.time(TimeUnit.MICROSECONDS), true),
            new Field("ts_s", DataType.timestamp(TimeUnit.SECONDS, null), true),
            new Field("ts_ms", DataType.timestamp(TimeUnit.MILLISECONDS, null), true),
            new Field("ts_us", DataType.timestamp(TimeUnit.MICROSECONDS, null), true),
            new Field("ts_ns", DataType.timestamp(TimeUnit.NANOSECONDS, null), true),
            new Field("ts_tz", DataType.timestamp(TimeUnit.MILLISECONDS, "UTC"), true));

    static final String[] STRINGS = {"", "A", "A ", "a", "AAPL", "B", "日本", "😀", "\uE000", "zz", "Ω", "MSFT"};
    static final byte[][] BINARIES = {{}, {0}, {0x7f}, {(byte) 0x80}, {(byte) 0xff}, {1, 2, 3}};
    static final float[] FLOATS = {Float.NaN, -0f, 0f, 0.1f, 1.5f, -1.5f, 3e38f, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, 100.5f, 2f, 7f};
    static final double[] DOUBLES = {Double.NaN, -0.0, 0.0, 0.1, 0.30000000000000004, 1.5, -1.5, 1e300,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 100.5, 2, 7};
    /** 2026-01-01T00:00:00Z in milliseconds. */
    static final long EPOCH_2026_MS = 1_767_225_600_000L;

    private static Path dir;
    private static List<Object[]> typesRows;

    private TestData() {}

    /** The directory holding the test files. */
    public static synchronized Path dir() {
        if (dir == null) {
            try {
                Path d = Files.createTempDirectory("vortex4j-calcite-test");
                d.toFile().deleteOnExit();
                Trades.write(d.resolve("trades.vortex"), TRADES_ROWS, 42, null);
                typesRows = writeTypes(d.resolve("types.vortex"), TYPES_BATCHES);
                writeTypes(d.resolve("MixedCase.vortex"), 1);
                writeZones(d.resolve("zones.vortex"));
                writeWords(d.resolve("words.vortex"));
                writeSums(d.resolve("sums.vortex"));
                writeKeywords(d.resolve("keywords.vortex"));
                for (String f : new String[] {"trades.vortex", "types.vortex", "MixedCase.vortex", "zones.vortex",
                    "words.vortex", "sums.vortex", "keywords.vortex"}) {
                    d.resolve(f).toFile().deleteOnExit();
                }
                dir = d;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dir;
    }

    /** The rows written to {@code types.vortex}, as the Java values given to the writer (raw units). */
    static synchronized List<Object[]> types() {
        dir();
        return typesRows;
    }

    private static List<Object[]> writeTypes(Path path, int batches) {
        SplittableRandom r = new SplittableRandom(7);
        List<Object[]> all = new ArrayList<>();
        try (VortexWriter w = VortexWriter.create(path, TYPES)) {
            long id = 0;
            for (int batch = 0; batch < batches; batch++) {
                int n = TYPES_BATCH_ROWS;
                Batch bt = new Batch(TYPES, n);
                boolean[][] valid = new boolean[TYPES.size()][n];
                long[] ids = new long[n];
                boolean[] b = new boolean[n];
                byte[] i8 = new byte[n];
                short[] i16 = new short[n];
                int[] i32 = new int[n];
                long[] i64 = new long[n];
                byte[] u8 = new byte[n];
                short[] u16 = new short[n];
                int[] u32 = new int[n];
                long[] u64 = new long[n];
                int[] qty = new int[n];
                float[] f32 = new float[n];
                double[] f64 = new double[n];
                String[] s = new String[n];
                String[] s2 = new String[n];
                byte[][] bin = new byte[n][];
                BigDecimal[] amount = new BigDecimal[n];
                int[] d = new int[n];
                long[] tS = new long[n];
                long[] tMs = new long[n];
                long[] tUs = new long[n];
                long[] tsS = new long[n];
                long[] tsMs = new long[n];
                long[] tsUs = new long[n];
                long[] tsNs = new long[n];
                long[] tsTz = new long[n];
                for (int i = 0; i < n; i++) {
                    ids[i] = id++;
                    b[i] = r.nextBoolean();
                    i8[i] = (byte) pick(r, new long[] {Byte.MIN_VALUE, -1, 0, 1, 2, 3, 100, Byte.MAX_VALUE}, r.nextInt());
                    i16[i] = (short) pick(r, new long[] {Short.MIN_VALUE, -1, 0, 1, 300, Short.MAX_VALUE}, r.nextInt());
                    i32[i] = (int) pick(r, new long[] {Integer.MIN_VALUE, -1, 0, 1, 70000, Integer.MAX_VALUE}, r.nextInt());
                    i64[i] = pick(r, new long[] {Long.MIN_VALUE, -1, 0, 1, 1L << 53, (1L << 53) + 1, Long.MAX_VALUE},
                            r.nextLong());
                    u8[i] = (byte) pick(r, new long[] {0, 1, 127, 128, 255}, r.nextInt());
                    u16[i] = (short) pick(r, new long[] {0, 1, 32767, 32768, 65535}, r.nextInt());
                    u32[i] = (int) pick(r, new long[] {0, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, -1}, r.nextInt());
                    u64[i] = pick(r, new long[] {0, 1, 5, Long.MAX_VALUE, Long.MIN_VALUE, -1}, r.nextLong());
                    qty[i] = r.nextInt(101);
                    f32[i] = r.nextInt(3) == 0 ? (float) (r.nextDouble() * 200 - 100) : FLOATS[r.nextInt(FLOATS.length)];
                    f64[i] = r.nextInt(3) == 0 ? r.nextDouble() * 200 - 100 : DOUBLES[r.nextInt(DOUBLES.length)];
                    s[i] = STRINGS[r.nextInt(STRINGS.length)];
                    s2[i] = randomString(r);
                    bin[i] = BINARIES[r.nextInt(BINARIES.length)].clone();
                    amount[i] = r.nextInt(5) == 0 ? new BigDecimal("1.500")
                            : BigDecimal.valueOf(r.nextLong(-1_000_000_000L, 1_000_000_000L), 3);
                    d[i] = r.nextInt(4) == 0 ? 0 : r.nextInt(-1000, 30000);
                    tS[i] = r.nextInt(86_400);
                    tMs[i] = r.nextInt(86_400_000);
                    tUs[i] = r.nextInt(4) == 0 ? 43_200_000_000L + r.nextInt(-2, 3) * 1000L + r.nextInt(-1, 2)
                            : r.nextLong(86_400_000_000L);
                    tsS[i] = EPOCH_2026_MS / 1000 + r.nextInt(-5, 6);
                    tsMs[i] = r.nextInt(4) == 0 ? EPOCH_2026_MS + r.nextInt(-3, 4) : r.nextLong(-10_000_000_000L, 4_000_000_000_000L);
                    tsUs[i] = EPOCH_2026_MS * 1000 + r.nextInt(-3, 4) * 1000L + pick(r, new long[] {0, 1, 999, 500}, 0);
                    tsNs[i] = EPOCH_2026_MS * 1_000_000 + r.nextInt(-3, 4) * 1_000_000L + pick(r, new long[] {0, 1, 999_999}, 0);
                    tsTz[i] = EPOCH_2026_MS + r.nextInt(-3, 4);
                    for (int c = 1; c < TYPES.size(); c++) {
                        valid[c][i] = r.nextInt(10) != 0;
                    }
                }
                bt.set("id", ids);
                bt.set("b", b, valid[1]);
                bt.set("i8", i8, valid[2]);
                bt.set("i16", i16, valid[3]);
                bt.set("i32", i32, valid[4]);
                bt.set("i64", i64, valid[5]);
                bt.set("u8", u8, valid[6]);
                bt.set("u16", u16, valid[7]);
                bt.set("u32", u32, valid[8]);
                bt.set("u64", u64, valid[9]);
                bt.set("qty", qty, valid[10]);
                bt.set("f32", f32, valid[11]);
                bt.set("f64", f64, valid[12]);
                bt.set("s", s, valid[13]);
                bt.set("s2", s2, valid[14]);
                bt.set("bin", bin, valid[15]);
                bt.set("amount", amount, valid[16]);
                bt.set("d", d, valid[17]);
                bt.set("t_s", tS, valid[18]);
                bt.set("t_ms", tMs, valid[19]);
                bt.set("t_us", tUs, valid[20]);
                bt.set("ts_s", tsS, valid[21]);
                bt.set("ts_ms", tsMs, valid[22]);
                bt.set("ts_us", tsUs, valid[23]);
                bt.set("ts_ns", tsNs, valid[24]);
                bt.set("ts_tz", tsTz, valid[25]);
                w.write(bt);
                for (int i = 0; i < n; i++) {
                    Object[] row = {ids[i], b[i], i8[i], i16[i], i32[i], i64[i], Byte.toUnsignedInt(u8[i]),
                        Short.toUnsignedInt(u16[i]), Integer.toUnsignedLong(u32[i]), Long.toUnsignedString(u64[i]), qty[i],
                        f32[i], f64[i], s[i], s2[i], bin[i], amount[i], d[i], tS[i], tMs[i], tUs[i], tsS[i], tsMs[i],
                        tsUs[i], tsNs[i], tsTz[i]};
                    for (int c = 1; c < row.length; c++) {
                        if (!valid[c][i]) {
                            row[c] = null;
                        }
                    }
                    all.add(row);
                }
            }
            w.finish();
        }
        return all;
    }

    public static final int ZONE_BATCHES = 5;
    public static final int ZONE_ROWS = 65_536;
    static final Schema ZONES = Schema.of(
            new Field("k", DataType.INT64, false),
            new Field("x", DataType.FLOAT64, true),
            new Field("s", DataType.UTF8, true));

    /**
     * Batch 0: x is NaN, s "nan"; 1: x in [0, 1), s "low"; 2: x is -0.0 or 0.0, s "zero"; 3: x is
     * +/-Infinity, s "inf"; 4: x in [1e10, 2e10), s "high" or null. k counts rows from 0.
     */
    private static void writeZones(Path path) {
        SplittableRandom r = new SplittableRandom(11);
        String[] names = {"nan", "low", "zero", "inf", "high"};
        try (VortexWriter w = VortexWriter.create(path, ZONES)) {
            long k = 0;
            for (int b = 0; b < ZONE_BATCHES; b++) {
                long[] ks = new long[ZONE_ROWS];
                double[] xs = new double[ZONE_ROWS];
                String[] ss = new String[ZONE_ROWS];
                for (int i = 0; i < ZONE_ROWS; i++) {
                    ks[i] = k++;
                    switch (b) {
                        case 0: xs[i] = Double.NaN; break;
                        case 1: xs[i] = r.nextDouble(); break;
                        case 2: xs[i] = i % 2 == 0 ? -0.0 : 0.0; break;
                        case 3: xs[i] = i % 2 == 0 ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY; break;
                        default: xs[i] = 1e10 + r.nextDouble() * 1e10;
                    }
                    ss[i] = b == 4 && i % 2 == 0 ? null : names[b];
                }
                w.write(new Batch(ZONES, ZONE_ROWS).set("k", ks).set("x", xs).set("s", ss));
            }
            w.finish();
        }
    }

    /** The values of {@code words.w}: awkward for every string function and pattern. */
    static final String[] WORDS = {
        "", " ", "  Oslo  ", "Oslo", "OSLO", "oslo", "Bergen", "bergen", "Trondheim", "SYM042", "sym042", "SYM0",
        "a_b", "a%b", "a\\b", "a.b", "(x)", "[y]", "{z}", "a|b", "^$", "*+?", "50%", "100", "42", "-7", "3.5",
        "ß", "straße", "STRASSE", "İstanbul", "ΣΑΣ", "σας", "日本", "日本語", "😀", "a😀b", "😀😀", "line\nbreak",
        "tab\tx", "\r", "\u0085", "\u2028", "\uE000", "x\u0000y", "ǅ", "ﬀ", "Ａ", "xyx", "yxy"};
    static final int WORDS_BATCHES = 3;
    static final int WORDS_ROWS = 4_000;
    static final Schema WORDS_SCHEMA = Schema.of(
            new Field("id", DataType.INT64, false),
            new Field("w", DataType.UTF8, true),
            new Field("n", DataType.INT32, true));

    private static void writeWords(Path path) {
        SplittableRandom r = new SplittableRandom(23);
        try (VortexWriter w = VortexWriter.create(path, WORDS_SCHEMA)) {
            long id = 0;
            for (int b = 0; b < WORDS_BATCHES; b++) {
                long[] ids = new long[WORDS_ROWS];
                String[] ws = new String[WORDS_ROWS];
                int[] ns = new int[WORDS_ROWS];
                boolean[] nValid = new boolean[WORDS_ROWS];
                for (int i = 0; i < WORDS_ROWS; i++) {
                    ids[i] = id++;
                    ws[i] = r.nextInt(12) == 0 ? null : WORDS[r.nextInt(WORDS.length)];
                    ns[i] = r.nextInt(-50, 100);
                    nValid[i] = r.nextInt(10) != 0;
                }
                w.write(new Batch(WORDS_SCHEMA, WORDS_ROWS).set("id", ids).set("w", ws).set("n", ns, nValid));
            }
            w.finish();
        }
    }

    static final int SUMS_BATCHES = 3;
    static final int SUMS_ROWS = 5_000;
    static final Schema SUMS_SCHEMA = Schema.of(
            new Field("id", DataType.INT64, false),
            new Field("g", DataType.UTF8, true),
            new Field("i32", DataType.INT32, true),
            new Field("i64", DataType.INT64, true));
    private static List<Object[]> sumsRows;

    /** The rows of {@code sums.vortex}: id, g (5 groups and null), i32 near its maximum, i64 near ±2^62. */
    static synchronized List<Object[]> sumsRows() {
        dir();
        return sumsRows;
    }

    private static void writeSums(Path path) {
        SplittableRandom r = new SplittableRandom(5);
        List<Object[]> all = new ArrayList<>();
        try (VortexWriter w = VortexWriter.create(path, SUMS_SCHEMA)) {
            long id = 0;
            for (int b = 0; b < SUMS_BATCHES; b++) {
                long[] ids = new long[SUMS_ROWS];
                String[] gs = new String[SUMS_ROWS];
                int[] i32 = new int[SUMS_ROWS];
                long[] i64 = new long[SUMS_ROWS];
                boolean[] valid = new boolean[SUMS_ROWS];
                for (int i = 0; i < SUMS_ROWS; i++) {
                    ids[i] = id++;
                    gs[i] = r.nextInt(6) == 0 ? null : "g" + r.nextInt(5);
                    i32[i] = Integer.MAX_VALUE - r.nextInt(1000);
                    // Mostly large positive, some large negative: the sums overflow 64 bits, the groups too.
                    i64[i] = (r.nextInt(5) == 0 ? -1 : 1) * (Long.MAX_VALUE / 2 - r.nextLong(1_000_000));
                    valid[i] = r.nextInt(20) != 0;
                    all.add(new Object[] {ids[i], gs[i], valid[i] ? i32[i] : null, valid[i] ? i64[i] : null});
                }
                w.write(new Batch(SUMS_SCHEMA, SUMS_ROWS).set("id", ids).set("g", gs).set("i32", i32, valid)
                        .set("i64", i64, valid));
            }
            w.finish();
        }
        sumsRows = all;
    }

    static final Schema KEYWORDS_SCHEMA = Schema.of(
            new Field("day", DataType.DATE, true),
            new Field("month", DataType.INT32, true),
            new Field("year", DataType.INT32, true),
            new Field("value", DataType.INT64, true),
            new Field("user", DataType.UTF8, true),
            new Field("count", DataType.INT32, true),
            new Field("timestamp", DataType.INT64, true),
            new Field("current_date", DataType.UTF8, true),
            new Field("position", DataType.INT32, true));

    /** 400 rows over days from 2024-05-01; {@code user} one of four names or null. */
    private static void writeKeywords(Path path) {
        int n = 400;
        int[] day = new int[n];
        int[] month = new int[n];
        int[] year = new int[n];
        long[] value = new long[n];
        String[] user = new String[n];
        int[] count = new int[n];
        long[] timestamp = new long[n];
        String[] currentDate = new String[n];
        int[] position = new int[n];
        String[] names = {"alice", "bob", "carol", null};
        for (int i = 0; i < n; i++) {
            java.time.LocalDate d = java.time.LocalDate.of(2024, 5, 1).plusDays(i);
            day[i] = Math.toIntExact(d.toEpochDay());
            month[i] = d.getMonthValue();
            year[i] = d.getYear();
            value[i] = i * 7L;
            user[i] = names[i % names.length];
            count[i] = i % 10;
            timestamp[i] = d.toEpochDay() * 86_400_000L;
            currentDate[i] = "cd" + (i % 3);
            position[i] = i;
        }
        try (VortexWriter w = VortexWriter.create(path, KEYWORDS_SCHEMA)) {
            w.write(new Batch(KEYWORDS_SCHEMA, n).set("day", day).set("month", month).set("year", year)
                    .set("value", value).set("user", user).set("count", count).set("timestamp", timestamp)
                    .set("current_date", currentDate).set("position", position));
            w.finish();
        }
    }

    private static long pick(SplittableRandom r, long[] special, long random) {
        return r.nextInt(3) == 0 ? random : special[r.nextInt(special.length)];
    }

    private static String randomString(SplittableRandom r) {
        String alphabet = "abcxyzABC é日😀\uE000";
        StringBuilder sb = new StringBuilder();
        int len = r.nextInt(7);
        int[] cps = alphabet.codePoints().toArray();
        for (int i = 0; i < len; i++) {
            sb.appendCodePoint(cps[r.nextInt(cps.length)]);
        }
        return sb.toString();
    }
}
