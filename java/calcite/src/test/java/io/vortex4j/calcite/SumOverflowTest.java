package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.Test;

/**
 * Sums that overflow 32 and 64 bits ({@code sums.vortex}) are exact on every path: pushed into
 * the scan (where the reader's 64-bit sums overflow and the exact fallback answers), computed by
 * Calcite with push-down off, inside a join, in a window, and through AVG; the expected values
 * are computed here with BigInteger from the rows written.
 */
public class SumOverflowTest extends WithConnections {
    /** Exact sums of i32 and i64 and counts of non-null values, per group (key "*" for all rows). */
    private static Map<String, BigInteger[]> expected() {
        Map<String, BigInteger[]> out = new TreeMap<>();
        for (Object[] row : TestData.sumsRows()) {
            for (String key : new String[] {"*", String.valueOf(row[1])}) {
                BigInteger[] acc = out.computeIfAbsent(key, k -> new BigInteger[] {BigInteger.ZERO, BigInteger.ZERO,
                    BigInteger.ZERO});
                if (row[2] != null) {
                    acc[0] = acc[0].add(BigInteger.valueOf((Integer) row[2]));
                    acc[1] = acc[1].add(BigInteger.valueOf((Long) row[3]));
                    acc[2] = acc[2].add(BigInteger.ONE);
                }
            }
        }
        return out;
    }

    /** The expected row {@code sum(i32), sum(i64), avg(i32), avg(i64)} of {@code acc}, as {@link Sql#canonical}. */
    private static List<Object> row(BigInteger[] acc) {
        double n = acc[2].doubleValue();
        return List.of(acc[0].longValueExact(), new BigDecimal(acc[1]), "D" + acc[0].doubleValue() / n,
                "D" + acc[1].doubleValue() / n);
    }

    @Test
    public void theSumsDoOverflow() {
        BigInteger[] all = expected().get("*");
        assertTrue(all[0].bitLength() > 31);
        assertTrue(all[1].bitLength() > 63);
    }

    @Test
    public void pushedAndPlainSumsAreExact() throws SQLException {
        List<Object> expected = row(expected().get("*"));
        String sql = "SELECT sum(i32), sum(i64), avg(i32), avg(i64) FROM sums";
        for (Connection c : new Connection[] {push, plain}) {
            assertEquals(expected, Sql.rows(c, sql).get(0));
        }
        assertTrue(Sql.explain(push, sql).contains("VortexAggregateScan"));
    }

    @Test
    public void groupedSumsAreExact() throws SQLException {
        Map<String, BigInteger[]> expected = expected();
        String sql = "SELECT g, sum(i32), sum(i64), avg(i32), avg(i64) FROM sums GROUP BY g";
        for (Connection c : new Connection[] {push, plain}) {
            List<List<Object>> rows = Sql.rows(c, sql);
            assertEquals(expected.size() - 1, rows.size());
            for (List<Object> r : rows) {
                assertEquals(sql + " " + r.get(0), row(expected.get(String.valueOf(r.get(0)))), r.subList(1, 5));
            }
        }
        // A pushed filter and an expression group key go through the exact path too.
        List<Object> g1 = row(expected.get("g1"));
        assertEquals(List.of(g1.get(1)), Sql.rows(push, "SELECT sum(i64) FROM sums WHERE g = 'g1'").get(0));
        assertEquals(List.of("G1", g1.get(1)),
                Sql.rows(push, "SELECT UPPER(g), sum(i64) FROM sums WHERE g = 'g1' GROUP BY UPPER(g)").get(0));
    }

    /**
     * Grouped by a partition column and a file column, the exact fallback keys the rows by the
     * split's partition values: {@code sums} copied into {@code h=0/}, {@code h=1/} by id parity.
     */
    @Test
    public void sumsGroupedByPartitionAndFileColumnsAreExact() throws Exception {
        Path root = java.nio.file.Files.createTempDirectory("vortex4j-hsums");
        try {
            Path source = TestData.dir().resolve("sums.vortex");
            RowCopier.copy(source, List.of(root.resolve("hsums/h=0/f.vortex"), root.resolve("hsums/h=1/f.vortex")),
                    row -> (int) (row % 2));
            String sql = "SELECT h, g, count(*), sum(i64), avg(i32) FROM hsums GROUP BY h, g";
            String flat = "SELECT CAST(MOD(id, 2) AS BIGINT) AS h, g, count(*), sum(i64), avg(i32) FROM sums"
                    + " GROUP BY CAST(MOD(id, 2) AS BIGINT), g";
            List<List<Object>> expected = Answers.sorted(Sql.rows(plain, flat));
            assertEquals(12, expected.size());
            try (Connection c = VortexSql.connect(root, true)) {
                String plan = Sql.explain(c, sql);
                assertTrue(plan, plan.contains("VortexAggregateScan") && plan.contains("group=[h, g]"));
                Answers.assertClose(sql, expected, Answers.sorted(Sql.rows(c, sql)));
            }
        } finally {
            DatasetTablesTest.delete(root);
        }
    }

    @Test
    public void calcitesOwnSumsInsideAJoinAndAWindowAreExact() throws SQLException {
        Map<String, BigInteger[]> expected = expected();
        String join = "SELECT sum(a.i32), sum(a.i64), avg(a.i32), avg(a.i64) FROM sums a JOIN sums b ON a.id = b.id";
        for (Connection c : new Connection[] {push, plain}) {
            String plan = Sql.explain(c, join);
            assertTrue(plan, plan.contains("EnumerableAggregate") && plan.contains("Join"));
            assertEquals(row(expected.get("*")), Sql.rows(c, join).get(0));
            String window = "SELECT DISTINCT g, sum(i64) OVER (PARTITION BY g), sum(i32) OVER (PARTITION BY g) FROM sums";
            for (List<Object> r : Sql.rows(c, window)) {
                BigInteger[] acc = expected.get(String.valueOf(r.get(0)));
                assertEquals(window, List.of(new BigDecimal(acc[1]), acc[0].longValueExact()), r.subList(1, 3));
            }
        }
    }

    @Test
    public void typesAreTheSameEitherWay() throws SQLException {
        String sql = "SELECT sum(i32), sum(i64), avg(i32), avg(i64), sum(CAST(id AS SMALLINT)) FROM sums WHERE id < 3";
        int[] expected = {Types.BIGINT, Types.DECIMAL, Types.DOUBLE, Types.DOUBLE, Types.BIGINT};
        for (Connection c : new Connection[] {push, plain}) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                for (int i = 0; i < expected.length; i++) {
                    assertEquals(sql + " column " + (i + 1), expected[i], rs.getMetaData().getColumnType(i + 1));
                }
            }
        }
        List<Object> none = new ArrayList<>();
        none.add(null);
        none.add(null);
        assertEquals(none, Sql.rows(push, "SELECT sum(i64), avg(i64) FROM sums WHERE id < 0").get(0));
        assertEquals(none, Sql.rows(plain, "SELECT sum(i64), avg(i64) FROM sums WHERE id < 0").get(0));
    }
}
