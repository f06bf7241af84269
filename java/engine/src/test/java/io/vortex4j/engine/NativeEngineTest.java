package io.vortex4j.engine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.cli.sample.Trades;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The native engine against Calcite's on the sample trades table: the same answers for filters
 * the scan takes (dictionary strings, IN, LIKE, ranges), grouping, joins, sub-queries, sorts and
 * arithmetic; EXPLAIN naming the engine and the scan's pushed filter; fallback; cancel, timeout
 * and the memory bound.
 */
public class NativeEngineTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    private static Path dir;
    private static Connection nativeEngine;
    /** The native engine on one thread: the query and its scans on the thread reading the results. */
    private static Connection oneThread;
    private static Connection calcite;

    /** Each runs natively, and its answer must equal Calcite's. */
    private static final List<String> QUERIES = List.of(
            "SELECT sym, COUNT(*), SUM(volume), MIN(price), MAX(price) FROM trades"
                    + " WHERE sym IN ('AAPL', 'MSFT', 'ZZZ') GROUP BY sym ORDER BY sym",
            "SELECT COUNT(*) * 2 FROM trades WHERE sym LIKE 'A%' AND volume > 500",
            "SELECT sym, AVG(price) AS p, AVG(volume) AS v FROM trades WHERE volume BETWEEN 100 AND 200"
                    + " GROUP BY sym ORDER BY p DESC LIMIT 5",
            "SELECT t.sym, t.ts, t.volume FROM trades t JOIN (SELECT sym, MAX(volume) AS mv FROM trades GROUP BY sym) m"
                    + " ON t.sym = m.sym AND t.volume = m.mv ORDER BY t.sym, t.ts",
            "SELECT ts, sym, price FROM trades WHERE sym = 'NVDA' ORDER BY ts LIMIT 10",
            "SELECT sym IS NULL AS missing, COUNT(*) FROM trades GROUP BY sym IS NULL ORDER BY 1",
            "SELECT COUNT(DISTINCT sym) FROM trades WHERE price > 100",
            "SELECT ts, volume / 3, volume * 2 - ts, price * 2 FROM trades WHERE ts < 20 ORDER BY ts",
            "SELECT COUNT(*) FROM trades WHERE price > (SELECT AVG(price) FROM trades)",
            "SELECT sym, COUNT(*) FROM trades WHERE sym IN (SELECT sym FROM trades WHERE volume > 990)"
                    + " GROUP BY sym ORDER BY 2 DESC, 1 LIMIT 7",
            "SELECT sym, COUNT(*) FROM trades WHERE NOT (sym = 'AAPL' OR sym LIKE '%M%') AND sym <> 'T'"
                    + " GROUP BY sym ORDER BY sym",
            "SELECT CASE WHEN volume > 500 THEN 'big' ELSE 'small' END AS size, COUNT(*) FROM trades"
                    + " GROUP BY CASE WHEN volume > 500 THEN 'big' ELSE 'small' END ORDER BY 1");

    @BeforeClass
    public static void write() throws Exception {
        dir = TMP.getRoot().toPath();
        Trades.write(dir.resolve("trades.vortex"), 200_000, 7, null);
        writeDates(dir.resolve("dates.vortex"));
        writeTimes(dir.resolve("times.vortex"));
        writeKinds(dir.resolve("kinds.vortex"));
        writeHive(dir.resolve("hive"));
        nativeEngine = DriverManager.getConnection("jdbc:vortex:" + dir + ";engine=native");
        oneThread = DriverManager.getConnection("jdbc:vortex:" + dir + ";engine=native;threads=1");
        calcite = DriverManager.getConnection("jdbc:vortex:" + dir + ";engine=calcite");
    }

    @AfterClass
    public static void close() throws SQLException {
        nativeEngine.close();
        oneThread.close();
        calcite.close();
    }

    @Test
    public void answersEqualCalcites() throws SQLException {
        answerNativelyAsCalcite(QUERIES, false);
    }

    @Test
    public void answersOnOneThreadEqualCalcites() throws SQLException {
        answerNativelyAsCalcite(oneThread, QUERIES, false);
    }

    /** Each of {@code queries} runs natively, with Calcite's answer ({@code nonEmpty}: some rows). */
    private static void answerNativelyAsCalcite(List<String> queries, boolean nonEmpty) throws SQLException {
        answerNativelyAsCalcite(nativeEngine, queries, nonEmpty);
    }

    private static void answerNativelyAsCalcite(Connection engine, List<String> queries, boolean nonEmpty)
            throws SQLException {
        for (String sql : queries) {
            List<String> plan = explain(engine, sql);
            assertTrue(sql + " runs natively: " + plan, plan.get(0).startsWith("NativeQuery"));
            List<List<String>> expected = rows(calcite, sql);
            assertFalse(sql, nonEmpty && expected.isEmpty());
            assertEquals(sql, expected, rows(engine, sql));
        }
    }

    @Test
    public void explainShowsTheNativePlanAndThePushedFilter() throws SQLException {
        List<String> plan = explain(nativeEngine, "SELECT ts FROM trades WHERE sym = 'AAPL' ORDER BY ts LIMIT 3");
        assertEquals("NativeQuery(engine=[native])", plan.get(0));
        assertTrue(String.join("\n", plan), plan.stream().anyMatch(l -> l.contains("VortexScan: table=vortex.trades")
                && l.contains("filter=sym = Utf8(\"AAPL\")")));
        assertTrue(String.join("\n", plan), plan.size() > 2);
    }

    @Test
    public void statementsWithParametersRunOnCalcite() throws SQLException {
        String sql = "SELECT sym, COUNT(*) * 2 FROM trades WHERE volume > ? GROUP BY sym ORDER BY sym";
        List<String> plan = explain(nativeEngine, sql);
        assertTrue(plan.get(0), plan.get(0).startsWith("-- engine calcite: the native engine declined this statement:"
                + " the statement has parameters"));
        List<List<String>> got = new ArrayList<>();
        try (PreparedStatement s = nativeEngine.prepareStatement(sql)) {
            s.setLong(1, 500);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    got.add(List.of(String.valueOf(r.getString(1)), String.valueOf(r.getLong(2))));
                }
            }
        }
        assertEquals(rows(calcite, sql.replace("?", "500")), got);
    }

    @Test
    public void timeoutStopsANativeJoin() throws SQLException {
        timeoutStops(nativeEngine);
        timeoutStops(oneThread);
    }

    private static void timeoutStops(Connection nativeEngine) throws SQLException {
        String sql = "SELECT COUNT(*) FROM trades a JOIN trades b ON a.sym = b.sym WHERE a.price + b.price > 0";
        assertTrue(explain(nativeEngine, sql).get(0).startsWith("NativeQuery"));
        long start = System.nanoTime();
        try (Statement s = nativeEngine.createStatement()) {
            s.setQueryTimeout(1);
            try (ResultSet r = s.executeQuery(sql)) {
                r.next();
                fail("a join of " + r.getLong(1) + " rows was expected to take longer than a second");
            } catch (SQLTimeoutException e) {
                long millis = (System.nanoTime() - start) / 1_000_000;
                assertTrue("stopped after " + millis + " ms", millis < 3_000);
            }
        }
        // The connection goes on.
        assertEquals(List.of(List.of("200000")), rows(nativeEngine, "SELECT COUNT(*) + 0 FROM trades"));
    }

    @Test
    public void cancelStopsANativeJoin() throws Exception {
        cancelStops(nativeEngine);
        cancelStops(oneThread);
    }

    private static void cancelStops(Connection nativeEngine) throws Exception {
        String sql = "SELECT COUNT(*) FROM trades a JOIN trades b ON a.sym = b.sym WHERE a.price + b.price > 0";
        try (Statement s = nativeEngine.createStatement()) {
            Thread canceller = new Thread(() -> {
                try {
                    Thread.sleep(300);
                    s.cancel();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            canceller.start();
            long start = System.nanoTime();
            try (ResultSet r = s.executeQuery(sql)) {
                r.next();
                fail("the join was expected to run longer than the cancel's 300 ms");
            } catch (SQLException e) {
                assertEquals(e.toString(), "57014", e.getSQLState());
                long millis = (System.nanoTime() - start) / 1_000_000;
                assertTrue("stopped after " + millis + " ms", millis < 2_000);
            }
            canceller.join();
        }
    }

    @Test
    public void memoryBoundFailsClearly() throws SQLException {
        System.setProperty(NativeEngine.MEMORY_PROPERTY, "1m");
        try (Connection c = DriverManager.getConnection("jdbc:vortex:" + dir + ";engine=native");
             Statement s = c.createStatement()) {
            // A hash join's build side does not spill (sorts and aggregates would, to disk).
            String sql = "SELECT COUNT(*) FROM trades a JOIN trades b ON a.ts = b.ts";
            assertTrue(explain(c, sql).get(0).startsWith("NativeQuery"));
            try (ResultSet r = s.executeQuery(sql)) {
                r.next();
                fail("a hash table of 200,000 rows in 1 MB was expected to fail, not count " + r.getLong(1));
            } catch (SQLException e) {
                assertTrue(e.getMessage(), e.getMessage().toLowerCase().contains("memory")
                        || e.getMessage().contains("Resources exhausted"));
            }
        } finally {
            System.clearProperty(NativeEngine.MEMORY_PROPERTY);
        }
    }

    @Test
    public void dateTruncAndStrftimeRunNativelyAsCalciteAnswers() throws SQLException {
        List<String> queries = new ArrayList<>();
        for (String unit : new String[] {"year", "quarter", "month", "week", "day"}) {
            queries.add("SELECT id, date_trunc('" + unit + "', d) FROM dates ORDER BY id");
            queries.add("SELECT date_trunc('" + unit + "', d) AS p, COUNT(*) FROM dates GROUP BY 1 ORDER BY 1");
        }
        for (String unit : new String[] {"year", "quarter", "month", "week", "day", "hour", "minute", "second",
            "millisecond"}) {
            queries.add("SELECT id, date_trunc('" + unit + "', us), date_trunc('" + unit + "', s) FROM times ORDER BY id");
        }
        queries.add("SELECT id, strftime(d, '%Y-%m-%d %j %a %A %b %B %y') FROM dates ORDER BY id");
        queries.add("SELECT id, strftime(us, '%Y/%m/%d %H:%M:%S %I %p'), strftime(s, '%H') FROM times ORDER BY id");
        answerNativelyAsCalcite(queries, true);
        // Calcite's decades, and a format chrono would write otherwise, stay with Calcite.
        for (String sql : List.of("SELECT id, date_trunc('decade', d) FROM dates ORDER BY id",
                "SELECT id, FORMAT_DATETIME('%Q', us) FROM times ORDER BY id")) {
            assertTrue(sql, explain(nativeEngine, sql).get(0).startsWith("-- engine calcite"));
            assertEquals(sql, rows(calcite, sql), rows(nativeEngine, sql));
        }
    }

    /** Days from 1968-12-25 to 2032-01-09 with every 11th null: leap years, year and quarter ends. */
    private static void writeDates(Path path) {
        Schema schema = Schema.of(new Field("id", DataType.INT32, false), new Field("d", DataType.DATE, true),
                new Field("amount", DataType.decimal(12, 2), true));
        int n = 23_030;
        int[] ids = new int[n];
        int[] days = new int[n];
        boolean[] valid = new boolean[n];
        BigDecimal[] amounts = new BigDecimal[n];
        for (int i = 0; i < n; i++) {
            ids[i] = i;
            days[i] = Math.toIntExact(LocalDate.of(1968, 12, 25).plusDays(i).toEpochDay());
            valid[i] = i % 11 != 0;
            amounts[i] = i % 7 == 0 ? null : BigDecimal.valueOf((i * 7919L) % 200_000 - 50_000, 2);
        }
        try (VortexWriter w = VortexWriter.create(path, schema)) {
            w.write(new Batch(schema, n).set("id", ids).set("d", days, valid).set("amount", amounts));
            w.finish();
        }
    }

    /**
     * Timestamps in three units around the epoch: microseconds (with parts of a millisecond, some
     * negative, some null), seconds, and milliseconds with a zone.
     */
    private static void writeTimes(Path path) {
        Schema schema = Schema.of(new Field("id", DataType.INT32, false),
                new Field("us", DataType.timestamp(DataType.TimeUnit.MICROSECONDS, null), true),
                new Field("s", DataType.timestamp(DataType.TimeUnit.SECONDS, null), false),
                new Field("z", DataType.timestamp(DataType.TimeUnit.MILLISECONDS, "UTC"), false));
        int n = 5_000;
        int[] ids = new int[n];
        long[] us = new long[n];
        boolean[] valid = new boolean[n];
        long[] s = new long[n];
        long[] z = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = i;
            us[i] = -2_000_000_000L + i * 777_777L - (i % 3) * 500L;
            valid[i] = i % 13 != 0;
            s[i] = -3_000_000_000L + i * 1_234_567L;
            z[i] = i * 259_200_000L - 500_000_000_000L;
        }
        us[1] = -1_500; // 23:59:59.998 to Calcite (floored)
        us[2] = -500; // 23:59:59.999
        us[3] = 999; // the epoch
        try (VortexWriter w = VortexWriter.create(path, schema)) {
            w.write(new Batch(schema, n).set("id", ids).set("us", us, valid).set("s", s).set("z", z));
            w.finish();
        }
    }

    @Test
    public void timestampsRunNativelyAsCalciteReadsThem() throws SQLException {
        List<String> queries = List.of(
                "SELECT id, us, s, z FROM times WHERE MOD(id, 97) = 0 ORDER BY id",
                "SELECT EXTRACT(YEAR FROM s) AS y, COUNT(*), MIN(us), MAX(z) FROM times GROUP BY EXTRACT(YEAR FROM s)"
                        + " ORDER BY 1",
                // Milliseconds floored: -1.5 ms is 23:59:59.998, not .999; -0.5 ms is before the epoch.
                "SELECT id, us FROM times WHERE us = TIMESTAMP '1969-12-31 23:59:59.998'"
                        + " OR us BETWEEN TIMESTAMP '1969-12-31 23:59:59.999' AND TIMESTAMP '1970-01-01 00:00:00.001'"
                        + " ORDER BY id",
                "SELECT id FROM times WHERE us < TIMESTAMP '1970-01-01 00:00:00'"
                        + " AND us > TIMESTAMP '1969-12-31 23:59:59.900' ORDER BY id",
                "SELECT COUNT(*), COUNT(us), MIN(s), MAX(s), SUM(id * 2) FROM times WHERE z > TIMESTAMP '1960-01-01 00:00:00'",
                "SELECT a.id, b.us FROM times a JOIN times b ON a.us = b.us AND a.id = b.id WHERE MOD(a.id, 50) = 0 ORDER BY 1",
                "SELECT us, id FROM times ORDER BY us DESC NULLS LAST, id LIMIT 7");
        answerNativelyAsCalcite(queries, true);
        // A comparison is the scan's, over the stored microseconds (zone maps, the prepared filter).
        List<String> plan = explain(nativeEngine, "SELECT id FROM times WHERE us > TIMESTAMP '1970-01-01 00:00:00' ORDER BY id");
        assertTrue(String.join("\n", plan), plan.stream().anyMatch(l -> l.contains("VortexScan: table=vortex.times")
                && l.contains("filter=us >= I64(1000)")));
    }

    /**
     * Unsigned integers of four widths (values above the signed range among them), times of day
     * in seconds and microseconds (parts of a millisecond), and binaries, with nulls.
     */
    private static void writeKinds(Path path) {
        Schema schema = Schema.of(new Field("id", DataType.INT32, false),
                new Field("u8", DataType.UINT8, false), new Field("u16", DataType.UINT16, false),
                new Field("u32", DataType.UINT32, true), new Field("u64", DataType.UINT64, false),
                new Field("ts", DataType.time(DataType.TimeUnit.SECONDS), false),
                new Field("tus", DataType.time(DataType.TimeUnit.MICROSECONDS), true),
                new Field("b", DataType.BINARY, true));
        int n = 4_000;
        int[] ids = new int[n];
        byte[] u8 = new byte[n];
        short[] u16 = new short[n];
        int[] u32 = new int[n];
        long[] u64 = new long[n];
        long[] ts = new long[n];
        long[] tus = new long[n];
        byte[][] b = new byte[n][];
        boolean[] valid = new boolean[n];
        for (int i = 0; i < n; i++) {
            ids[i] = i;
            u8[i] = (byte) (i * 7); // 0..255: half above Byte.MAX_VALUE
            u16[i] = (short) (i * 31);
            u32[i] = (int) (i * 1_234_567L); // past 2^31 from i = 1740
            u64[i] = i * 4_611_686_018_427_387L; // past 2^63 from i = 2000
            ts[i] = (i * 61L) % 86_400;
            tus[i] = (i * 21_600_000_123L + i % 7 * 333L) % 86_400_000_000L;
            valid[i] = i % 11 != 0;
            b[i] = i % 13 == 0 ? null : new byte[] {(byte) (i % 5), (byte) (i % 3), (byte) 0xff};
        }
        try (VortexWriter w = VortexWriter.create(path, schema)) {
            w.write(new Batch(schema, n).set("id", ids).set("u8", u8).set("u16", u16).set("u32", u32, valid)
                    .set("u64", u64).set("ts", ts).set("tus", tus, valid).set("b", b));
            w.finish();
        }
    }

    @Test
    public void unsignedTimeAndBinaryColumnsRunNativelyAsCalciteReadsThem() throws SQLException {
        List<String> queries = List.of(
                "SELECT id, u8, u16, u32, u64, ts, tus, b FROM kinds WHERE MOD(id, 37) = 0 ORDER BY id",
                "SELECT u8 / 64 AS q, COUNT(*), SUM(u16), MAX(u32), MIN(u64), MAX(u64) FROM kinds"
                        + " GROUP BY u8 / 64 ORDER BY 1",
                "SELECT id FROM kinds WHERE u32 > 3000000000 AND u8 < 100 AND u64 > 9300000000000000000 ORDER BY id",
                "SELECT COUNT(*), COUNT(b), COUNT(DISTINCT b) FROM kinds WHERE b IS NOT NULL OR u16 < 1000",
                "SELECT id FROM kinds WHERE b = X'0201ff' ORDER BY id",
                "SELECT a.id, b.u64 FROM kinds a JOIN kinds b ON a.u64 = b.u64 AND a.tus = b.tus WHERE MOD(a.id, 50) = 0"
                        + " ORDER BY 1");
        answerNativelyAsCalcite(queries, true);
        // isthmus binds no MIN, MAX or EXTRACT of a time of day, and datafusion-substrait reads no
        // TIME literal of isthmus's: Calcite runs these.
        for (String sql : List.of("SELECT u8 / 64 AS q, MIN(tus), MAX(ts) FROM kinds GROUP BY u8 / 64 ORDER BY 1",
                "SELECT EXTRACT(HOUR FROM tus) AS h, COUNT(*) FROM kinds GROUP BY EXTRACT(HOUR FROM tus) ORDER BY 1",
                "SELECT id, tus FROM kinds WHERE tus BETWEEN TIME '06:00:00' AND TIME '06:00:01.5'"
                        + " OR ts = TIME '00:01:01' ORDER BY id")) {
            List<String> plan = explain(nativeEngine, sql);
            assertTrue(plan.get(0), plan.get(0).contains("declined this statement"));
            List<List<String>> expected = rows(calcite, sql);
            assertFalse(sql, expected.isEmpty());
            assertEquals(sql, expected, rows(nativeEngine, sql));
        }
    }

    @Test
    public void extractRunsNativelyWhereDataFusionNumbersAlike() throws SQLException {
        for (String unit : List.of("YEAR", "QUARTER", "MONTH", "DAY")) {
            String sql = "SELECT EXTRACT(" + unit + " FROM d) AS u, COUNT(*), SUM(id), SUM(EXTRACT(" + unit
                    + " FROM d) * 1000000000000) FROM dates GROUP BY EXTRACT(" + unit + " FROM d) ORDER BY 1";
            List<String> plan = explain(nativeEngine, sql);
            assertTrue(sql + " runs natively: " + plan, plan.get(0).startsWith("NativeQuery"));
            List<List<String>> expected = rows(calcite, sql);
            assertTrue(sql, expected.size() > 4);
            assertEquals(sql, expected, rows(nativeEngine, sql));
        }
        // Calcite numbers the days of the week from Sunday = 1, DataFusion from Sunday = 0; isthmus
        // has no Substrait form of the day of the year. Both run on Calcite.
        for (String unit : List.of("DOW", "DOY")) {
            String sql = "SELECT EXTRACT(" + unit + " FROM d), COUNT(*) FROM dates GROUP BY EXTRACT(" + unit
                    + " FROM d) ORDER BY 1";
            List<String> plan = explain(nativeEngine, sql);
            assertTrue(plan.get(0), plan.get(0).contains("declined this statement") && plan.get(0).contains(unit));
            assertEquals(rows(calcite, sql), rows(nativeEngine, sql));
        }
    }

    /** Trades under {@code d=DAY/v=N/c=NAME/}, 8 folders, the default partition among them. */
    private static void writeHive(Path hive) throws Exception {
        int seed = 1;
        for (String d : List.of("2026-01-01", "2026-01-02")) {
            for (int v = 1; v <= 2; v++) {
                for (String c : List.of("x", "__HIVE_DEFAULT_PARTITION__")) {
                    Path folder = hive.resolve("d=" + d).resolve("v=" + v).resolve("c=" + c);
                    java.nio.file.Files.createDirectories(folder);
                    Trades.write(folder.resolve("f.vortex"), 3_000, seed++, null);
                }
            }
        }
    }

    @Test
    public void hivePartitionColumnsRunNatively() throws SQLException {
        List<String> queries = List.of(
                "SELECT d, v, c, COUNT(*), SUM(volume) FROM hive GROUP BY d, v, c ORDER BY d, v, c",
                "SELECT sym, COUNT(*), MIN(price) FROM hive WHERE d = DATE '2026-01-02' AND c IS NULL"
                        + " AND sym IN ('AAPL', 'MSFT') GROUP BY sym ORDER BY sym",
                "SELECT DISTINCT d, c FROM hive WHERE v > 1 ORDER BY 1, 2",
                "SELECT h.d, t.sym, COUNT(*) FROM hive h JOIN trades t ON h.ts = t.ts AND h.sym = t.sym"
                        + " WHERE h.v = 2 GROUP BY h.d, t.sym ORDER BY 1, 2 LIMIT 20",
                "SELECT ts, d, v, c, volume FROM hive WHERE c = 'x' AND volume > 990 ORDER BY ts, d, v LIMIT 10");
        answerNativelyAsCalcite(queries, true);
        // Folders whose values fail a filter on partition columns are not read.
        assertEquals(8, scannedSplits("SELECT COUNT(*) + MAX(volume) FROM hive"));
        assertEquals(4, scannedSplits("SELECT COUNT(*) + MAX(volume) FROM hive WHERE d = DATE '2026-01-02'"));
        assertEquals(1, scannedSplits("SELECT COUNT(*) + MAX(volume) FROM hive WHERE d = DATE '2026-01-02' AND v = 1"
                + " AND c IS NOT NULL"));
    }

    /** The splits the native scan of {@code sql}'s one table reads, from EXPLAIN. */
    private static int scannedSplits(String sql) throws SQLException {
        List<String> plan = explain(nativeEngine, sql);
        assertTrue(sql + " runs natively: " + plan, plan.get(0).startsWith("NativeQuery"));
        for (String line : plan) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("VortexScan: .*splits=(\\d+)").matcher(line);
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
        }
        throw new AssertionError("no scan in " + plan);
    }

    @Test
    public void pushedAggregatesFoldingDecimalsRunNatively() throws SQLException {
        String decimals = "SELECT COUNT(*), SUM(amount), MIN(amount), MAX(amount) FROM dates WHERE id > 100";
        assertTrue(explain(calcite, decimals).get(0), explain(calcite, decimals).get(0).startsWith("VortexAggregateScan"));
        List<String> plan = explain(nativeEngine, decimals);
        assertTrue(plan.get(0), plan.get(0).startsWith("NativeQuery"));
        assertEquals(rows(calcite, decimals), rows(nativeEngine, decimals));
        // Counts and integers stay on the kernels.
        String integers = "SELECT COUNT(*), COUNT(amount), SUM(id), MAX(id) FROM dates WHERE id > 100";
        plan = explain(nativeEngine, integers);
        assertTrue(plan.get(0), plan.get(0).startsWith("VortexAggregateScan"));
        assertEquals(rows(calcite, integers), rows(nativeEngine, integers));
    }

    @Test
    public void notInRunsNatively() throws SQLException {
        String sql = "SELECT sym, COUNT(*) FROM trades WHERE volume NOT IN (SELECT volume FROM trades WHERE sym = 'AAPL'"
                + " AND volume < 300) GROUP BY sym ORDER BY sym";
        List<String> plan = explain(nativeEngine, sql);
        assertTrue(sql + " runs natively: " + plan, plan.get(0).startsWith("NativeQuery"));
        assertEquals(sql, rows(calcite, sql), rows(nativeEngine, sql));
    }

    @Test
    public void unknownEngineIsAnError() {
        try {
            DriverManager.getConnection("jdbc:vortex:" + dir + ";engine=fast").close();
            fail("engine=fast was accepted");
        } catch (SQLException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("engine must be calcite or native, not 'fast'"));
        }
    }

    static List<String> explain(Connection c, String sql) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            while (r.next()) {
                lines.add(r.getString(1));
            }
        }
        assertFalse(sql, lines.isEmpty());
        return lines;
    }

    /** The rows as text, doubles to 12 significant digits (sums in another order differ in the last bits). */
    static List<List<String>> rows(Connection c, String sql) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                List<String> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    Object v = r.getObject(i);
                    row.add(v instanceof Double d ? String.format("%.12g", d)
                            : v instanceof byte[] b ? java.util.HexFormat.of().formatHex(b) : String.valueOf(v));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
