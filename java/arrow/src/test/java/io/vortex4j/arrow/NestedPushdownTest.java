package io.vortex4j.arrow;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.NativeAccess;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.internal.Native;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.PredicateCodec;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Struct field accesses pushed into the scan: {@code SELECT t.st.x} reads the field by path
 * instead of the whole struct, and filters on fields become reader predicates on paths. Every
 * answer is compared with the values Arrow wrote ({@link NestedTypesTest}), with Calcite over
 * the same table with push-down off, and (filters) with vortex's own filtered scan of the
 * predicate EXPLAIN shows.
 */
public class NestedPushdownTest {
    private static List<Object[]> expected;

    @BeforeClass
    public static void write() throws Exception {
        NestedTypesTest.write();
        expected = NestedTypesTest.expected();
    }

    private static List<List<Object>> query(String sql, boolean pushdown) throws SQLException {
        return NestedSqlTest.query(sql, pushdown);
    }

    static String explain(String sql) throws SQLException {
        StringBuilder plan = new StringBuilder();
        for (List<Object> line : query("EXPLAIN PLAN FOR " + sql, true)) {
            plan.append(line.get(0)).append('\n');
        }
        return plan.toString();
    }

    @SuppressWarnings("unchecked")
    private static Object field(Object struct, String name) {
        return struct == null ? null : ((Map<String, Object>) struct).get(name);
    }

    /** {@code sql} answers {@code want} with push-down on and off. */
    private static void assertBothWays(List<List<Object>> want, String sql) throws SQLException {
        assertEquals(sql, want, query(sql, true));
        assertEquals(sql + " push-down off", want, query(sql, false));
    }

    @Test
    public void fieldsAreReadByPath() throws SQLException {
        String sql = "SELECT t.id, t.st.x, t.st.y, t.st.\"inner\".z, t.st.\"inner\" FROM nested t ORDER BY t.id";
        String plan = explain(sql);
        assertTrue(plan, plan.contains("fields=[[id, st.x, st.y, st.inner.z, st.inner]]"));
        List<List<Object>> want = new ArrayList<>();
        for (Object[] e : expected) {
            Object inner = field(e[1], "inner");
            want.add(Arrays.asList((long) (int) e[0], field(e[1], "x"), field(e[1], "y"),
                    NestedSqlTest.arrow(field(inner, "z")), NestedSqlTest.arrow(inner)));
        }
        assertBothWays(want, sql);
    }

    @Test
    public void aStructNeededWholeIsReadWhole() throws SQLException {
        String sql = "SELECT t.st, t.st.x FROM nested t ORDER BY t.id";
        String plan = explain(sql);
        assertTrue(plan, plan.contains("fields=[[st, id]]") || plan.contains("fields=[[id, st]]"));
        List<List<Object>> want = new ArrayList<>();
        for (Object[] e : expected) {
            want.add(Arrays.asList(NestedSqlTest.arrow(e[1]), field(e[1], "x")));
        }
        assertBothWays(want, sql);
    }

    @Test
    public void fieldsOfListElementsStayWithCalcite() throws SQLException {
        String sql = "SELECT t.ls[1].b, t.st.y FROM nested t ORDER BY t.id";
        String plan = explain(sql);
        assertTrue(plan, plan.contains("st.y") && plan.contains("ls"));
        assertEquals(query(sql, false), query(sql, true));
    }

    @Test
    public void filtersOnFieldsArePushed() throws Exception {
        check("t.st.y = 'bb'", Predicate.eq("st.y", "bb"), e -> Objects.equals(field(e[1], "y"), "bb"));
        check("t.st.\"inner\".z > 3", Predicate.gt("st.inner.z", 3), e -> {
            Object z = field(field(e[1], "inner"), "z");
            return z != null && (int) z > 3;
        });
        check("t.st.y IN ('', '日本')", Predicate.in("st.y", "", "日本"),
                e -> "".equals(field(e[1], "y")) || "日本".equals(field(e[1], "y")));
        check("t.st.y LIKE 'c%'", Predicate.like("st.y", "c%"),
                e -> field(e[1], "y") != null && ((String) field(e[1], "y")).startsWith("c"));
        check("t.st.x IS NULL", Predicate.isNull("st.x"), e -> field(e[1], "x") == null);
        check("t.st.y <> 'bb'", Predicate.ne("st.y", "bb"),
                e -> field(e[1], "y") != null && !"bb".equals(field(e[1], "y")));
        check("t.st.y IS NOT NULL AND t.st.\"inner\".z < -100",
                Predicate.and(Predicate.lt("st.inner.z", -100), Predicate.isNotNull("st.y")), e -> {
                    Object z = field(field(e[1], "inner"), "z");
                    return field(e[1], "y") != null && z != null && (int) z < -100;
                });
        check("t.st.\"inner\" IS NULL", Predicate.isNull("st.inner"), e -> field(e[1], "inner") == null);
    }

    @Test
    public void expressionsOfAStringFieldArePushed() throws SQLException {
        String sql = "SELECT t.id FROM nested t WHERE UPPER(t.st.y) = 'BB' ORDER BY t.id";
        String plan = explain(sql);
        assertTrue(plan, plan.contains("filter=[UPPER(st.y) = 'BB']"));
        List<List<Object>> want = new ArrayList<>();
        for (Object[] e : expected) {
            if ("bb".equals(field(e[1], "y"))) {
                want.add(List.of((long) (int) e[0]));
            }
        }
        assertBothWays(want, sql);
    }

    @Test
    public void aggregatesOverFieldsStayCorrect() throws SQLException {
        String sql = "SELECT t.st.y, count(*), sum(t.st.x) FROM nested t WHERE t.st.\"inner\".z > 0 GROUP BY t.st.y";
        List<String> on = sorted(query(sql, true));
        assertEquals(sorted(query(sql, false)), on);
        assertTrue(on.size() > 2);
    }

    private static List<String> sorted(List<List<Object>> rows) {
        List<String> out = new ArrayList<>();
        for (List<Object> r : rows) {
            out.add(r.toString());
        }
        out.sort(null);
        return out;
    }

    /**
     * {@code condition} is pushed whole as {@code predicate} (EXPLAIN), and selects the ids Arrow's
     * values say ({@code truth}), Calcite's with push-down off, and vortex's filtered scan of the
     * predicate.
     */
    private static void check(String condition, Predicate predicate, Function<Object[], Boolean> truth)
            throws Exception {
        String sql = "SELECT t.id FROM nested t WHERE " + condition + " ORDER BY t.id";
        String plan = explain(sql);
        assertTrue(condition + "\n" + plan, plan.contains("filter=[" + predicate + "]"));
        assertFalse(condition + "\n" + plan, plan.contains("EnumerableFilter") || plan.contains("$condition"));
        List<List<Object>> want = new ArrayList<>();
        for (Object[] e : expected) {
            if (truth.apply(e)) {
                want.add(List.of((long) (int) e[0]));
            }
        }
        assertTrue(condition + " selects some rows", !want.isEmpty());
        assertEquals(condition, want, query(sql, true));
        assertEquals(condition + " push-down off", want, query(sql, false));
        List<List<Object>> reference = new ArrayList<>();
        try (VortexFile f = VortexFile.open(NestedTypesTest.dir().resolve("nested.vortex"))) {
            for (long row : NativeAccess.withHandle(f, h -> Native.filteredScanRows(h, PredicateCodec.encode(predicate)))) {
                reference.add(List.of(row));
            }
        }
        assertEquals(condition + " vs vortex's filtered scan", reference, want);
    }
}
