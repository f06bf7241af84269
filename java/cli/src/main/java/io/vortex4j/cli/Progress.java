package io.vortex4j.cli;

import java.io.PrintStream;

/** A one-line progress display on a terminal (standard error); silent when not a terminal. */
final class Progress {
    private final String label;
    private final long total;
    private final String unit;
    private final PrintStream out = System.err;
    private final boolean terminal = System.console() != null;
    private final long start = System.nanoTime();

    Progress(String label, long total) {
        this(label, total, "rows");
    }

    /** A display counting {@code unit}s (e.g. "rows", "bytes read") up to {@code total}. */
    Progress(String label, long total, String unit) {
        this.label = label;
        this.total = total;
        this.unit = unit;
    }

    /** Shows {@code done} of the total. */
    void update(long done) {
        if (terminal) {
            out.printf("\r%s: %,d / %,d %s (%d%%)", label, done, total, unit, total == 0 ? 100 : done * 100 / total);
            out.flush();
        }
    }

    /** Ends the line with a summary. */
    void finish(String summary) {
        double seconds = (System.nanoTime() - start) / 1e9;
        if (terminal) {
            out.print("\r\033[K");
        }
        out.printf("%s: %s in %.2f s%n", label, summary, seconds);
    }
}
