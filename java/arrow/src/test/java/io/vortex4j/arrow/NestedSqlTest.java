package io.vortex4j.arrow;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.calcite.VortexSql;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Nested columns through SQL: struct as ROW (field access two levels deep), list and fixed-size
 * list as ARRAY (CARDINALITY, element access, UNNEST), compared row by row with the values Arrow
 * held ({@link NestedTypesTest#expected}), nulls at every level included, and with Calcite over
 * the same table with push-down off.
 */
public class NestedSqlTest {
    private static List<Object[]> expected;

    @BeforeClass
    public static void write() throws Exception {
        NestedTypesTest.write();
        expected = NestedTypesTest.expected();
    }

    /** The rows of {@code sql}, which Calcite with push-down off answers the same. */
    private static List<List<Object>> query(String sql) throws SQLException {
        List<List<Object>> rows = query(sql, true);
        assertEquals(sql + " push-down off", query(sql, false), rows);
        return rows;
    }

    static List<List<Object>> query(String sql, boolean pushdown) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Connection c = VortexSql.connect(NestedTypesTest.dir(), pushdown); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int k = 1; k <= n; k++) {
                    row.add(plain(rs.getObject(k)));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** JDBC's Struct and Array values as lists, numbers widened, so they compare with Arrow's. */
    static Object plain(Object v) throws SQLException {
        if (v instanceof Struct s) {
            v = s.getAttributes();
        } else if (v instanceof Array a) {
            v = a.getArray();
        }
        if (v instanceof Object[] a) {
            v = Arrays.asList(a);
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            for (Object e : l) {
                out.add(plain(e));
            }
            return out;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        return v;
    }

    /** Arrow's value as {@link #plain} gives it: maps as lists of their values, ints as longs. */
    static Object arrow(Object v) {
        if (v instanceof Map<?, ?> m) {
            List<Object> out = new ArrayList<>();
            for (Object e : m.values()) {
                out.add(arrow(e));
            }
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            for (Object e : l) {
                out.add(arrow(e));
            }
            return out;
        }
        return v instanceof Integer i ? (Object) (long) i : v;
    }

    @SuppressWarnings("unchecked")
    private static Object field(Object struct, String name) {
        return struct == null ? null : ((Map<String, Object>) struct).get(name);
    }

    @Test
    public void structFieldsTwoLevelsDeep() throws SQLException {
        List<List<Object>> want = new ArrayList<>();
        for (Object[] e : expected) {
            Object inner = field(e[1], "inner");
            want.add(Arrays.asList((long) (int) e[0], field(e[1], "x"), field(e[1], "y"), arrow(field(inner, "z"))));
        }
        assertEquals(want, query("SELECT t.id, t.st.x, t.st.y, t.st.\"inner\".z FROM nested t ORDER BY t.id"));
    }

    @Test
    public void wholeStructsAndListsAsValues() throws SQLException {
        List<List<Object>> want = new ArrayList<>();
        for (Object[] e : expected) {
            want.add(Arrays.asList((long) (int) e[0], arrow(e[1]), arrow(e[2]), arrow(e[3]), arrow(e[4])));
        }
        assertEquals(want, query("SELECT id, st, l, ls, fl FROM nested ORDER BY id"));
    }

    @Test
    public void cardinalityAndElementAccess() throws SQLException {
        List<List<Object>> want = new ArrayList<>();
        for (Object[] e : expected) {
            List<?> l = (List<?>) e[2];
            List<?> fl = (List<?>) e[4];
            List<?> ls = (List<?>) e[3];
            Object first = l == null || l.isEmpty() ? null : arrow(l.get(0));
            Object firstB = ls == null || ls.isEmpty() ? null : field(ls.get(0), "b");
            want.add(Arrays.asList((long) (int) e[0], l == null ? null : (long) l.size(), first,
                    fl == null ? null : arrow(fl.get(1)), firstB));
        }
        assertEquals(want, query("SELECT t.id, CARDINALITY(t.l), t.l[1], t.fl[2], t.ls[1].b FROM nested t ORDER BY t.id"));
    }

    @Test
    public void unnestInFrom() throws SQLException {
        List<List<Object>> want = new ArrayList<>();
        for (Object[] e : expected) {
            List<?> l = (List<?>) e[2];
            if (l != null) {
                for (Object v : l) {
                    want.add(Arrays.asList((long) (int) e[0], arrow(v)));
                }
            }
        }
        List<List<Object>> got = query("SELECT t.id, u.v FROM nested t CROSS JOIN UNNEST(t.l) AS u(v)");
        // UNNEST keeps each list's order; rows come in scan order.
        assertEquals(want, got);
        assertTrue("some lists hold elements", want.size() > 100);
    }

    @Test
    public void filtersOnNestedFields() throws SQLException {
        long bb = 0;
        long positive = 0;
        for (Object[] e : expected) {
            bb += Objects.equals(field(e[1], "y"), "bb") ? 1 : 0;
            Object z = field(field(e[1], "inner"), "z");
            positive += z != null && (int) z > 0 ? 1 : 0;
        }
        assertEquals(List.of(List.of(bb)), query("SELECT count(*) FROM nested t WHERE t.st.y = 'bb'"));
        assertEquals(List.of(List.of(positive)), query("SELECT count(*) FROM nested t WHERE t.st.\"inner\".z > 0"));
        assertTrue(bb > 0 && positive > 0);
    }
}
