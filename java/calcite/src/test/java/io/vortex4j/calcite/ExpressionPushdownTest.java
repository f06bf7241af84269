package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.vortex4j.calcite.jdbc.VortexDriver;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.VarBinDictArray;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.Test;

/**
 * Expressions of one string column, evaluated per dictionary entry with Calcite's own code:
 * every shape runs with push-down and without (Calcite evaluating each row itself), the answers
 * must be identical, and the plan must show the expression inside the scan. Shapes that can throw
 * on some values must not be pushed, and must fail the same way both ways.
 */
public class ExpressionPushdownTest extends WithConnections {
    /** Conditions on {@code words.w} that go into the scan whole. */
    static final String[] PUSHED = {
        "UPPER(w) = 'OSLO'",
        "LOWER(w) = 'oslo'",
        "INITCAP(w) = 'Oslo'",
        "CHAR_LENGTH(w) > 5",
        "CHARACTER_LENGTH(w) = 0",
        "TRIM(w) = ''",
        "TRIM(BOTH 'x' FROM w) = 'y'",
        "TRIM(LEADING ' ' FROM w) = 'Oslo  '",
        "SUBSTRING(w FROM 1 FOR 4) = 'SYM0'",
        "SUBSTRING(w FROM 2) = 'slo'",
        "SUBSTRING(w FROM -1 FOR 3) = 'O'",
        "SUBSTRING(w FROM 2 FOR 1) = U&'\\D83D'",
        "POSITION('a' IN w) > 0",
        "POSITION('😀' IN w) = 2",
        "POSITION('' IN w) = 1",
        "REPLACE(w, 'a', 'b') = 'b_b'",
        "w || '!' LIKE '%o!'",
        "CHAR_LENGTH(w || w) = 4",
        "COALESCE(w, '?') = '?'",
        "COALESCE(UPPER(w), 'NONE') IN ('NONE', 'OSLO')",
        "NULLIF(w, 'Oslo') IS NULL",
        "CASE WHEN w LIKE 'O%' THEN 1 WHEN w = '' THEN 2 ELSE 3 END = 3",
        "CASE w WHEN 'Oslo' THEN 'x' ELSE w END = 'x'",
        "CAST(CHAR_LENGTH(w) AS BIGINT) > 2",
        "CAST(w AS VARCHAR(3)) = 'Osl'",
        "CAST(w AS CHAR(3)) = 'a_b'",
        "UPPER(w) IN ('OSLO', 'BERGEN', 'STRASSE')",
        "UPPER(w) NOT IN ('OSLO', 'BERGEN')",
        "(UPPER(w) = 'OSLO') IS NOT TRUE",
        "NOT (LOWER(w) = 'oslo')",
        "w IS DISTINCT FROM 'Oslo'",
        "w < '日本'",
        "w > U&'\\E000'",
        "w >= '😀'",
        "w BETWEEN 'a' AND U&'\\FFFF'",
        "w SIMILAR TO '(O|B)%'",
        "w NOT SIMILAR TO '%[0-9]%'",
        "CHAR_LENGTH(TRIM(w)) BETWEEN 1 AND 4",
        "UPPER(LOWER(w)) = UPPER(w)",
        "UPPER(w) LIKE 'STRA%'",
        "LOWER(w) = 'straße'",
        "UPPER(w) = 'İSTANBUL'",
        "UPPER(w) = 'FF'",
        "(w = 'Oslo') = (UPPER(w) = 'OSLO')",
        "w LIKE '_slo'",
        "w LIKE 'line_break'",
        "w LIKE 'line%break'",
    };

    /** Conditions mixing a computed leaf with other columns: one reader predicate. */
    static final String[] MIXED = {
        "UPPER(w) = 'OSLO' OR id < 100",
        "UPPER(w) = 'OSLO' AND n > 5",
        "(LOWER(w) = 'bergen' OR n IS NULL) AND id BETWEEN 100 AND 9000",
        "w IN ('Oslo', 'Bergen') OR UPPER(w) = 'OSLO'",
        "NOT (CHAR_LENGTH(w) > 3 OR n < 0)",
    };

