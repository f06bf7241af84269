package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.compute.PredicateEvaluator;
import io.vortex4j.reader.oracle.ReferenceScan;
import io.vortex4j.reader.predicate.Predicate;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * SQL answers over the trades table (pushed down) against answers computed independently: plain
 * Java over every row read one by one, and vortex's own filtered scan ({@link
 * ReferenceScan#selectedRows}).
 */
public class BruteForceTest {
    /** One trade as read from the file (a class, not a record: Gradle 4.4's test scanner cannot read records). */
    static final class Trade {
        final int row;
        final long ts;
        final String sym;
        final double price;
        final long volume;

        Trade(int row, long ts, String sym, double price, long volume) {
            this.row = row;
            this.ts = ts;
            this.sym = sym;
            this.price = price;
            this.volume = volume;
        }
    }

    private static Connection push;
    private static List<Trade> trades;
    private static Map<Long, Integer> rowOfTs;

    @BeforeClass
    public static void load() throws SQLException {
        push = VortexSql.connect(TestData.dir(), true);
        trades = new ArrayList<>();
        rowOfTs = new HashMap<>();
        try (VortexFile f = VortexFile.open(TestData.dir().resolve("trades.vortex"));
             Scan scan = f.scan("ts", "sym", "price", "volume")) {
            int row = 0;
            for (Chunk c : scan) {
                try (c) {
                    for (int i = 0; i < c.length(); i++) {
                        Trade t = new Trade(row, (Long) Values.valueAt(c.column(0), i), (String) Values.valueAt(c.column(1), i),
                                (Double) Values.valueAt(c.column(2), i), (Long) Values.valueAt(c.column(3), i));
                        trades.add(t);
                        rowOfTs.put(t.ts, row++);
                    }
                }
            }
        }
        assertEquals(TestData.TRADES_ROWS, trades.size());
        assertEquals("ts is unique", trades.size(), rowOfTs.size());
    }

    @AfterClass
    public static void close() throws SQLException {
        push.close();
    }

    private static long count(java.util.function.Predicate<Trade> p) {
        return trades.stream().filter(p).count();
    }

    /** The rows (positions in the file) a query selecting {@code ts} returns. */
    private static Set<Integer> rowsOf(String sql) throws SQLException {
        Set<Integer> out = new TreeSet<>();
        for (long ts : Sql.longs(push, sql)) {
            out.add(rowOfTs.get(ts));
        }
        return out;
    }

    private static Set<Integer> rows(java.util.function.Predicate<Trade> p) {
        Set<Integer> out = new TreeSet<>();
        for (Trade t : trades) {
            if (p.test(t)) {
                out.add(t.row);
            }
        }
        return out;
    }

    private static Set<Integer> reference(Predicate p) {
        try (VortexFile f = VortexFile.open(TestData.dir().resolve("trades.vortex"))) {
            Set<Integer> out = new TreeSet<>();
            for (long r : ReferenceScan.selectedRows(f, p)) {
                out.add(Math.toIntExact(r));
            }
            return out;
        }
    }

    @Test
    public void countsOfEqualityFilters() throws SQLException {
        for (String sym : new String[] {"AAPL", "SHOP", "BRK.B", "NOPE"}) {
            long expected = count(t -> sym.equals(t.sym));
            assertEquals(sym, expected, Sql.scalar(push, "SELECT count(*) FROM trades WHERE sym = '" + sym + "'"));
            assertEquals(sym, expected, (long) reference(Predicate.eq("sym", sym)).size());
        }
        assertTrue(count(t -> "AAPL".equals(t.sym)) > 10_000);
        assertEquals(count(t -> t.sym == null), Sql.scalar(push, "SELECT count(*) FROM trades WHERE sym IS NULL"));
        assertEquals(count(t -> t.sym != null && !t.sym.equals("AAPL")),
                Sql.scalar(push, "SELECT count(*) FROM trades WHERE sym <> 'AAPL'"));
        assertEquals(count(t -> t.sym != null && t.sym.compareTo("C") < 0),
                Sql.scalar(push, "SELECT count(*) FROM trades WHERE 'C' > sym"));
    }

