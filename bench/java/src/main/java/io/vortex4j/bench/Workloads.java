package io.vortex4j.bench;

import java.util.List;
import java.util.Map;

/** The named query sets of the SQL benchmarks ({@code --workload}), each over table {@code trades}. */
final class Workloads {
    private Workloads() {}

    /** A query: a short name and SQL that both engines run unchanged over table {@code trades}. */
    record Query(String name, String sql) {}

    /** Dictionary-domain expressions (LIKE, functions of one dictionary column). */
    static final List<Query> EXPRESSIONS = List.of(
            new Query("like-prefix", "SELECT count(*) FROM trades WHERE sym LIKE 'AM%'"),
            new Query("in-equivalent", "SELECT count(*) FROM trades WHERE sym IN ('AMZN', 'AMD', 'AMGN', 'AMAT')"),
            new Query("like-suffix", "SELECT count(*) FROM trades WHERE sym LIKE '%X'"),
            new Query("upper", "SELECT count(*) FROM trades WHERE UPPER(sym) = 'MSFT'"),
            new Query("substring", "SELECT count(*) FROM trades WHERE SUBSTRING(sym FROM 2 FOR 2) = 'SF'"),
            new Query("like-group-by", "SELECT sym, sum(volume) FROM trades WHERE sym LIKE 'A%' GROUP BY sym ORDER BY sym"));

    /**
     * Two group columns: the sample's one string column and an integer one (about 3% of the rows,
     * 900 groups), so the chunks are grouped row by row in Java.
     */
    static final Query GROUP_TWO = new Query("group-two", "SELECT sym, volume, count(*), sum(volume) FROM trades"
            + " WHERE volume < 10 AND sym IS NOT NULL GROUP BY sym, volume ORDER BY sym, volume");

    /** Filtered counts, grouped aggregates and top-N over the one sample file. */
    static final List<Query> SCANS = List.of(
            new Query("count-eq", "SELECT count(*) FROM trades WHERE sym = 'NVDA'"),
            new Query("group-in", "SELECT sym, count(*), sum(volume) FROM trades"
                    + " WHERE sym IN ('AAPL', 'MSFT', 'GOOG', 'AMZN') GROUP BY sym ORDER BY sym"),
            new Query("range-avg", "SELECT count(*), avg(price) FROM trades"
                    + " WHERE sym BETWEEN 'A' AND 'AZZZ' AND price BETWEEN 100 AND 200"),
            new Query("top-groups", "SELECT sym, count(*) FROM trades GROUP BY sym ORDER BY 2 DESC, 1 LIMIT 5"),
            new Query("top-n", "SELECT ts, price FROM trades WHERE sym = 'NVDA' ORDER BY ts DESC LIMIT 10"),
            new Query("count-int", "SELECT count(*) FROM trades WHERE volume > 2000"),
            new Query("count-int-rare", "SELECT count(*) FROM trades WHERE volume > 9990"),
            GROUP_TWO);


    /** Row scans: rows cross into Calcite, which computes what is not pushed (read ahead on workers). */
    static final List<Query> ROWS = List.of(
            new Query("rows-expr", "SELECT sum(price * volume) FROM trades WHERE sym IN ('AAPL', 'MSFT', 'NVDA')"),
            new Query("rows-range", "SELECT max(ts - volume) FROM trades WHERE price BETWEEN 100 AND 110"),
            new Query("rows-all", "SELECT sum(price * volume) FROM trades"));

    static final Map<String, List<Query>> ALL = Map.of("expressions", EXPRESSIONS, "scans", SCANS, "rows", ROWS,
            "groups", List.of(GROUP_TWO));
}
