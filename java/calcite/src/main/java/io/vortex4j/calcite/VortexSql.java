package io.vortex4j.calcite;

import io.vortex4j.calcite.jdbc.VortexDriver;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The entry point for running SQL over a directory of Vortex files, e.g. from the command line:
 *
 * <pre>{@code
 * try (Connection c = VortexSql.connect(Paths.get("/data"), true);
 *      Statement s = c.createStatement();
 *      ResultSet rs = s.executeQuery("SELECT sym, count(*) FROM trades WHERE sym IN ('AAPL', 'MSFT') GROUP BY sym")) {
 *     ...
 * }
 * }</pre>
 *
 * <p>The connection is a Calcite connection whose default schema {@value #SCHEMA} holds one
 * table per {@code NAME.vortex} file of the directory ({@link VortexSchema}). Identifiers are
 * case-insensitive and unquoted ones keep their case, so {@code trades}, {@code TRADES} and
 * {@code "trades"} all name {@code trades.vortex}.
 */
public final class VortexSql {
    /** The name of the schema holding the directory's tables (also the connection's default schema). */
    public static final String SCHEMA = "vortex";

    private VortexSql() {}

    /**
     * Opens a connection over the Vortex files of {@code directory}. With {@code pushdown},
     * filters, projections and aggregates run inside the Vortex scan where that gives exactly
     * Calcite's answer; without, every row is read and Calcite evaluates the whole query (the
     * baseline for comparisons). The directory is listed on first use. A query run again on the
     * connection reuses its plan ({@link VortexDriver}'s {@code planCache}); the same connection
     * is {@code DriverManager.getConnection("jdbc:vortex:" + directory)}.
     *
     * @param directory the directory whose {@code NAME.vortex} files become tables {@code NAME}
     * @param pushdown whether work is pushed into the Vortex scans
     * @return an open connection; closing it releases Calcite's resources
     * @throws SQLException if Calcite cannot open the connection
     */
    public static Connection connect(Path directory, boolean pushdown) throws SQLException {
        return VortexDriver.open(directory, pushdown, VortexDriver.DEFAULT_PLAN_CACHE, new Properties());
    }

    /**
     * Opens a connection over {@code directory} that keeps at most {@code planCache} query plans
     * (0: none, every statement is planned; see {@link VortexDriver}).
     *
     * @param directory the directory whose {@code NAME.vortex} files become tables {@code NAME}
     * @param pushdown whether work is pushed into the Vortex scans
     * @param planCache how many plans to keep, at least 0
     * @return an open connection
     * @throws SQLException if Calcite cannot open the connection
     * @throws IllegalArgumentException if {@code planCache} is negative
     */
    public static Connection connect(Path directory, boolean pushdown, int planCache) throws SQLException {
        if (planCache < 0) {
            throw new IllegalArgumentException("planCache must be >= 0, not " + planCache);
        }
        return VortexDriver.open(directory, pushdown, planCache, new Properties());
    }

    /**
     * Opens a connection over {@code directory} with push-down as the system property {@code
     * vortex4j.pushdown} says (on unless it is {@code false}).
     *
     * @param directory the directory whose {@code NAME.vortex} files become tables {@code NAME}
     * @return an open connection
     * @throws SQLException if Calcite cannot open the connection
     */
    public static Connection connect(Path directory) throws SQLException {
        return connect(directory, VortexSchemaFactory.defaultPushdown());
    }

    /**
     * The connection properties for using the adapter from a plain Calcite connection ({@code
     * jdbc:calcite:model=...}): case-insensitive identifiers whose case is kept ({@code
     * caseSensitive=false}, {@code unquotedCasing=UNCHANGED}, {@code quotedCasing=UNCHANGED}),
     * Calcite's Babel parser, which takes column names that are SQL keywords ({@code day}, {@code
     * year}, {@code value}, ...) unquoted ({@code parserFactory=}{@value #PARSER_FACTORY}), and
     * decimals of up to 38 digits with widened integer sums ({@code
     * typeSystem=io.vortex4j.calcite.VortexTypeSystem}), and the standard's and PostgreSQL's
     * functions ({@code fun=}{@value #DEFAULT_FUNCTIONS}). {@link #connect} and {@code jdbc:vortex:}
     * use the same with exact BIGINT sums too ({@link VortexTypeSystem.ExactBigintSums}), which a
     * plain Calcite connection cannot compile.
     *
     * @return a fresh copy of the properties
     */
    public static Properties connectionProperties() {
        Properties info = new Properties();
        info.setProperty("caseSensitive", "false");
        info.setProperty("unquotedCasing", "UNCHANGED");
        info.setProperty("quotedCasing", "UNCHANGED");
        info.setProperty("parserFactory", PARSER_FACTORY);
        info.setProperty("typeSystem", VortexTypeSystem.class.getName());
        info.setProperty("fun", DEFAULT_FUNCTIONS);
        return info;
    }

    /**
     * The function libraries of {@code jdbc:vortex:} connections unless the {@code fun} property
     * names others: the standard's and PostgreSQL's ({@code length}, {@code to_char}, {@code
     * string_agg}, …).
     */
    public static final String DEFAULT_FUNCTIONS = "standard,postgresql";

    /** Calcite's Babel parser, the most lenient about keywords used as names. */
    public static final String PARSER_FACTORY = "org.apache.calcite.sql.parser.babel.SqlBabelParserImpl#FACTORY";
}
