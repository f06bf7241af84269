package io.vortex4j.calcite.jdbc;

import java.util.Locale;

/**
 * Which engine executes a connection's queries: Calcite's generated Java code, or the native
 * engine (DataFusion in the native library, module {@code engine}; see {@link NativeExecution}),
 * which runs what it can run exactly as Calcite defines it and leaves the rest to Calcite.
 */
public enum Engine {
    CALCITE,
    NATIVE;

    /** The system property naming the default engine. */
    public static final String PROPERTY = "vortex4j.engine";

    /** The engine named {@code name} ({@code calcite} or {@code native}, any case). */
    public static Engine of(String name) {
        for (Engine e : values()) {
            if (e.name().equalsIgnoreCase(name.trim())) {
                return e;
            }
        }
        throw new IllegalArgumentException("engine must be calcite or native, not '" + name + "'");
    }

    /** The system property {@value #PROPERTY}'s engine, else {@link #CALCITE}. */
    public static Engine defaultEngine() {
        String name = System.getProperty(PROPERTY);
        return name == null || name.isBlank() ? CALCITE : of(name);
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
