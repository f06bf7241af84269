package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.vortex4j.calcite.jdbc.VortexDriver;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.predicate.Predicate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.junit.Test;

/**
 * LIKE, NOT LIKE and ILIKE with every pattern shape, push-down on vs off, over the dictionary
 * columns {@code words.w}, {@code types.s} and {@code trades.sym}; and which patterns become the
 * reader's LIKE leaf (where its semantics are Calcite's) or Calcite's own code per entry.
 */
public class LikeTest extends WithConnections {
    /** Patterns as SQL, with an optional ESCAPE clause. */
    static final String[] PATTERNS = {
        "'O%'", "'SYM0%'", "'a%'", "'%o'", "'%7'", "'%b'", "'%sl%'", "'%😀%'", "'%日%'",
        "'_slo'", "'O__o'", "'___'", "'_'", "'__'", "'a_b'", "'😀_'", "'_😀_'", "'%_%'",
        "'a\\_b' ESCAPE '\\'", "'a\\%b' ESCAPE '\\'", "'50!%' ESCAPE '!'", "'a\\\\b' ESCAPE '\\'", "'%!%' ESCAPE '!'",
        "'!_%' ESCAPE '!'", "'a$%b' ESCAPE '$'", "'%%' ESCAPE '%'", "'a__b' ESCAPE '_'",
        "'%'", "''", "'%%'", "'%%%'",
        "'a.b'", "'(x)'", "'[y]'", "'{z}'", "'a|b'", "'^$'", "'*+?'", "'a\\b'", "'.*'", "'%.%'", "'[a-z]%'",
        "'日本%'", "'%本'", "'ß%'", "'straße'", "'İ%'", "'Σ%'", "U&'\\00DF'",
        "'line%'", "'line_break'", "'line%break'", "U&'line\\000Abreak'", "U&'%\\2028%'", "U&'\\0085'", "'_'",
        "U&'\\000D'", "U&'x\\0000y'", "U&'x\\0000y' ESCAPE '!'",
        "'Trondheim and more%'", "'%Trondheim and more'", "'AAPL'", "'A '", "'A'", "'A%'", "'%A'", "'M%'",
    };

    /** Patterns Calcite rejects at run time (for every non-null value). */
    static final String[] INVALID = {"'a\\' ESCAPE '\\'", "'a\\b' ESCAPE '\\'", "'%!a' ESCAPE '!'", "U&'x\\0000y'"};

    private static final String[][] COLUMNS = {{"words", "w"}, {"types", "s"}, {"trades", "sym"}};

    @Test
    public void everyPatternShapeAnswersAsCalcite() throws SQLException {
        int pushed = 0;
        int queries = 0;
        for (String[] table : COLUMNS) {
            for (String pattern : PATTERNS) {
                for (String op : new String[] {" LIKE ", " NOT LIKE "}) {
                    String sql = "SELECT count(*) FROM " + table[0] + " WHERE " + table[1] + op + pattern;
                    if (pattern.contains("\\0000") && !pattern.contains("ESCAPE")) {
                        // U+0000 is Calcite's escape without ESCAPE: both fail, see invalidPatternsFailAlike.
                        PushdownEquivalenceTest.checkFailsAlike(sql, "Invalid escape sequence");
                        continue;
                    }
                    String plan = PushdownEquivalenceTest.check(sql);
                    queries++;
                    if (inScanOrFolded(plan)) {
                        pushed++;
                    }
                }
            }
        }
        Report.note("LIKE: " + pushed + " of " + queries + " pushed");
        assertEquals("pushed", queries, pushed);
    }

    /** Whether the condition went into the scan, or Calcite folded it to a constant (e.g. NOT LIKE '%'). */
    private static boolean inScanOrFolded(String plan) {
        return plan.contains("filter=[") && !plan.contains("EnumerableCalc") || !plan.contains("Scan(");
    }

    @Test
    public void rowsMatchToo() throws SQLException {
        for (String pattern : new String[] {"'O%'", "'%o'", "'_slo'", "'a\\_b' ESCAPE '\\'", "'%'", "'日本%'"}) {
            PushdownEquivalenceTest.check("SELECT id, w FROM words WHERE w LIKE " + pattern + " OR n < -45");
            PushdownEquivalenceTest.check("SELECT id, w FROM words WHERE NOT (w LIKE " + pattern + ") AND n > 90");
        }
    }