    @Test
    public void selectedRowsMatchJavaAndVortex() throws SQLException {
        Set<String> three = new java.util.HashSet<>(List.of("AAPL", "MSFT", "NVDA"));
        assertEquals(rows(t -> three.contains(t.sym)),
                rowsOf("SELECT ts FROM trades WHERE sym IN ('AAPL', 'MSFT', 'NVDA')"));
        assertEquals(reference(Predicate.in("sym", "AAPL", "MSFT", "NVDA")),
                rowsOf("SELECT ts FROM trades WHERE sym IN ('NVDA', 'MSFT', 'AAPL')"));
        // NOT IN: null symbols are unknown, so not selected.
        assertEquals(rows(t -> t.sym != null && !three.contains(t.sym)),
                rowsOf("SELECT ts FROM trades WHERE sym NOT IN ('AAPL', 'MSFT', 'NVDA')"));
        assertEquals(reference(Predicate.notIn("sym", "AAPL", "MSFT", "NVDA")),
                rowsOf("SELECT ts FROM trades WHERE sym NOT IN ('AAPL', 'MSFT', 'NVDA')"));
        // NOT IN with a NULL in the list selects nothing.
        assertEquals(Set.of(), rowsOf("SELECT ts FROM trades WHERE sym NOT IN ('AAPL', NULL)"));
        assertEquals(rows(t -> "AAPL".equals(t.sym)), rowsOf("SELECT ts FROM trades WHERE sym IN ('AAPL', NULL)"));
        assertEquals(rows(t -> ("TSLA".equals(t.sym) && t.volume > 500) || t.sym == null),
                rowsOf("SELECT ts FROM trades WHERE (sym = 'TSLA' AND volume > 500) OR sym IS NULL"));
        assertEquals(rows(t -> t.price >= 100 && t.price <= 200 && t.sym != null && !t.sym.equals("V")),
                rowsOf("SELECT ts FROM trades WHERE price BETWEEN 100 AND 200 AND NOT (sym = 'V' OR sym IS NULL)"));
        assertEquals(rows(t -> !(t.price >= 100 && t.price <= 200)),
                rowsOf("SELECT ts FROM trades WHERE price NOT BETWEEN 100 AND 200"));
        assertEquals(reference(Predicate.not(Predicate.between("price", 100.0, 200.0))),
                rowsOf("SELECT ts FROM trades WHERE price NOT BETWEEN 100 AND 200"));
        assertEquals(rows(t -> t.volume >= 1000 || (t.sym != null && t.sym.compareTo("X") >= 0)),
                rowsOf("SELECT ts FROM trades WHERE 1000 <= volume OR sym >= 'X'"));
        long from = trades.get(1000).ts;
        long to = trades.get(150_000).ts;
        assertEquals(rows(t -> t.ts >= from && t.ts < to && "V".equals(t.sym)),
                rowsOf("SELECT ts FROM trades WHERE ts >= " + from + " AND ts < " + to + " AND sym = 'V'"));
    }

    @Test
    public void untranslatableFiltersStillGiveRightAnswers() throws SQLException {
        assertEquals(rows(t -> "AAPL".equals(t.sym)), rowsOf("SELECT ts FROM trades WHERE UPPER(sym) = 'AAPL'"));
        assertEquals(rows(t -> t.sym != null && t.sym.startsWith("A")), rowsOf("SELECT ts FROM trades WHERE sym LIKE 'A%'"));
        assertEquals(rows(t -> t.sym != null && t.sym.startsWith("M") && t.volume > 300),
                rowsOf("SELECT ts FROM trades WHERE sym LIKE 'M%' AND volume > 300"));
        assertEquals(count(t -> t.sym != null && t.sym.length() == 2),
                Sql.scalar(push, "SELECT count(*) FROM trades WHERE CHAR_LENGTH(sym) = 2"));
    }

