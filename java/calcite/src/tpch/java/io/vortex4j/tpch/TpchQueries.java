package io.vortex4j.tpch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The 22 TPC-H queries of {@code bench/tpch/queries} ({@code q1.sql} … {@code q22.sql}, the
 * specification's queries with its validation parameters, in SQL that Calcite and DuckDB both
 * take), and the columns each one's ORDER BY sorts on.
 */
public final class TpchQueries {
    /** The system property naming the {@code bench/tpch} folder. */
    public static final String DIR_PROPERTY = "vortex4j.tpch.dir";

    /** Query numbers 1 to 22. */
    public static final List<Integer> ALL;

    static {
        List<Integer> all = new ArrayList<>();
        for (int q = 1; q <= 22; q++) {
            all.add(q);
        }
        ALL = List.copyOf(all);
    }

    /**
     * Per query with an ORDER BY, the 1-based result columns it sorts on, outermost first (their
     * direction does not matter here: rows are compared in order by these columns' values, and
     * rows that tie on all of them as a multiset). Queries not listed have no ORDER BY.
     */
    private static final Map<Integer, int[]> ORDER_KEYS = Map.ofEntries(
            Map.entry(1, new int[] {1, 2}),          // l_returnflag, l_linestatus
            Map.entry(2, new int[] {1, 3, 2, 4}),    // s_acctbal desc, n_name, s_name, p_partkey
            Map.entry(3, new int[] {2, 3}),          // revenue desc, o_orderdate
            Map.entry(4, new int[] {1}),             // o_orderpriority
            Map.entry(5, new int[] {2}),             // revenue desc
            Map.entry(7, new int[] {1, 2, 3}),       // supp_nation, cust_nation, l_year
            Map.entry(8, new int[] {1}),             // o_year
            Map.entry(9, new int[] {1, 2}),          // nation, o_year desc
            Map.entry(10, new int[] {3}),            // revenue desc
            Map.entry(11, new int[] {2}),            // value desc
            Map.entry(12, new int[] {1}),            // l_shipmode
            Map.entry(13, new int[] {2, 1}),         // custdist desc, c_count desc
            Map.entry(15, new int[] {1}),            // s_suppkey
            Map.entry(16, new int[] {4, 1, 2, 3}),   // supplier_cnt desc, p_brand, p_type, p_size
            Map.entry(18, new int[] {5, 4}),         // o_totalprice desc, o_orderdate
            Map.entry(20, new int[] {1}),            // s_name
            Map.entry(21, new int[] {2, 1}),         // numwait desc, s_name
            Map.entry(22, new int[] {1}));           // cntrycode

    private TpchQueries() {}

    /** The {@code bench/tpch} folder: the system property {@value #DIR_PROPERTY}, else {@code bench/tpch} here. */
    public static Path dir() {
        String d = System.getProperty(DIR_PROPERTY);
        Path p = d != null ? Paths.get(d) : Paths.get("bench", "tpch");
        if (!Files.isDirectory(p.resolve("queries"))) {
            throw new IllegalStateException("no TPC-H queries in " + p.toAbsolutePath().resolve("queries")
                    + " (set -D" + DIR_PROPERTY + "=REPO/bench/tpch)");
        }
        return p;
    }

    /** The text of query {@code q} (1 to 22), without a trailing semicolon. */
    public static String sql(int q) throws IOException {
        if (q < 1 || q > 22) {
            throw new IllegalArgumentException("no TPC-H query " + q + " (1 to 22)");
        }
        String text = Files.readString(dir().resolve("queries").resolve("q" + q + ".sql"), StandardCharsets.UTF_8).strip();
        return text.endsWith(";") ? text.substring(0, text.length() - 1) : text;
    }

    /** The result columns (1-based) query {@code q}'s ORDER BY sorts on; empty without ORDER BY. */
    public static int[] orderKeys(int q) {
        return ORDER_KEYS.getOrDefault(q, new int[0]).clone();
    }

    /** Query numbers from a list such as {@code 1,6,14} or {@code 1-5,9}; {@code all} for every query. */
    public static List<Integer> parse(String list) {
        if (list.equals("all")) {
            return ALL;
        }
        List<Integer> out = new ArrayList<>();
        for (String part : list.split(",")) {
            String p = part.trim().replaceFirst("^[qQ]", "");
            if (p.isEmpty()) {
                continue;
            }
            int dash = p.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? p : p.substring(0, dash).trim());
            int to = dash < 0 ? from : Integer.parseInt(p.substring(dash + 1).trim().replaceFirst("^[qQ]", ""));
            for (int q = from; q <= to; q++) {
                if (q < 1 || q > 22) {
                    throw new IllegalArgumentException("no TPC-H query " + q + " (1 to 22)");
                }
                if (!out.contains(q)) {
                    out.add(q);
                }
            }
        }
        return List.copyOf(out);
    }

    /** Creates a DuckDB view per table over {@code data}'s Parquet files, named as the table. */
    public static void createDuckDbViews(Connection duck, TpchData data) throws SQLException {
        try (Statement s = duck.createStatement()) {
            for (String t : TpchData.TABLES) {
                s.execute("CREATE OR REPLACE VIEW " + t + " AS SELECT * FROM read_parquet('"
                        + data.parquet(t).toAbsolutePath().toString().replace("'", "''") + "')");
            }
        }
    }
}