    /** Conditions that can throw on some values: Calcite evaluates them, in row order, itself. */
    static final String[] THROWING = {
        "CAST(w AS INTEGER) = 42",
        "CAST(w AS DATE) > DATE '2020-01-01'",
        "OVERLAY(w PLACING 'x' FROM 3) = 'x'",
        "SUBSTRING(w FROM 1 FOR -1) = ''",
        "10 / CHAR_LENGTH(w) > 1",
        "w LIKE 'a\\b' ESCAPE '\\'",
    };

    /** Group keys over {@code words.w}. */
    static final String[] GROUP_KEYS = {
        "UPPER(w)",
        "SUBSTRING(w FROM 1 FOR 2)",
        "CHAR_LENGTH(w)",
        "COALESCE(w, '?')",
        "CASE WHEN w LIKE 'O%' THEN 'o' ELSE w END",
        "LOWER(TRIM(w))",
        "w LIKE '%a%'",
        "CAST(CHAR_LENGTH(w) AS VARCHAR(5))",
    };

    private static String pushedPlan(String sql) throws SQLException {
        String plan = PushdownEquivalenceTest.check(sql);
        assertFalse(sql + " failed", plan.equals("error"));
        return plan;
    }

    @Test
    public void theColumnIsDictionaryEncoded() {
        // Otherwise the per-entry path would not be exercised.
        try (VortexFile f = VortexFile.open(TestData.dir().resolve("words.vortex")); Scan scan = f.scan("w")) {
            for (Chunk chunk : scan) {
                try (chunk) {
                    assertTrue(chunk.column(0).getClass().getName(), chunk.column(0) instanceof VarBinDictArray);
                }
            }
        }
    }

    @Test
    public void oneColumnConditionsArePushedWithIdenticalAnswers() throws SQLException {
        assertTrue(PUSHED.length >= 30);
        for (String condition : PUSHED) {
            String sql = "SELECT id, w FROM words WHERE " + condition;
            String plan = pushedPlan(sql);
            assertTrue(sql + "\n" + plan, plan.contains("VortexTableScan") && plan.contains("filter=["));
            assertFalse(sql + "\n" + plan, plan.contains("EnumerableCalc"));
            pushedPlan("SELECT count(*) FROM words WHERE " + condition);
        }
    }

    @Test
    public void computedLeavesCombineWithOtherLeaves() throws SQLException {
        for (String condition : MIXED) {
            String sql = "SELECT id FROM words WHERE " + condition;
            String plan = pushedPlan(sql);
            assertTrue(sql + "\n" + plan, plan.contains("filter=[") && !plan.contains("EnumerableCalc"));
        }
    }

    @Test
    public void conditionsThatMayThrowStayWithCalciteAndFailAlike() throws SQLException {
        for (String condition : THROWING) {
            String sql = "SELECT id FROM words WHERE " + condition;
            Throwable plainError = error(plain, sql);
            Throwable pushError = error(push, sql);
            assertNotNull(sql + " should fail without push-down", plainError);
            assertNotNull(sql + " should fail with push-down", pushError);
            assertEquals(sql, plainError.getClass(), pushError.getClass());
            assertEquals(sql, plainError.getMessage(), pushError.getMessage());
            String plan = Sql.explain(push, sql);
            assertFalse(sql + "\n" + plan, plan.contains("filter=["));
        }
        // With a pushed leaf beside it, the throwing conjunct still stays with Calcite.
        String plan = Sql.explain(push, "SELECT id FROM words WHERE n > 5 AND CAST(w AS INTEGER) = 42");
        assertTrue(plan, plan.contains("filter=[n > 5]") && plan.contains("CAST("));
    }

