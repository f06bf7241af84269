package io.vortex4j.calcite.jdbc;

import io.vortex4j.reader.Stores;
import io.vortex4j.calcite.PathAccess;
import io.vortex4j.calcite.VortexSchema;
import io.vortex4j.calcite.VortexSchemaFactory;
import io.vortex4j.calcite.VortexSql;
import io.vortex4j.calcite.VortexTypeSystem;
import io.vortex4j.reader.exec.SplitExecutor;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.Driver;

/**
 * The JDBC driver for {@code jdbc:vortex:DIRECTORY[;key=value]...} URLs: a Calcite connection
 * whose default schema {@value VortexSql#SCHEMA} holds one table per {@code NAME.vortex} file of
 * the directory, with the identifier rules of {@link VortexSql#connectionProperties()}. It
 * registers itself with {@link java.sql.DriverManager}, so any JDBC tool can use it:
 *
 * <pre>{@code
 * DriverManager.getConnection("jdbc:vortex:/data/trades;pushdown=false")
 * DriverManager.getConnection("jdbc:vortex:s3://bucket/warehouse;s3.region=eu-west-1")
 * }</pre>
 *
 * <p>The directory may be an object store location ({@code s3://}, {@code gs://}, {@code az://},
 * {@code https://}; see {@link Stores}): its {@code NAME.vortex} objects and the prefixes holding
 * {@code .vortex} objects are the tables.
 *
 * <p>The JDBC contract, beyond Calcite's: a connection may be shared by threads (each running
 * its own statements); {@code Statement.setQueryTimeout} stops a query at the deadline with
 * {@link java.sql.SQLTimeoutException} and {@code cancel()} stops it with SQLState 57014, both
 * within one chunk of reading, closing the scans they stop; every failure is an {@link
 * java.sql.SQLException} whose message is one readable line ({@link QueryErrors}), never an
 * {@link Error}.
 *
 * <p>Properties (in the URL after {@code ;}, or in the {@code Properties} given; the URL wins):
 * <ul>
 *   <li>{@code directory} — the folder, when the URL does not start with one;</li>
 *   <li>{@code pushdown} — {@code false} makes Calcite evaluate everything (default: the system
 *       property {@code vortex4j.pushdown}, else {@code true});</li>
 *   <li>{@code planCache} — how many query plans the connection keeps to run a query again
 *       without planning it again ({@link PlanCache}; default {@value #DEFAULT_PLAN_CACHE},
 *       {@code 0} turns it off);</li>
 *   <li>{@code paths} — which files a query may name by path in FROM ({@code FROM
 *       'data/t.vortex'}): {@code folder} (default) those inside the directory, {@code none} no
 *       paths, {@code any} every file the JVM can read ({@link PathAccess});</li>
 *   <li>{@code threads} — how many splits of a pushed aggregate or top-n run side by side (default: the
 *       system property {@code vortex4j.threads}, else the available processors; see {@link
 *       SplitExecutor});</li>
 *   <li>{@code engine} — {@code native} runs queries in the native engine (DataFusion, the
 *       {@code engine} module) where it runs them exactly as Calcite would, {@code calcite} in
 *       Calcite's generated code (default: the system property {@code vortex4j.engine}, else
 *       {@code calcite}; see {@link Engine});</li>
 *   <li>{@code s3.*}, {@code gs.*}, {@code az.*}, {@code http.*} — object store properties
 *       ({@code s3.region}, {@code s3.endpoint}, {@code s3.access_key_id}, …; see {@link Stores}),
 *       for every bucket of the scheme; they never reach Calcite or a message;</li>
 *   <li>any other key is a Calcite connection property (e.g. {@code lex}, {@code fun}).</li>
 * </ul>
 */
public final class VortexDriver extends Driver {
    /** The URL prefix this driver accepts. */
    public static final String PREFIX = "jdbc:vortex:";

    /** Plans kept per connection unless {@code planCache} says otherwise. */
    public static final int DEFAULT_PLAN_CACHE = 256;

    static {
        new VortexDriver().register();
    }

    /** The instance {@link java.sql.DriverManager} uses; each connection gets its own with its cache. */
    public VortexDriver() {
        this(null, Engine.CALCITE);
    }

    private VortexDriver(PlanCache cache, Engine engine) {
        super(() -> cache == null ? new VortexPrepare(engine) : new PlanCachingPrepare(cache, engine));
    }

    @Override
    protected String getConnectStringPrefix() {
        return PREFIX;
    }

    /**
     * Calcite's JDBC objects with thread-safe statement creation and translated errors (see
     * {@link org.apache.calcite.jdbc.VortexJdbcFactory}).
     */
    @Override
    protected String getFactoryClassName(JdbcVersion jdbcVersion) {
        return "org.apache.calcite.jdbc.VortexJdbcFactory";
    }