    @Test
    public void invalidPatternsFailAlike() throws SQLException {
        for (String pattern : INVALID) {
            String sql = "SELECT count(*) FROM words WHERE w LIKE " + pattern;
            Throwable plainError = ExpressionPushdownTest.error(plain, sql);
            Throwable pushError = ExpressionPushdownTest.error(push, sql);
            assertNotNull(sql, plainError);
            assertNotNull(sql, pushError);
            assertEquals(sql, plainError.getClass(), pushError.getClass());
            assertEquals(sql, plainError.getMessage(), pushError.getMessage());
        }
    }

    @Test
    public void ilikeWhereTheConnectionOffersIt() throws SQLException {
        String[] patterns = {"'oslo'", "'OSLO%'", "'%ß%'", "'İSTANBUL'", "'i%'", "'σας'", "'ΣΑΣ'", "'%😀'", "'_SLO'",
            "'straße'", "'STRASSE'", "'ǅ'", "'ǆ'", "'a\\%B' ESCAPE '\\'", "'%'"};
        String fun = ";fun=postgresql";
        try (Connection on = DriverManager.getConnection(VortexDriver.PREFIX + TestData.dir() + fun);
             Connection off = DriverManager.getConnection(VortexDriver.PREFIX + TestData.dir() + fun + ";pushdown=false")) {
            for (String pattern : patterns) {
                for (String op : new String[] {" ILIKE ", " NOT ILIKE "}) {
                    String sql = "SELECT count(*) FROM words WHERE w" + op + pattern;
                    assertEquals(sql, Sql.answer(off, sql), Sql.answer(on, sql));
                    String plan = Sql.explain(on, sql);
                    assertTrue(sql + "\n" + plan, inScanOrFolded(plan));
                }
            }
        }
    }

    /** Which patterns the translator makes the reader's LIKE leaf, and which Calcite's code per entry. */
    @Test
    public void readerLeafOnlyWhereTheSemanticsAgree() {
        JavaTypeFactoryImpl tf = new JavaTypeFactoryImpl(VortexTypeSystem.INSTANCE);
        RexBuilder b = new RexBuilder(tf);
        VortexColumn w = new VortexColumn(0, new Field("w", DataType.UTF8, true));
        RelDataType type = w.relType(tf);
        FilterTranslator translator = new FilterTranslator(b, List.of(w), SqlConformanceEnum.DEFAULT);
        RexNode ref = new RexInputRef(0, type);
        // Leaves: % only, escaped _, any escape character but a surrogate.
        assertEquals(new Predicate.Like("w", "O%", null, false, false), like(translator, b, ref, "O%", null));
        assertEquals(new Predicate.Like("w", "%a\\_b%", '\\', false, false), like(translator, b, ref, "%a\\_b%", "\\"));
        assertEquals(new Predicate.Like("w", "", null, false, false), like(translator, b, ref, "", null));
        // Calcite's _ does not match line terminators: Calcite's code decides, per entry.
        assertTrue(like(translator, b, ref, "_slo", null) instanceof Predicate.Computed);
        // Without ESCAPE Calcite takes U+0000 as the escape; "x\0y" is then invalid and stays with Calcite.
        assertNull(like(translator, b, ref, "x\u0000y", null));
        assertTrue(like(translator, b, ref, "x\u0000%", null) instanceof Predicate.Computed);
        // Invalid patterns fail in Calcite, row by row.
        assertNull(like(translator, b, ref, "a\\", "\\"));
        assertNull(like(translator, b, ref, "a\\b", "\\"));
    }

    private static Predicate like(FilterTranslator t, RexBuilder b, RexNode ref, String pattern, String escape) {
        List<RexNode> operands = new ArrayList<>(List.of(ref, b.makeLiteral(pattern)));
        if (escape != null) {
            operands.add(b.makeLiteral(escape));
        }
        return t.translate(b.makeCall(SqlStdOperatorTable.LIKE, operands));
    }

    @Test
    public void likeCombinesWithOtherLeaves() throws SQLException {
        String plan = PushdownEquivalenceTest.check("SELECT count(*) FROM trades WHERE sym LIKE 'A%' OR volume > 900");
        assertTrue(plan, plan.contains("filter=[(sym LIKE 'A%' OR volume > 900)]"));
        assertFalse(plan, plan.contains("EnumerableCalc"));
    }
}
