package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.sql.SQLException;
import java.util.List;
import org.junit.Test;

/**
 * Columns named like SQL keywords ({@code keywords.vortex}: day, month, year, value, user, count,
 * timestamp, current_date, position) in filters, projections, GROUP BY and ORDER BY, unquoted
 * where the grammar allows, push-down on vs off; a column always wins over the niladic function
 * of its name; where a name cannot be used unquoted, the error says to quote it.
 */
public class KeywordColumnsTest extends WithConnections {
    private static List<String> both(String sql) throws SQLException {
        List<String> expected = Sql.answer(plain, sql);
        assertEquals(sql, expected, Sql.answer(push, sql));
        return expected;
    }

    @Test
    public void keywordsAsColumnNames() throws SQLException {
        String[] sqls = {
            "SELECT day, month, year, value, count, position FROM keywords WHERE day >= DATE '2024-06-01'",
            "SELECT count(*) FROM keywords WHERE month = 6 AND year = 2024",
            "SELECT year, month, count(*), sum(value), max(count) FROM keywords GROUP BY year, month",
            "SELECT year, sum(value) FROM keywords WHERE value > 100 GROUP BY year",
            "SELECT day FROM keywords ORDER BY year DESC, month, day LIMIT 7",
            "SELECT k.day, k.value FROM keywords k WHERE k.count = 3",
            "SELECT value + count AS total FROM keywords WHERE position BETWEEN 10 AND 20",
            "SELECT user, count(*) FROM keywords GROUP BY user",
            "SELECT count(*) FROM keywords WHERE user = 'alice' AND count > 4",
            "SELECT current_date, count(*) FROM keywords GROUP BY current_date",
            "SELECT \"timestamp\" FROM keywords WHERE \"timestamp\" > 0 AND day < DATE '2024-05-05'",
        };
        for (String sql : sqls) {
            assertTrue(sql, !both(sql).isEmpty());
        }
        assertTrue(Sql.explain(push, "SELECT count(*) FROM keywords WHERE month = 6 AND year = 2024")
                .contains("filter=[(month = 6 AND year = 2024)]"));
    }

    @Test
    public void aColumnWinsOverTheFunctionOfItsName() throws SQLException {
        // Never the SQL user ("sa") or today's date in place of the column.
        assertEquals(both("SELECT \"user\" FROM keywords"), both("SELECT user FROM keywords"));
        assertEquals(both("SELECT \"current_date\" FROM keywords"), both("SELECT current_date FROM keywords"));
        assertEquals(both("SELECT k.\"user\" FROM keywords k"), both("SELECT k.user FROM keywords k"));
        assertEquals(List.of("[alice]", "[bob]", "[carol]"), both("SELECT DISTINCT user FROM keywords WHERE user IS NOT NULL"));
        // Without such a column the function is meant.
        assertEquals(List.of("[sa]"), both("SELECT DISTINCT user FROM trades"));
        // A correlated reference is the outer query's column, as SQL says.
        assertEquals(both("SELECT \"user\" FROM keywords"),
                both("SELECT (SELECT user FROM trades LIMIT 1) FROM keywords"));
        // Where the statement has such a column but the name cannot see it: an error, not the function.
        Throwable e = ExpressionPushdownTest.error(push, "SELECT user FROM trades UNION ALL SELECT user FROM keywords");
        assertNotNull(e);
        assertTrue(e.getMessage(), e.getMessage().contains("Column 'user' not found"));
    }

    @Test
    public void aReservedWordThatCannotBeANameSaysToQuoteIt() {
        for (String sql : new String[] {"SELECT timestamp FROM keywords", "SELECT day, timestamp FROM keywords"}) {
            try {
                Sql.answer(push, sql);
                throw new AssertionError(sql + " should not parse");
            } catch (SQLException e) {
                String message = findMessage(e);
                assertTrue(message, message.contains("timestamp is a reserved word; to use it as a column or table name,"
                        + " quote it: \"timestamp\""));
            }
        }
    }

    private static String findMessage(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c.getMessage()).append(" | ");
        }
        return sb.toString();
    }
}
