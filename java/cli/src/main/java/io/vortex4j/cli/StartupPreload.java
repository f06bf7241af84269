package io.vortex4j.cli;

import io.vortex4j.calcite.PlannerWarmUp;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.calcite.avatica.ConnectionPropertiesImpl;

/**
 * Sets up, on two background threads, what a one-shot query sets up first whatever it says, while
 * the main thread reads the arguments, connects and opens the data folder's files: with a free
 * core, the set-up costs the query's wall time little. One thread does what opening a {@code
 * jdbc:vortex:} connection needs: the secure random generator of Avatica's connection id, the
 * default time zone, and Avatica's protobuf message descriptors (parsed when its connection
 * properties are first used, even by a local connection; protobuf's start-up also looks for
 * Android classes, a miss that opens every jar on the classpath). The other, as soon as the SQL
 * is known to be planned (from the command line's words, else once the main thread {@linkplain
 * #statements says}), does what its first plan needs
 * ({@link PlannerWarmUp}: the operator table, the parser, Calcite's default rules registered with a
 * planner, the metadata handlers), a third of a one-shot pushed query's CPU time; on its own
 * thread it no longer waits for Avatica's set-up, which the main thread's connection waits for
 * anyway.
 *
 * <p>Only class initialisation and JVM-wide state the query would set up anyway happen here; a
 * failure is left for the main thread to meet (and report) when it gets there. The main thread
 * {@linkplain #await() waits} for both threads before it plans, so it never initialises planner
 * classes while the planner's thread does (a cycle among them could otherwise deadlock); until
 * then it connects, waiting for a class another thread is still initialising as for any class.
 * {@code -Dvortex4j.plannerWarmUp=false} leaves the planner's set-up to the main thread (to
 * compare).
 */
final class StartupPreload {
    private StartupPreload() {}

    private static final boolean PLANNER = !"false".equals(System.getProperty("vortex4j.plannerWarmUp"));

    /** The threads {@linkplain #start() started} and not yet {@linkplain #await() awaited}. */
    private static volatile List<Thread> threads = List.of();

    /** Whether the planner's thread sets the planner up, once the main thread knows the SQL. */
    private static final CompletableFuture<Boolean> PLAN = new CompletableFuture<>();

    /**
     * Starts the set-up on two daemon threads (they never hold the JVM's exit): the connection's
     * and the planner's. They share no class whose initialisation needs the other's (Avatica's
     * connection and protobuf classes do not use Calcite's planner, nor it them), so they cannot
     * deadlock each other. The planner's runs at once when {@code args} (the command's words)
     * hold its SQL — a word with a space is a statement, and the thread runs if one of them is
     * planned — so it need not wait for the arguments to be parsed; otherwise (SQL on stdin, the
     * shell, unquoted SQL) it waits until the main thread {@linkplain #statements says}.
     */
    static void start(List<String> args) {
        List<String> sql = new ArrayList<>();
        for (String a : args) {
            if (!a.startsWith("-") && a.strip().indexOf(' ') > 0) {
                sql.add(a.strip());
            }
        }
        if (!sql.isEmpty()) {
            statements(sql);
        }
        threads = List.of(daemon(StartupPreload::connection, "vortex4j-preload-connection"),
                daemon(StartupPreload::planner, "vortex4j-preload-planner"));
    }

    private static Thread daemon(Runnable work, String name) {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Tells the planner's thread whether to set up the planner: only when one of {@code
     * statements} is planned ({@link PlannerWarmUp#servesAny}; not for {@code SELECT 1}, which
     * Calcite answers without a planner). Until told, it waits; once told, later calls change
     * nothing.
     */
    static void statements(List<String> statements) {
        PLAN.complete(PLANNER && PlannerWarmUp.servesAny(statements));
    }

    /** Waits until the set-up {@linkplain #start() started} is over; returns at once if none was. */
    static void await() {
        List<Thread> started = threads;
        PLAN.complete(false); // not told: the connection's set-up only
        boolean interrupted = false;
        for (Thread t : started) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        threads = List.of();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    // The main thread initialises the same classes and reports what goes wrong.
    private static void connection() {
        try {
            UUID.randomUUID();
            TimeZone.getDefault();
            initialise(ConnectionPropertiesImpl.class); // parses all of Avatica's descriptors
        } catch (Throwable e) {
            // see above
        }
    }

    private static void planner() {
        try {
            if (PLAN.join()) {
                PlannerWarmUp.run();
            }
        } catch (Throwable e) {
            // see connection()
        }
    }

    private static void initialise(Class<?> c) throws ClassNotFoundException {
        Class.forName(c.getName(), true, c.getClassLoader());
    }
}
