package io.vortex4j.reader.exec;

import java.util.Objects;

/**
 * One key of a {@link TopN} ordering: a file column, its direction, where its nulls go ({@code
 * nullsFirst}: before every value in the output, whatever the direction), and the granule its
 * values are compared at.
 *
 * @param column a column of the dataset's files
 * @param descending largest values first
 * @param nullsFirst nulls before the values (else after them)
 * @param granule values are compared after floor division by it (1: as they are); e.g. 1000
 *     orders a microsecond timestamp by its millisecond, so that rows of one millisecond tie and
 *     the next key decides. Only for signed integer, date, time and timestamp columns.
 */
public record SortKey(String column, boolean descending, boolean nullsFirst, long granule) {
    /** Checks the column name and the granule. */
    public SortKey {
        Objects.requireNonNull(column, "column");
        if (granule <= 0) {
            throw new IllegalArgumentException("the granule of key '" + column + "' must be positive, not " + granule);
        }
    }

    /** A key comparing the column's values as they are. */
    public SortKey(String column, boolean descending, boolean nullsFirst) {
        this(column, descending, nullsFirst, 1);
    }

    @Override
    public String toString() {
        return column + (granule == 1 ? "" : " / " + granule) + (descending ? " DESC" : "")
                + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
    }
}
