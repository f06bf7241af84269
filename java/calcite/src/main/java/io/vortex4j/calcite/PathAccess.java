package io.vortex4j.calcite;

import java.util.Locale;

/**
 * Which files a query may name by path in FROM ({@code SELECT ... FROM 'data/trades.vortex'}),
 * the connection property {@code paths} (as DuckDB's {@code enable_external_access}): a SQL
 * user must not read files beyond the folder a server's connection was opened on.
 */
public enum PathAccess {
    /** No paths in FROM: only the folder's tables. */
    NONE,
    /**
     * Paths inside the connection's folder only (the default): relative paths resolve against
     * it, and a path that leaves it — by {@code ..}, an absolute path elsewhere, or a symbolic
     * link pointing out — is refused.
     */
    FOLDER,
    /** Any file the JVM can read (the command line's choice: its user types the paths). */
    ANY;

    /** The access named {@code value} ({@code none}, {@code folder}, {@code any}; case-insensitive). */
    public static PathAccess of(String value) {
        for (PathAccess a : values()) {
            if (a.name().equalsIgnoreCase(value.trim())) {
                return a;
            }
        }
        throw new IllegalArgumentException("paths must be none, folder or any, not '" + value + "'");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
