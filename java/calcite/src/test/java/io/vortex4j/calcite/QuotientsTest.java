package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/**
 * A quotient of integers is DOUBLE ({@link VortexTypeSystem}, as DuckDB types it) and its value
 * is the DOUBLE quotient, not the integer one widened ({@code 7 / 2} is 3.5), with push-down on
 * and off, in the select list and in a filter; the expected values are computed here from the
 * rows of {@code sums.vortex}.
 */
public class QuotientsTest extends WithConnections {
    @Test
    public void integerQuotientsAreDoubleQuotients() throws SQLException {
        String sql = "SELECT id, i32 / 7, i64 / 1000, CAST(id AS SMALLINT) / 4 FROM sums WHERE id < 60 ORDER BY id";
        List<List<Object>> expected = new ArrayList<>();
        for (Object[] row : TestData.sumsRows()) {
            long id = ((Number) row[0]).longValue();
            if (id < 60) {
                List<Object> r = new ArrayList<>();
                r.add(id);
                r.add(row[2] == null ? null : "D" + ((Integer) row[2]) / 7.0);
                r.add(row[3] == null ? null : "D" + ((Long) row[3]) / 1000.0);
                r.add("D" + id / 4.0);
                expected.add(r);
            }
        }
        assertFalse(expected.isEmpty());
        for (Connection c : new Connection[] {push, plain}) {
            assertEquals(sql, expected, Sql.rows(c, sql));
            // Under integer division 6 / 4 = 5 / 4 = 1 would pass as well.
            assertEquals(List.of(List.of(6L)), Sql.rows(c, "SELECT id FROM sums WHERE id / 4 = 1.5 ORDER BY id"));
        }
    }
}