    /** Per group: count(*), count(sym), sum(volume), min(volume), max(volume). */
    private static Map<String, long[]> groups(java.util.function.Predicate<Trade> p) {
        Map<String, long[]> out = new TreeMap<>(java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()));
        for (Trade t : trades) {
            if (p.test(t)) {
                long[] g = out.computeIfAbsent(t.sym, k -> new long[] {0, 0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
                g[0]++;
                g[1] += t.sym == null ? 0 : 1;
                g[2] += t.volume;
                g[3] = Math.min(g[3], t.volume);
                g[4] = Math.max(g[4], t.volume);
            }
        }
        return out;
    }

    private static void assertGroups(Map<String, long[]> expected, String where) throws SQLException {
        String sql = "SELECT sym, count(*), count(sym), sum(volume), min(volume), max(volume), avg(volume)"
                + " FROM trades " + where + " GROUP BY sym";
        assertTrue(Sql.explain(push, sql), Sql.explain(push, sql).contains("VortexAggregateScan"));
        Map<String, List<Object>> actual = new HashMap<>();
        for (List<Object> row : Sql.rows(push, sql)) {
            actual.put((String) row.get(0), row);
        }
        assertEquals(sql, new ArrayList<>(expected.keySet()), new ArrayList<>(sortedKeys(actual)));
        for (Map.Entry<String, long[]> e : expected.entrySet()) {
            List<Object> row = actual.get(e.getKey());
            long[] g = e.getValue();
            // SUM of BIGINT is DECIMAL(38, 0), AVG of integers DOUBLE (the exact sum's double over the count).
            assertEquals(sql + " " + e.getKey(), List.of(g[0], g[1], java.math.BigDecimal.valueOf(g[2]), g[3], g[4],
                    "D" + (double) g[2] / g[0]), row.subList(1, 7));
        }
    }

    private static Set<String> sortedKeys(Map<String, List<Object>> actual) {
        Set<String> keys = new TreeSet<>(java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()));
        keys.addAll(actual.keySet());
        return keys;
    }

    @Test
    public void groupedAggregates() throws SQLException {
        assertGroups(groups(t -> true), "");
        assertGroups(groups(t -> t.sym != null && Set.of("AAPL", "MSFT", "SHOP").contains(t.sym)), "WHERE sym IN ('AAPL', 'MSFT', 'SHOP')");
        assertGroups(groups(t -> t.volume > 900 || t.sym == null), "WHERE volume > 900 OR sym IS NULL");
        assertGroups(groups(t -> t.price < 50), "WHERE price < 50");
    }

    @Test
    public void ungroupedAggregates() throws SQLException {
        java.util.function.Predicate<Trade> p = t -> "AAPL".equals(t.sym) && t.volume < 600;
        long n = 0;
        long sum = 0;
        double priceSum = 0;
        double minPrice = Double.MAX_VALUE;
        for (Trade t : trades) {
            if (p.test(t)) {
                n++;
                sum += t.volume;
                priceSum += t.price;
                minPrice = Math.min(minPrice, t.price);
            }
        }
        List<Object> row = Sql.rows(push, "SELECT count(*), sum(volume), avg(volume), avg(price), min(price), sum(price)"
                + " FROM trades WHERE sym = 'AAPL' AND volume < 600").get(0);
        assertEquals(n, row.get(0));
        assertEquals(java.math.BigDecimal.valueOf(sum), row.get(1));
        assertEquals("D" + (double) sum / n, row.get(2));
        assertEquals(priceSum / n, Double.parseDouble(((String) row.get(3)).substring(1)), 1e-9 * Math.abs(priceSum / n));
        assertEquals("D" + minPrice, row.get(4));
        assertEquals(priceSum, Double.parseDouble(((String) row.get(5)).substring(1)), 1e-9 * Math.abs(priceSum));
        // No row matches: COUNT is 0 and the others are NULL.
        assertEquals(java.util.Arrays.asList(0L, null, null, null),
                Sql.rows(push, "SELECT count(*), sum(volume), avg(volume), max(ts) FROM trades WHERE sym = 'NOPE'").get(0));
        assertEquals((long) trades.size(), Sql.scalar(push, "SELECT count(*) FROM trades"));
    }

