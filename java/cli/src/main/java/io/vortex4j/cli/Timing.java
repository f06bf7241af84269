package io.vortex4j.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Where a command's time went, from the JVM's start: the laps {@code sql --timing} prints on stderr. */
final class Timing {
    private final Map<String, Long> laps = new LinkedHashMap<>();
    private long last = processStartNanos();

    /** The process's start on the {@link System#nanoTime()} clock (now when the OS does not say). */
    private static long processStartNanos() {
        long now = System.nanoTime();
        return ProcessHandle.current().info().startInstant()
                .map(start -> now - Duration.between(start, Instant.now()).toNanos())
                .orElse(now);
    }

    /** Ends the phase {@code name} now (phases of the same name add up). */
    void lap(String name) {
        long now = System.nanoTime();
        laps.merge(name, now - last, Long::sum);
        last = now;
    }

    /** Prints the phases on stderr when {@code enabled}. */
    void report(boolean enabled) {
        if (!enabled) {
            return;
        }
        StringBuilder b = new StringBuilder("timing:");
        long total = 0;
        for (Map.Entry<String, Long> e : laps.entrySet()) {
            b.append(String.format(" %s %.0f ms,", e.getKey(), e.getValue() / 1e6));
            total += e.getValue();
        }
        System.err.println(b.append(String.format(" total %.0f ms", total / 1e6)));
    }
}
