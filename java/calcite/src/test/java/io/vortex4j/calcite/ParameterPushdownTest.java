package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import org.junit.Test;

/**
 * JDBC parameters ({@code ?}) in pushed filters: integer columns against integer parameters and
 * string equality go into the scan as parameters, bound when the scan runs; every answer equals
 * the push-down-off connection's for the same values, nulls and out-of-range values included.
 */
public class ParameterPushdownTest extends WithConnections {
    /** The sorted rows of {@code sql} with {@code values} bound (null: SQL NULL of {@code nullType}). */
    private static List<String> answer(Connection c, String sql, int nullType, Object... values) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                if (values[i] == null) {
                    ps.setNull(i + 1, nullType);
                } else {
                    ps.setObject(i + 1, values[i]);
                }
            }
            return Sql.answer(ps.executeQuery());
        }
    }

    private static void check(String sql, int nullType, Object... values) throws SQLException {
        List<String> expected = answer(plain, sql, nullType, values);
        assertEquals(sql + " " + java.util.Arrays.toString(values), expected, answer(push, sql, nullType, values));
    }

    private static String explain(String sql, Object... values) throws SQLException {
        StringBuilder sb = new StringBuilder();
        try (PreparedStatement ps = push.prepareStatement("EXPLAIN PLAN FOR " + sql)) {
            for (int i = 0; i < values.length; i++) {
                ps.setObject(i + 1, values[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sb.append(rs.getString(1)).append('\n');
                }
            }
        }
        return sb.toString();
    }

    @Test
    public void stringEqualityParametersArePushedAndBoundPerExecution() throws SQLException {
        String count = "SELECT count(*) FROM trades WHERE sym = ?";
        for (String v : new String[] {"AAPL", "MSFT", "none", "", "aapl", null}) {
            check(count, Types.VARCHAR, v);
            check("SELECT count(*), sum(volume) FROM trades WHERE sym <> ?", Types.VARCHAR, v);
            check("SELECT sym, count(*), min(volume) FROM trades WHERE sym = ? OR volume < 20 GROUP BY sym", Types.VARCHAR, v);
            // Merged with literals into IN / NOT IN lists that hold the parameter.
            check("SELECT sym, count(*) FROM trades WHERE sym = ? OR sym = 'MSFT' GROUP BY sym", Types.VARCHAR, v);
            check("SELECT count(*) FROM trades WHERE sym <> ? AND sym <> 'MSFT'", Types.VARCHAR, v);
        }
        String plan = explain(count, "AAPL");
        assertTrue(plan, plan.contains("VortexAggregateScan") && plan.contains("filter=[sym = ?0]"));
        assertFalse(plan, plan.contains("EnumerableCalc"));
        // String ordering is not pushed (UTF-16 vs code point order): Calcite keeps it.
        String range = "SELECT count(*) FROM trades WHERE sym < ?";
        check(range, Types.VARCHAR, "GOOG");
        assertFalse(explain(range, "GOOG"), explain(range, "GOOG").contains("filter="));
    }

    @Test
    public void integerParametersArePushedWithEveryOperator() throws SQLException {
        String[] ops = {"=", "<>", "<", "<=", ">", ">="};
        Object[] volumes = {0L, 500L, 1000L, -1L, Long.MAX_VALUE, Long.MIN_VALUE, null};
        for (String op : ops) {
            for (Object v : volumes) {
                check("SELECT count(*) FROM trades WHERE volume " + op + " ?", Types.BIGINT, v);
                check("SELECT sym, count(*) FROM trades WHERE NOT (? " + op + " volume) AND sym IN ('AAPL', 'IBM') GROUP BY sym",
                        Types.BIGINT, v);
            }
        }
        String two = "SELECT sym, sum(volume) FROM trades WHERE sym = ? AND volume > ? GROUP BY sym";
        check(two, Types.BIGINT, "AAPL", 500L);
        check(two, Types.BIGINT, "AAPL", null);
        String plan = explain(two, "AAPL", 500L);
        assertTrue(plan, plan.contains("filter=[(sym = ?0 AND volume > ?1)]") && !plan.contains("EnumerableCalc"));
    }

    @Test
    public void narrowColumnsCompareExactlyWithWideParameters() throws SQLException {
        // CAST(? AS BIGINT) makes the parameter wider than the column: values outside the
        // column's range must select all or nothing, exactly.
        String[] columns = {"i8", "i16", "i32", "u8", "u16", "u32"};
        Object[] values = {0L, 1L, -1L, 127L, 128L, -129L, 255L, 256L, 65_536L, 4_294_967_295L, 4_294_967_296L,
            Long.MAX_VALUE, Long.MIN_VALUE, null};
        for (String c : columns) {
            for (String op : new String[] {"=", "<", ">="}) {
                for (Object v : values) {
                    check("SELECT count(*) FROM types WHERE " + c + " " + op + " CAST(? AS BIGINT)", Types.BIGINT, v);
                    check("SELECT count(*) FROM types WHERE " + c + " " + op + " ?", Types.BIGINT, v);
                }
            }
        }
        String plan = explain("SELECT count(*) FROM types WHERE i8 < ?", 100L);
        assertTrue(plan, plan.contains("filter=[i8 < ?0]"));
    }
}
