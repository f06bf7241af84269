package io.vortex4j.reader.compute;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The key of a group over several columns: their values (null for a null key), equal when every
 * value is equal, byte arrays by content.
 */
final class KeyTuple {
    private final Object[] values;

    KeyTuple(Object[] values) {
        this.values = values;
    }

    /** The value of group column {@code k}. */
    Object get(int k) {
        return values[k];
    }

    /** The values, unmodifiable. */
    List<Object> asList() {
        return Collections.unmodifiableList(Arrays.asList(values));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyTuple t && Arrays.deepEquals(values, t.values);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        return Arrays.deepToString(values);
    }
}
