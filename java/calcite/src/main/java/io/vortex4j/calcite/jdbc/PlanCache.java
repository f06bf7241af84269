package io.vortex4j.calcite.jdbc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;

/**
 * The plans of one connection's queries, by SQL text: parsing, validating and optimizing even a
 * one-line query takes Calcite several times what the scan of a dictionary column takes, so a
 * query run again reuses its compiled plan. Plans are of immutable tables
 * (a Vortex file never changes under an open table), so a plan stays right as long as the
 * connection's schemas do. Least recently used plans are dropped beyond the capacity.
 * Thread-safe.
 */
final class PlanCache {
    /** What a plan depends on besides the tables: the text, the default schema, the row limit. */
    record Key(String sql, List<String> defaultSchema, long maxRowCount) {
        Key {
            Objects.requireNonNull(sql);
            defaultSchema = defaultSchema == null ? List.of() : List.copyOf(defaultSchema);
        }
    }

    private final Map<Key, CalciteSignature<?>> plans;

    /** A cache of at most {@code capacity} plans ({@code capacity > 0}). */
    PlanCache(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("plan cache capacity must be positive, not " + capacity);
        }
        this.plans = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, CalciteSignature<?>> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The plan of {@code key}, or null if none is cached. */
    synchronized CalciteSignature<?> get(Key key) {
        return plans.get(key);
    }

    synchronized void put(Key key, CalciteSignature<?> plan) {
        plans.put(key, plan);
    }

    /** Forgets the plan of {@code key} if it still is {@code plan} (one that turned out broken). */
    synchronized void remove(Key key, CalciteSignature<?> plan) {
        plans.remove(key, plan);
    }

    /** Forgets every plan (after a statement that may have changed the schemas). */
    synchronized void clear() {
        plans.clear();
    }
}