    @Test
    public void dictionaryFilterOffGivesTheSameCounts() throws SQLException {
        long expected = count(t -> t.sym != null && Set.of("AAPL", "GOOG").contains(t.sym));
        boolean before = PredicateEvaluator.isDictFilterEnabled();
        try {
            for (boolean on : new boolean[] {true, false}) {
                PredicateEvaluator.setDictFilterEnabled(on);
                assertEquals(expected, Sql.scalar(push, "SELECT count(*) FROM trades WHERE sym IN ('AAPL', 'GOOG')"));
            }
        } finally {
            PredicateEvaluator.setDictFilterEnabled(before);
        }
    }

    @Test
    public void concurrentQueriesShareTheTables() throws Exception {
        // One schema (so one open file per table) behind four connections, one per thread: JDBC
        // connections are not meant to be shared between threads, the adapter's tables are.
        VortexSchema shared = new VortexSchema(TestData.dir(), true);
        String[] syms = {"AAPL", "MSFT", "V", "SHOP"};
        List<Connection> connections = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            for (int t = 0; t < 4; t++) {
                Connection c = java.sql.DriverManager.getConnection("jdbc:calcite:", VortexSql.connectionProperties());
                org.apache.calcite.jdbc.CalciteConnection cc = c.unwrap(org.apache.calcite.jdbc.CalciteConnection.class);
                cc.getRootSchema().add(VortexSql.SCHEMA, shared);
                cc.setSchema(VortexSql.SCHEMA);
                connections.add(c);
            }
            List<java.util.concurrent.Future<List<Object>>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Connection c = connections.get(t);
                results.add(pool.submit(() -> {
                    List<Object> out = new ArrayList<>();
                    for (String sym : syms) {
                        out.add(Sql.scalar(c, "SELECT count(*) FROM trades WHERE sym = '" + sym + "'"));
                        out.add(Sql.rows(c, "SELECT sum(volume) FROM trades WHERE sym = '" + sym + "' AND price > 0"
                                + " AND UPPER(sym) = '" + sym + "'").get(0).get(0));
                    }
                    return out;
                }));
            }
            List<Object> expected = new ArrayList<>();
            for (String sym : syms) {
                expected.add(count(t -> sym.equals(t.sym)));
                expected.add(trades.stream().filter(t -> sym.equals(t.sym)).mapToLong(t -> t.volume).sum());
            }
            for (java.util.concurrent.Future<List<Object>> r : results) {
                assertEquals(expected, r.get());
            }
        } finally {
            pool.shutdown();
            for (Connection c : connections) {
                c.close();
            }
        }
    }

    @Test
    public void projectionsReturnTheRowsValues() throws SQLException {
        Function<Trade, String> show = t -> List.of(t.ts, Objects.toString(t.sym), "D" + t.price, t.volume).toString();
        List<String> expected = new ArrayList<>();
        for (Trade t : trades) {
            if (t.volume == 7) {
                expected.add(show.apply(t));
            }
        }
        List<String> actual = new ArrayList<>();
        for (List<Object> row : Sql.rows(push, "SELECT ts, sym, price, volume FROM trades WHERE volume = 7 ORDER BY ts")) {
            actual.add(List.of(row.get(0), Objects.toString(row.get(1)), row.get(2), row.get(3)).toString());
        }
        assertEquals(expected, actual);
    }
}
