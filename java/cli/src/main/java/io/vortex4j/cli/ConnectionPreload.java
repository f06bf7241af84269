package io.vortex4j.cli;

import java.util.TimeZone;
import java.util.UUID;
import org.apache.calcite.avatica.ConnectionPropertiesImpl;

/**
 * Sets up, on a background thread, what opening a {@code jdbc:vortex:} connection sets up first
 * whatever the command line says, while the main thread reads the arguments: the secure random
 * generator of Avatica's connection id, the default time zone, and Avatica's protobuf message
 * descriptors (parsed when its connection properties are first used, even by a local
 * connection; protobuf's start-up also looks for Android classes, a miss that opens
 * every jar on the classpath). Together they were about a third of a one-shot query's connecting.
 *
 * <p>Only class initialisation and JDK state the connection would set up anyway happen here;
 * the connection waits for a class the thread is still initialising, as for any class. A failure
 * is left for the main thread to meet (and report) when it gets there.
 */
final class ConnectionPreload {
    private ConnectionPreload() {}

    /** Starts the set-up on a daemon thread (it never holds the JVM's exit). */
    static void start() {
        Thread t = new Thread(ConnectionPreload::run, "vortex4j-connection-preload");
        t.setDaemon(true);
        t.start();
    }

    private static void run() {
        try {
            UUID.randomUUID();
            TimeZone.getDefault();
            initialise(ConnectionPropertiesImpl.class); // parses all of Avatica's descriptors
        } catch (Throwable e) {
            // The main thread initialises the same classes and reports what goes wrong.
        }
    }

    private static void initialise(Class<?> c) throws ClassNotFoundException {
        Class.forName(c.getName(), true, c.getClassLoader());
    }
}
