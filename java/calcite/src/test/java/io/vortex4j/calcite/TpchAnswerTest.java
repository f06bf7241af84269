package io.vortex4j.calcite;

import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.tpch.TpchAnswer;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.Test;

/** How TpchTest and the TPC-H benchmark tell two engines' answers apart ({@link TpchAnswer#difference}). */
public class TpchAnswerTest {
    private static TpchAnswer answer(List<String> columns, Object[]... rows) {
        return TpchAnswer.of(columns, Arrays.stream(rows).map(Arrays::asList).toList());
    }

    private static final List<String> COLUMNS = List.of("k", "v");

    @Test
    public void numbersOfAnyTypeAgreeToOnePartInABillion() {
        TpchAnswer decimal = answer(COLUMNS, new Object[] {1L, new BigDecimal("15.486545812284")});
        assertNull(TpchAnswer.difference(decimal, answer(COLUMNS, new Object[] {1, 15.486545812284070}), new int[0]));
        assertNull(TpchAnswer.difference(decimal, answer(COLUMNS, new Object[] {new BigDecimal("1.00"), 15.4865458125}), new int[0]));
        assertNotNull(TpchAnswer.difference(decimal, answer(COLUMNS, new Object[] {1L, 15.4865459}), new int[0]));
        assertNotNull(TpchAnswer.difference(decimal, answer(COLUMNS, new Object[] {2L, new BigDecimal("15.486545812284")}), new int[0]));
    }

    @Test
    public void datesStringsAndNullsAgreeExactly() {
        List<String> cols = List.of("d", "s", "n");
        TpchAnswer e = answer(cols, new Object[] {java.sql.Date.valueOf("1995-03-15"), "BRAZIL", null});
        assertNull(TpchAnswer.difference(e, answer(cols, new Object[] {LocalDate.of(1995, 3, 15), "BRAZIL", null}), new int[0]));
        assertNotNull(TpchAnswer.difference(e, answer(cols, new Object[] {LocalDate.of(1995, 3, 16), "BRAZIL", null}), new int[0]));
        assertNotNull(TpchAnswer.difference(e, answer(cols, new Object[] {LocalDate.of(1995, 3, 15), "BRAZIL ", null}), new int[0]));
        assertNotNull(TpchAnswer.difference(e, answer(cols, new Object[] {LocalDate.of(1995, 3, 15), "BRAZIL", 0}), new int[0]));
    }

    @Test
    public void rowsFollowTheOrderByColumnsAndTiesAreAMultiset() {
        TpchAnswer e = answer(COLUMNS, new Object[] {1, "a"}, new Object[] {1, "b"}, new Object[] {2, "c"});
        TpchAnswer tiesSwapped = answer(COLUMNS, new Object[] {1, "b"}, new Object[] {1, "a"}, new Object[] {2, "c"});
        TpchAnswer reordered = answer(COLUMNS, new Object[] {2, "c"}, new Object[] {1, "a"}, new Object[] {1, "b"});
        assertNull(TpchAnswer.difference(e, tiesSwapped, new int[] {1}));
        assertNotNull(TpchAnswer.difference(e, reordered, new int[] {1}));
        // Without ORDER BY every order is right, but not other rows.
        assertNull(TpchAnswer.difference(e, reordered, new int[0]));
        assertNotNull(TpchAnswer.difference(e, answer(COLUMNS, new Object[] {1, "a"}, new Object[] {1, "a"},
                new Object[] {2, "c"}), new int[0]));
        assertNotNull(TpchAnswer.difference(e, answer(COLUMNS, new Object[] {1, "a"}, new Object[] {1, "b"}), new int[0]));
    }

    /** A query given ORDER BY keys beyond its columns (a probe in place of a TPC-H query) is told so. */
    @Test
    public void orderByKeysBeyondTheColumnsAreRefusedNamingThem() {
        TpchAnswer e = answer(List.of("n"), new Object[] {1});
        try {
            TpchAnswer.difference(e, e, new int[] {1, 2});
            fail("compared on a column the answer does not have");
        } catch (IllegalArgumentException x) {
            assertTrue(x.getMessage(), x.getMessage().contains("ORDER BY key 2") && x.getMessage().contains("[n]"));
        }
    }

    @Test
    public void columnLabelsMatchExceptMadeUpOnes() {
        Object[] row = {1, 2};
        TpchAnswer e = answer(List.of("c_name", "sum(l_quantity)"), row);
        assertNull(TpchAnswer.difference(e, answer(List.of("C_NAME", "EXPR$1"), row), new int[0]));
        assertNotNull(TpchAnswer.difference(e, answer(List.of("c_names", "EXPR$1"), row), new int[0]));
        assertNotNull(TpchAnswer.difference(e, answer(List.of("c_name"), new Object[] {1}), new int[0]));
    }
}
