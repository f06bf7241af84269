package io.vortex4j.reader.exec;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.predicate.Predicate;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Lets a split of a {@link TopN} skip chunks by zone maps: once a split has filled its heap, no
 * row placed after that heap's last row can be in the answer, so splits opened later add {@code
 * key >= v} ({@code <=} for an ascending key; {@code OR key IS NULL} when nulls come first) on the
 * first key to their filter, and vortex skips the chunks whose min/max rule it out. The bound is
 * the best of the full heaps' last rows; inclusive, so rows tied with it still compete.
 *
 * <p>Only for a first key of a signed integer, date, time or timestamp column compared as it is
 * (granule 1): there the predicate's order is the key's order. Thread-safe.
 */
final class TopNPruning<E> {
    private final SortKey key;
    private final Comparator<? super E> order;
    private final AtomicReference<E> bound = new AtomicReference<>();

    private TopNPruning(SortKey key, Comparator<? super E> order) {
        this.key = key;
        this.order = order;
    }

    /** Pruning by {@code key} of type {@code type}, or null when its order is not the predicates' order. */
    static <E> TopNPruning<E> of(SortKey key, DataType type, Comparator<? super E> order) {
        if (key.granule() != 1) {
            return null;
        }
        switch (type.kind()) {
            case INT8: case INT16: case INT32: case INT64: case DATE: case TIME: case TIMESTAMP:
                return new TopNPruning<>(key, order);
            default:
                return null;
        }
    }

    /** Offers the last row of a full heap; keeps the best one offered. */
    void offer(E last) {
        bound.accumulateAndGet(last, (a, b) -> a == null || order.compare(b, a) < 0 ? b : a);
    }

    /**
     * {@code filter} (may be null) narrowed to the rows that may still enter the answer; {@code
     * value} reads the bound's first key as a predicate literal (null when it is null: no pruning).
     */
    Predicate narrow(Predicate filter, java.util.function.Function<E, Object> value) {
        E b = bound.get();
        Object v = b == null ? null : value.apply(b);
        if (v == null) {
            return filter;
        }
        Predicate p = key.descending() ? Predicate.ge(key.column(), v) : Predicate.le(key.column(), v);
        if (key.nullsFirst()) {
            p = Predicate.or(p, Predicate.isNull(key.column()));
        }
        return filter == null ? p : Predicate.and(filter, p);
    }
}
