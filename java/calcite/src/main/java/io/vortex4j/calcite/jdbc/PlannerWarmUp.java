package io.vortex4j.calcite.jdbc;

import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.TimeFrames;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Sets up the JVM-wide state a first statement's planning would otherwise set up on its own
 * thread, so that a process about to run one query can do it on a spare core while it starts
 * (parses its arguments, opens its connection). A fresh JVM spends most of a one-shot query's
 * planning here rather than on the query: the standard operator table and its look-up index,
 * the Babel parser, the validator's time frames, the convertlets, the push-down rules and the
 * planner that applies them alone ({@link DirectOptimization}), and the planner metadata's
 * reflective handlers when {@link InterpretedMetadata} is on (a generated proxy class per kind
 * of metadata).
 *
 * <p>Calcite's ~150 default rules and its optimisation program are not set up here: a pushed
 * aggregate, the one-shot query this serves, is planned without them, and the thread's time is
 * on the query's path (the caller waits for it before planning). A statement that needs them
 * registers them when it is planned ({@link DeferredRulesPlanner}).
 *
 * <p>It only initialises classes and fills JVM-wide caches Calcite fills anyway: nothing it
 * builds is kept and no connection, schema or file is touched, so a query planned
 * afterwards (or meanwhile) gets the same plan. To stay clear of a deadlock between two threads
 * initialising classes that need each other, the caller should let {@link #run()} finish before
 * its own thread plans (the command line starts it with its arguments and waits for it once
 * connected).
 */
public final class PlannerWarmUp {
    private PlannerWarmUp() {}

    /**
     * The statements Calcite answers without planning them ({@code CalcitePrepareImpl}'s private
     * list, as of Calcite 1.42); planning anything else needs what {@link #run()} sets up.
     */
    private static final Set<String> UNPLANNED =
            Set.of("SELECT 1", "select 1", "SELECT 1 FROM DUAL", "select 1 from dual", "values 1", "VALUES 1");

    /**
     * Whether running {@code statements} plans any (so {@link #run()} would serve them): false
     * for none or only statements Calcite answers without a planner, such as {@code SELECT 1}.
     *
     * @param statements the SQL statements about to run
     * @return whether any of them is planned
     */
    public static boolean servesAny(List<String> statements) {
        for (String sql : statements) {
            if (!UNPLANNED.contains(sql)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Initialises what is listed on the class, in the order a statement needs it (parse,
     * validate, convert, plan).
     *
     * @throws RuntimeException whatever Calcite's set-up throws (the caller's own planning would
     *     then meet and report the same)
     */
    public static void run() {
        SqlStdOperatorTable.instance();
        try {
            SqlParser.create("SELECT 1", SqlParser.config().withParserFactory(SqlBabelParserImpl.FACTORY))
                    .parseQuery();
        } catch (SqlParseException e) {
            throw new IllegalStateException(e);
        }
        TimeFrames.CORE.getClass(); // the validator's time units (commons-math fractions)
        StandardConvertletTable.INSTANCE.getClass();
        DirectOptimization.warmUp();
        InterpretedMetadata.warmUp();
    }
}
