package io.vortex4j.arrow;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.NativeAccess;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.compute.PredicateEvaluator;
import io.vortex4j.reader.internal.Native;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.PredicateCodec;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Filters on list columns: containment ({@link Predicate.ListContains}, vortex's {@code
 * list_contains}) and length ({@link Predicate.ListLength}, vortex's {@code list_length}), by
 * the reader (native and row by row) against the truth of Arrow's values and vortex's own
 * filtered scan; in SQL ({@code CARDINALITY(t.l) op n}, {@code v = ANY(t.l)}, {@code
 * ARRAY_CONTAINS(t.l, v)}) pushed,
 * against Arrow's values and Calcite with push-down off. Null lists, null elements and empty
 * lists included ({@link NestedTypesTest}).
 */
public class NestedListFilterTest {
    private static List<Object[]> expected;
    /** An element of a list that also holds a null element, and one of a list without nulls. */
    private static int withNull;
    private static int withoutNull;

    @BeforeClass
    public static void write() throws Exception {
        NestedTypesTest.write();
        expected = NestedTypesTest.expected();
        Integer a = null;
        Integer b = null;
        for (Object[] e : expected) {
            List<?> l = (List<?>) e[2];
            if (l == null) {
                continue;
            }
            for (Object v : l) {
                if (v != null && l.contains(null) && a == null) {
                    a = (Integer) v;
                } else if (v != null && !l.contains(null) && b == null) {
                    b = (Integer) v;
                }
            }
        }
        withNull = a;
        withoutNull = b;
    }

    /** The SQL truth of {@code v = ANY(list)} (sqlNulls) or {@code List.contains(v)}: TRUE, FALSE or null. */
    private static Boolean contains(Object list, int v, boolean sqlNulls) {
        if (list == null) {
            return null;
        }
        List<?> l = (List<?>) list;
        if (l.contains(v)) {
            return true;
        }
        return sqlNulls && l.contains(null) ? null : false;
    }

    private static Boolean not(Boolean b) {
        return b == null ? null : !b;
    }

    private static Boolean size(Object list, Function<Integer, Boolean> test) {
        return list == null ? null : test.apply(((List<?>) list).size());
    }

    @Test
    public void readerLeavesAgreeWithArrowAndVortex() {
        for (boolean sqlNulls : new boolean[] {false, true}) {
            for (int v : new int[] {withNull, withoutNull, 12345}) {
                check(new Predicate.ListContains("l", v, sqlNulls, false), e -> contains(e[2], v, sqlNulls));
                check(new Predicate.ListContains("l", v, sqlNulls, true), e -> not(contains(e[2], v, sqlNulls)));
            }
        }
        check(Predicate.listLength("l", Predicate.Op.GT, 1), e -> size(e[2], n -> n > 1));
        check(Predicate.listLength("l", Predicate.Op.EQ, 0), e -> size(e[2], n -> n == 0));
        check(Predicate.not(Predicate.listLength("l", Predicate.Op.LT, 2)), e -> size(e[2], n -> n >= 2));
        check(Predicate.listLength("fl", Predicate.Op.EQ, 2), e -> size(e[4], n -> n == 2));
        check(Predicate.listLength("ls", Predicate.Op.LE, 1), e -> size(e[3], n -> n <= 1));
        check(Predicate.listLength("l", Predicate.Op.GE, -3), e -> size(e[2], n -> true));
        check(Predicate.or(Predicate.listLength("ls", Predicate.Op.EQ, 2), Predicate.listContains("l", withoutNull)),
                e -> Boolean.TRUE.equals(size(e[3], n -> n == 2)) || Boolean.TRUE.equals(contains(e[2], withoutNull, false)));
    }

    /** The ids the reader selects for {@code filter}, with the native leaves and row by row. */
    private static List<Object> selected(Predicate filter, boolean nativeLeaves) {
        boolean was = PredicateEvaluator.isDictFilterEnabled();
        PredicateEvaluator.setDictFilterEnabled(nativeLeaves);
        List<Object> got = new ArrayList<>();
        try (VortexFile f = VortexFile.open(NestedTypesTest.dir().resolve("nested.vortex"));
             Scan s = f.scan(List.of("id", "l", "ls", "fl"), filter)) {
            for (Chunk c : s) {
                try (c) {
                    Bitmap b = Compute.selection(c, filter);
                    for (int i = b.nextSetBit(0); i >= 0; i = b.nextSetBit(i + 1)) {
                        got.add(Values.valueAt(c.column("id"), i));
                    }
                }
            }
        } finally {
            PredicateEvaluator.setDictFilterEnabled(was);
        }
        return got;
    }

    private static void check(Predicate filter, Function<Object[], Boolean> truth) {
        List<Object> want = new ArrayList<>();
        for (Object[] e : expected) {
            if (Boolean.TRUE.equals(truth.apply(e))) {
                want.add(e[0]);
            }
        }
        assertEquals(filter + " native", want, selected(filter, true));
        assertEquals(filter + " row by row", want, selected(filter, false));
        List<Object> reference = new ArrayList<>();
        try (VortexFile f = VortexFile.open(NestedTypesTest.dir().resolve("nested.vortex"))) {
            for (long row : NativeAccess.withHandle(f, h -> Native.filteredScanRows(h, PredicateCodec.encode(filter)))) {
                reference.add((int) row);
            }
        }
        assertEquals(filter + " vs vortex's filtered scan", reference, want);
        Predicate decoded = PredicateCodec.decode(PredicateCodec.encode(filter));
        assertEquals(filter, decoded);
    }

    private static List<List<Object>> query(String sql, boolean pushdown) throws SQLException {
        String url = "jdbc:vortex:" + NestedTypesTest.dir() + ";fun=spark" + (pushdown ? "" : ";pushdown=false");
        List<List<Object>> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int k = 1; k <= rs.getMetaData().getColumnCount(); k++) {
                    row.add(NestedSqlTest.plain(rs.getObject(k)));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    @Test
    public void sqlListFiltersArePushed() throws SQLException {
        sql("CARDINALITY(t.l) > 1", "CARDINALITY(l) > 1", e -> size(e[2], n -> n > 1));
        sql("CARDINALITY(t.l) = 0", "CARDINALITY(l) = 0", e -> size(e[2], n -> n == 0));
        sql("2 >= CARDINALITY(t.ls)", "CARDINALITY(ls) <= 2", e -> size(e[3], n -> n <= 2));
        sql("CARDINALITY(t.fl) = 2", "CARDINALITY(fl) = 2", e -> size(e[4], n -> n == 2));
        sql("CARDINALITY(t.l) IN (1, 3)", "CARDINALITY(l)", e -> size(e[2], n -> n == 1 || n == 3));
        sql("ARRAY_CONTAINS(t.l, " + withNull + ")", "ARRAY_CONTAINS(l, " + withNull + ")",
                e -> contains(e[2], withNull, false));
        sql("NOT ARRAY_CONTAINS(t.l, " + withoutNull + ")", "ARRAY_CONTAINS(l, " + withoutNull + ")",
                e -> not(contains(e[2], withoutNull, false)));
        sql(withNull + " = ANY(t.l)", withNull + " = ANY(l)", e -> contains(e[2], withNull, true));
        sql("NOT (" + withNull + " = ANY(t.l))", withNull + " = ANY(l)", e -> not(contains(e[2], withNull, true)));
        sql(withoutNull + " = SOME(t.l)", withoutNull + " = ANY(l)", e -> contains(e[2], withoutNull, true));
        sql("ARRAY_CONTAINS(t.l, " + withoutNull + ") OR CARDINALITY(t.ls) = 1 AND CARDINALITY(t.l) > 0",
                "CARDINALITY(ls) = 1",
                e -> Boolean.TRUE.equals(contains(e[2], withoutNull, false))
                        || Boolean.TRUE.equals(size(e[3], n -> n == 1)) && Boolean.TRUE.equals(size(e[2], n -> n > 0)));
    }

    @SuppressWarnings("unchecked")
    private static void sql(String condition, String pushed, Function<Object[], Boolean> truth) throws SQLException {
        String sql = "SELECT t.id FROM nested t WHERE " + condition + " ORDER BY t.id";
        StringBuilder lines = new StringBuilder();
        for (List<Object> line : query("EXPLAIN PLAN FOR " + sql, true)) {
            lines.append(line.get(0)).append('\n');
        }
        String plan = lines.toString();
        assertTrue(condition + "\n" + plan, plan.contains("filter=[") && plan.contains(pushed));
        assertFalse(condition + "\n" + plan, plan.contains("EnumerableFilter") || plan.contains("$condition"));
        List<List<Object>> want = new ArrayList<>();
        for (Object[] e : expected) {
            if (Boolean.TRUE.equals(truth.apply(e))) {
                want.add(List.of((long) (int) e[0]));
            }
        }
        assertTrue(condition + " selects some rows", !want.isEmpty());
        assertEquals(condition, want, query(sql, true));
        assertEquals(condition + " push-down off", want, query(sql, false));
    }
}
