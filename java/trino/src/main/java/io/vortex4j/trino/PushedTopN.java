package io.vortex4j.trino;

import java.util.List;

/**
 * {@code ORDER BY keys LIMIT count} pushed into the scan: each split returns only its best {@code
 * count} rows (the reader's {@code TopN}: a bounded heap per split, chunks zone maps rule out
 * skipped); Trino still merges the splits' rows and takes the top {@code count}.
 */
public record PushedTopN(long count, List<Key> keys) {
    /** One sort key: a file column, its direction and where its NULLs go. */
    public record Key(VortexColumnHandle column, boolean descending, boolean nullsFirst) {}

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder().append(count).append(" by ");
        for (int i = 0; i < keys.size(); i++) {
            Key k = keys.get(i);
            sb.append(i > 0 ? ", " : "").append(k.column().name()).append(k.descending() ? " DESC" : " ASC")
                    .append(k.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
        }
        return sb.toString();
    }
}
