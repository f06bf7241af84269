package io.vortex4j.cli;

import io.vortex4j.calcite.jdbc.PlannerWarmUp;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.calcite.avatica.ConnectionPropertiesImpl;

/**
 * Sets up, on a background thread, what a one-shot query sets up first whatever it says, while
 * the main thread reads the arguments and connects: with a free core, the set-up costs the
 * query's wall time little. First what opening a {@code jdbc:vortex:} connection needs: the
 * secure random generator of Avatica's connection id, the default time zone, and Avatica's
 * protobuf message descriptors (parsed when its connection properties are first used, even by a
 * local connection; protobuf's start-up also looks for Android classes, a miss that opens every
 * jar on the classpath). Then, once the main thread has read the SQL and {@linkplain
 * #statements says} it is planned, what its first plan needs ({@link PlannerWarmUp}: the operator
 * table, the parser, Calcite's default rules registered with a planner, the metadata handlers),
 * a third of a one-shot pushed query's CPU time.
 *
 * <p>Only class initialisation and JVM-wide state the query would set up anyway happen here; a
 * failure is left for the main thread to meet (and report) when it gets there. The main thread
 * {@linkplain #await() waits} for the thread before it plans, so the two never initialise
 * planner classes at once (a cycle among them could otherwise deadlock); until then they share
 * only the connection's classes, the main thread waiting for one the thread is still
 * initialising as for any class. {@code -Dvortex4j.plannerWarmUp=false} leaves the planner's
 * set-up to the main thread (to compare).
 */
final class StartupPreload {
    private StartupPreload() {}

    private static final boolean PLANNER = !"false".equals(System.getProperty("vortex4j.plannerWarmUp"));

    private static volatile Thread thread;

    /** Whether the thread goes on to the planner's set-up, once the main thread knows the SQL. */
    private static final CompletableFuture<Boolean> PLAN = new CompletableFuture<>();

    /** Starts the set-up on a daemon thread (it never holds the JVM's exit). */
    static void start() {
        Thread t = new Thread(StartupPreload::run, "vortex4j-startup-preload");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /**
     * Tells the thread whether to set up the planner: only when one of {@code statements} is
     * planned ({@link PlannerWarmUp#servesAny}; not for {@code SELECT 1}, which Calcite answers
     * without a planner). Until told, the thread stops after the connection's set-up.
     */
    static void statements(List<String> statements) {
        PLAN.complete(PLANNER && PlannerWarmUp.servesAny(statements));
    }

    /** Waits until the set-up {@linkplain #start() started} is over; returns at once if none was. */
    static void await() {
        Thread t = thread;
        if (t == null) {
            return;
        }
        PLAN.complete(false); // not told: the connection's set-up only
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        thread = null;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void run() {
        try {
            UUID.randomUUID();
            TimeZone.getDefault();
            initialise(ConnectionPropertiesImpl.class); // parses all of Avatica's descriptors
            if (PLAN.join()) {
                PlannerWarmUp.run();
            }
        } catch (Throwable e) {
            // The main thread initialises the same classes and reports what goes wrong.
        }
    }

    private static void initialise(Class<?> c) throws ClassNotFoundException {
        Class.forName(c.getName(), true, c.getClassLoader());
    }
}
