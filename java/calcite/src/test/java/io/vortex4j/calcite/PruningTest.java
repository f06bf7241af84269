package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.predicate.Predicate;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Pushed filters also prune: chunks whose zone maps rule the filter out are not read. Over a file
 * whose chunks hold disjoint ranges (NaN, zeros of both signs, infinities, nulls), the answers
 * with pruning equal Calcite's own without push-down.
 */
public class PruningTest extends WithConnections {
    private static long pruned(Predicate p) {
        try (VortexFile f = VortexFile.open(TestData.dir().resolve("zones.vortex"));
             Scan scan = f.scan(List.of("k", "x", "s"), p)) {
            for (Chunk c : scan) {
                c.close();
            }
            return scan.prunedRows();
        }
    }

    @Test
    public void theFixtureLetsZoneMapsSkipChunks() {
        // Without this the other test would not exercise pruning at all.
        assertTrue("k < 100 pruned " + pruned(Predicate.lt("k", 100L)), pruned(Predicate.lt("k", 100L)) >= 3L * TestData.ZONE_ROWS);
        assertTrue("s = 'low' pruned " + pruned(Predicate.eq("s", "low")), pruned(Predicate.eq("s", "low")) > 0);
        assertEquals(0, pruned(null));
    }

    @Test
    public void prunedAnswersEqualCalcites() throws SQLException {
        String[] filters = {
            "k < 100", "k >= 300000", "k BETWEEN 65530 AND 65540", "k IN (5, 140000, 327679)", "k NOT IN (5)",
            "x > 1", "x >= 0", "x < 0", "x <= 0", "x = 0", "x <> 0", "x > 0.5", "x < 0.5", "x = 1e10",
            "x > 1e300", "x >= CAST('Infinity' AS DOUBLE)", "x < CAST('-Infinity' AS DOUBLE)",
            "x = CAST('Infinity' AS DOUBLE)", "x BETWEEN -1 AND 1", "x NOT BETWEEN -1 AND 1", "NOT (x > 1)",
            "NOT (x < 1)", "x IS NULL", "x IS NOT NULL", "x IN (0, 1)", "x NOT IN (0, 1)",
            "s = 'low'", "s <> 'low'", "s > 'low'", "s < 'inf'", "s IN ('nan', 'high')", "s NOT IN ('nan', 'high')",
            "s IS NULL", "s IS NOT NULL", "s = 'high' OR x < 0", "s = 'zero' AND x = 0", "s = 'nope'",
        };
        for (String f : filters) {
            for (String sql : new String[] {
                "SELECT k FROM zones WHERE " + f,
                "SELECT count(*) FROM zones WHERE " + f,
                "SELECT s, count(*), sum(k), min(k), max(x) FROM zones WHERE " + f + " GROUP BY s",
            }) {
                assertEquals(sql, Sql.answer(plain, sql), Sql.answer(push, sql));
            }
            assertTrue(f, Sql.explain(push, "SELECT k FROM zones WHERE " + f).contains("filter=["));
        }
    }
}
