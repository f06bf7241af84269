package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

/**
 * A join on keys from the NULL-extended side of a LEFT join keeps every matching row: its input
 * is not ordered on those keys (NULLs fall between them), so a join that assumed so would drop
 * rows. The expected counts are computed here from the rows written to {@code sums.vortex}.
 */
public class OuterJoinKeysTest extends WithConnections {
    @Test
    public void joinOnTheOptionalSidesKeys() throws SQLException {
        // Every id a, LEFT JOIN the keys id + 3 of the rows with id < 50, then an inner join of
        // those keys with the ids again: the ids a in [3, 53) that exist, once per match.
        Set<Long> ids = new HashSet<>();
        for (Object[] row : TestData.sumsRows()) {
            ids.add((Long) row[0]);
        }
        long expected = 0;
        for (long id : ids) {
            if (id < 50 && ids.contains(id + 3)) {
                expected++;
            }
        }
        String sql = "SELECT COUNT(*) FROM sums a LEFT JOIN (SELECT id + 3 AS k FROM sums WHERE id < 50) r"
                + " ON a.id = r.k JOIN sums s ON r.k = s.id";
        for (Connection c : new Connection[] {push, plain}) {
            assertEquals(sql, expected, ((Number) Sql.scalar(c, sql)).longValue());
        }
    }

    @Test
    public void groupedJoinOnTheOptionalSidesKeys() throws SQLException {
        // The same shape on a string key with NULLs of its own: the LEFT join's groups g, each
        // joined back to every row of its group.
        Map<String, Long> perGroup = new HashMap<>();
        for (Object[] row : TestData.sumsRows()) {
            if (row[1] != null) {
                perGroup.merge((String) row[1], 1L, Long::sum);
            }
        }
        long expected = 0;
        for (long n : perGroup.values()) {
            expected += n;
        }
        String sql = "SELECT COUNT(*) FROM (SELECT DISTINCT g FROM sums) a LEFT JOIN (SELECT DISTINCT g AS k FROM sums) r"
                + " ON a.g = r.k JOIN sums s ON r.k = s.g";
        for (Connection c : new Connection[] {push, plain}) {
            assertEquals(sql, expected, ((Number) Sql.scalar(c, sql)).longValue());
        }
    }
}
