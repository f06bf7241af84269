package io.vortex4j.reader.compute;

import io.vortex4j.reader.predicate.Predicate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What Java computed once per entry of a dictionary ({@link EntryTable}, {@link GroupKeys}),
 * shared by every chunk and thread using that dictionary: the reference writer stores one
 * dictionary per column, so a function of a column's value runs once per distinct value of the
 * scan. Keyed by the dictionary's process-unique id (never reused) and the function.
 *
 * <p>Least recently used, bounded. The map only hands out holders (cheap to create, under the
 * map's lock); each holder computes its content under its own lock, so two threads on one
 * dictionary compute it once and threads on other dictionaries do not wait.
 */
final class EntryCache {
    private static final int CAPACITY = 256;

    private record Key(long dictionary, Object function) {}

    private static final Map<Key, Object> HOLDERS = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Object> eldest) {
            return size() > CAPACITY;
        }
    };

    private EntryCache() {}

    /** The holder for {@code function} on dictionary {@code dictionary}, made on first use. */
    @SuppressWarnings("unchecked")
    static synchronized <T> T holder(long dictionary, Object function, Supplier<T> make) {
        return (T) HOLDERS.computeIfAbsent(new Key(dictionary, function), k -> make.get());
    }

    /** A key equal only to the same object: {@link Predicate.Computed} compares tests by identity. */
    record Identity(Object referent) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Identity i && i.referent == referent;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(referent);
        }
    }

    /**
     * Throws {@code t} as it is, checked or not: a SQL engine's function fails with its own
     * exception, which must reach the caller unchanged. Declared to return one for {@code throw}.
     */
    static RuntimeException rethrow(Throwable t) {
        throw EntryCache.<RuntimeException>sneaky(t);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }
}