    @Test
    public void libraryFunctionsArePushedToo() throws SQLException {
        String[] conditions = {
            "w ILIKE 'oslo'", "w NOT ILIKE '%O%'", "w ILIKE 'İ%'", "w ILIKE 'STRASSE'", "w ILIKE 'σας'",
            "LEFT(w, 2) = 'Os'", "RIGHT(w, 2) = 'lo'", "REVERSE(w) = 'olsO'", "LTRIM(w) = 'Oslo  '",
            "RTRIM(w) = '  Oslo'", "CONCAT(w, 'x') = 'Oslox'", "w ~ 'o$'", "w ~* '^os'", "w !~ '[a-z]'",
        };
        String fun = ";fun=standard,postgresql,mysql";
        try (Connection on = DriverManager.getConnection(VortexDriver.PREFIX + TestData.dir() + fun);
             Connection off = DriverManager.getConnection(VortexDriver.PREFIX + TestData.dir() + fun + ";pushdown=false")) {
            for (String condition : conditions) {
                String sql = "SELECT id, w FROM words WHERE " + condition;
                assertEquals(sql, Sql.answer(off, sql), Sql.answer(on, sql));
                String plan = Sql.explain(on, sql);
                assertTrue(sql + "\n" + plan, plan.contains("filter=[") && !plan.contains("EnumerableCalc"));
            }
        }
    }

    @Test
    public void groupByAnExpressionOfADictionaryColumn() throws SQLException {
        String[] wheres = {"", " WHERE n > 0", " WHERE UPPER(w) LIKE '%O%' OR w IS NULL"};
        for (String key : GROUP_KEYS) {
            for (String where : wheres) {
                String sql = "SELECT " + key + ", count(*), count(w), sum(n), min(n), max(id), avg(n), count(n)"
                        + " FROM words" + where + " GROUP BY " + key;
                String plan = pushedPlan(sql);
                assertTrue(sql + "\n" + plan, plan.contains("VortexAggregateScan") && plan.contains("group=["));
                assertFalse(sql + "\n" + plan, plan.contains("EnumerableAggregate"));
            }
        }
        String plan = pushedPlan("SELECT SUBSTRING(sym FROM 1 FOR 1) AS initial, sum(volume) FROM trades"
                + " WHERE sym LIKE '%A%' GROUP BY SUBSTRING(sym FROM 1 FOR 1) ORDER BY initial");
        assertTrue(plan, plan.contains("group=[SUBSTRING(sym, 1, 1)]"));
        // A key that may throw is Calcite's to compute.
        String sql = "SELECT CAST(w AS INTEGER), count(*) FROM words GROUP BY CAST(w AS INTEGER)";
        assertEquals(error(plain, sql).getMessage(), error(push, sql).getMessage());
        assertFalse(Sql.explain(push, sql).contains("VortexAggregateScan"));
    }

    @Test
    public void expressionsReadingTheStatementContextStayWithCalcite() throws SQLException {
        String sql = "SELECT id FROM words WHERE w < CAST(CURRENT_DATE AS VARCHAR(20))";
        assertEquals(Sql.answer(plain, sql), Sql.answer(push, sql));
        assertFalse(Sql.explain(push, sql).contains("filter=["));
        List<String> expected = Sql.answer(plain, "SELECT id FROM words WHERE UPPER(w) = 'OSLO'");
        try (java.sql.PreparedStatement ps = push.prepareStatement("SELECT id FROM words WHERE UPPER(w) = ?")) {
            ps.setString(1, "OSLO");
            assertEquals(expected, Sql.answer(ps.executeQuery()));
        }
    }

    /** The root cause of {@code sql}'s failure on {@code c}, or null if it succeeds. */
    static Throwable error(Connection c, String sql) {
        try {
            Sql.answer(c, sql);
            return null;
        } catch (SQLException | RuntimeException e) {
            return PushdownEquivalenceTest.rootCause(e);
        }
    }
}