    /**
     * Opens a connection for a {@code jdbc:vortex:} URL; returns null for other URLs, as JDBC
     * asks.
     *
     * @throws SQLException if no directory is given, a property is malformed, or Calcite cannot
     *     open the connection
     */
    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (url == null || !url.startsWith(PREFIX)) {
            return null;
        }
        Properties props = new Properties();
        if (info != null) {
            props.putAll(info);
        }
        String[] parts = url.substring(PREFIX.length()).split(";");
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].trim();
            int eq = part.indexOf('=');
            if (part.isEmpty()) {
                continue;
            } else if (eq > 0) {
                props.setProperty(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
            } else if (i == 0) {
                props.setProperty("directory", part);
            } else {
                throw new SQLException("malformed property '" + part + "' in " + url + " (expected key=value)");
            }
        }
        Object dir = props.remove("directory");
        String directory = dir == null ? null : dir.toString();
        if (directory == null || directory.isEmpty()) {
            throw new SQLException("no directory in " + url + " (expected " + PREFIX + "DIRECTORY[;key=value]...)");
        }
        Object pushdown = props.remove("pushdown");
        Object planCache = props.remove("planCache");
        Object paths = props.remove("paths");
        Object threadsProperty = props.remove("threads");
        Object engineProperty = props.remove("engine");
        PathAccess access;
        int threads;
        Engine engine;
        try {
            engine = engineProperty == null ? Engine.defaultEngine() : Engine.of(engineProperty.toString());
            access = paths == null ? PathAccess.FOLDER : PathAccess.of(paths.toString());
            threads = threadsProperty == null ? SplitExecutor.defaultThreads()
                    : SplitExecutor.parseThreads("threads", threadsProperty.toString());
        } catch (IllegalArgumentException e) {
            throw new SQLException(e.getMessage(), e);
        }
        if (engine == Engine.NATIVE && NativeExecution.find() == null) {
            throw new SQLException("engine=native needs the native engine (module engine, io.vortex4j.engine) on the"
                    + " class path; without it use engine=calcite");
        }
        boolean push = pushdown == null ? VortexSchemaFactory.defaultPushdown() : parseBoolean("pushdown", pushdown.toString());
        int plans = planCache == null ? DEFAULT_PLAN_CACHE : parseCapacity(planCache.toString());
        configureStores(props);
        if (Stores.isRemote(directory)) {
            return open(null, directory, push, plans, props, access, threads, engine);
        }
        return open(Paths.get(directory), null, push, plans, props, access, threads, engine);
    }

    /**
     * Hands the store properties ({@code s3.region}, {@code s3.endpoint}, …; see {@link Stores})
     * to the stores, and keeps them (secrets among them) out of Calcite's properties.
     */
    private static void configureStores(Properties props) throws SQLException {
        java.util.Map<String, String> stores = new java.util.TreeMap<>();
        for (String key : props.stringPropertyNames()) {
            if (key.startsWith("s3.") || key.startsWith("gs.") || key.startsWith("az.") || key.startsWith("http.")) {
                stores.put(key, props.getProperty(key));
                props.remove(key);
            }
        }
        try {
            Stores.configureFrom(stores);
        } catch (RuntimeException e) {
            throw new SQLException(e.getMessage(), e);
        }
    }

    /**
     * A connection over {@code directory}: Calcite's connection with the Vortex schema as its
     * default, preparing statements through a plan cache of {@code planCache} entries (none when
     * 0). {@code calciteProperties} are added to {@link VortexSql#connectionProperties()}.
     *
     * @param directory the directory whose {@code NAME.vortex} files become tables {@code NAME}
     * @param pushdown whether work is pushed into the Vortex scans
     * @param planCache how many plans to keep, at least 0
     * @param calciteProperties further Calcite connection properties
     * @return an open connection
     * @throws SQLException if Calcite cannot open the connection
     */
    public static Connection open(Path directory, boolean pushdown, int planCache, Properties calciteProperties)
            throws SQLException {
        return open(directory, pushdown, planCache, calciteProperties, PathAccess.FOLDER);
    }

    /** {@link #open(Path, boolean, int, Properties)} with files by path in FROM as {@code paths} allows. */
    static Connection open(Path directory, boolean pushdown, int planCache, Properties calciteProperties,
            PathAccess paths) throws SQLException {
        return open(directory, pushdown, planCache, calciteProperties, paths, SplitExecutor.defaultThreads(),
                Engine.defaultEngine());
    }

    /**
     * {@link #open(Path, boolean, int, Properties, PathAccess)} whose tables run pushed aggregates on
     * {@code threads} threads, its queries run by {@code engine}.
     */
    static Connection open(Path directory, boolean pushdown, int planCache, Properties calciteProperties,
            PathAccess paths, int threads, Engine engine) throws SQLException {
        return open(directory, null, pushdown, planCache, calciteProperties, paths, threads, engine);
    }

    /** A connection over the local {@code directory}, or else the store location {@code remote}. */
    private static Connection open(Path directory, String remote, boolean pushdown, int planCache,
            Properties calciteProperties, PathAccess paths, int threads, Engine engine) throws SQLException {
        Properties props = driverProperties();
        props.putAll(calciteProperties);
        VortexDriver driver = new VortexDriver(planCache > 0 ? new PlanCache(planCache) : null, engine);
        Connection connection = driver.connectCalcite(props);
        try {
            CalciteConnection calcite = connection.unwrap(CalciteConnection.class);
            calcite.getRootSchema().add(VortexSql.SCHEMA, directory != null
                    ? new VortexSchema(directory, pushdown, paths, threads)
                    : new VortexSchema(remote, pushdown, paths, threads));
            calcite.setSchema(VortexSql.SCHEMA);
            return connection;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /**
     * {@link VortexSql#connectionProperties()} with exact BIGINT sums ({@link
     * VortexTypeSystem.ExactBigintSums}), which this driver's statement preparation compiles
     * ({@link SumArgumentCasts}).
     */
    private static Properties driverProperties() {
        Properties info = VortexSql.connectionProperties();
        info.setProperty("typeSystem", VortexTypeSystem.ExactBigintSums.class.getName());
        return info;
    }

    /** Calcite's own connection set-up, bypassing the URL parsing above. */
    private Connection connectCalcite(Properties props) throws SQLException {
        return super.connect(PREFIX, props);
    }

    private static boolean parseBoolean(String key, String value) throws SQLException {
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new SQLException(key + " must be true or false, not '" + value + "'");
    }

    private static int parseCapacity(String value) throws SQLException {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new SQLException("planCache must be a number of plans >= 0, not '" + value + "'");
    }
}
