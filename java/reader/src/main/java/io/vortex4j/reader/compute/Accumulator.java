package io.vortex4j.reader.compute;

import io.vortex4j.VortexException;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Binary;
import io.vortex4j.reader.array.Float32Array;
import io.vortex4j.reader.array.Float64Array;
import io.vortex4j.reader.array.Int16Array;
import io.vortex4j.reader.array.Int32Array;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.Int8Array;
import io.vortex4j.reader.array.UInt16Array;
import io.vortex4j.reader.array.UInt32Array;
import io.vortex4j.reader.array.UInt8Array;
import io.vortex4j.reader.array.Unchecked;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.predicate.Literals;
import io.vortex4j.reader.predicate.Predicate;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * Per-group state of one aggregate for {@link GroupAggregate}. {@link #add} folds a batch of
 * selected rows (with their group ids) in one tight loop per column type.
 */
abstract class Accumulator {
    /** Grows the per-group state to {@code groups} groups. */
    abstract void ensure(int groups);

    /** Folds rows {@code rows[0..m)} of {@code column} into groups {@code gids[0..m)}. */
    abstract void add(Array column, int[] rows, int[] gids, int m);

    /** The SQL result of group {@code g}. */
    abstract Object result(int g);

    /**
     * Whether the native kernel computes this aggregate exactly as Java would ({@code
     * Native.aggregateChunk}): counts, integer SUM/MIN/MAX, MIN/MAX of f32/f64, and SUM of f32/f64
     * without GROUP BY (continuing {@link #nativeStart}, so in row order as here).
     */
    boolean isNative() {
        return false;
    }

    /** The float sum so far that the native kernel continues (group 0; 0.0 for the others). */
    double nativeStart() {
        return 0.0;
    }

    /** Folds a native partial: {@code count} rows or values of group {@code g}, and their value. */
    void merge(int g, long count, long value) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " is not computed natively");
    }

    /** Folds a native float partial: {@code count} values of group {@code g}, and their result. */
    void merge(int g, long count, double value) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " is not computed natively");
    }

    /** The accumulator of {@code agg} over {@code field}, {@code keyed} with GROUP BY columns. */
    static Accumulator create(GroupAggregate.Aggregate agg, Field field, boolean keyed) {
        switch (agg.function()) {
            case COUNT_STAR:
            case COUNT:
                return new Count();
            case SUM:
                return sum(agg, field, keyed);
            default:
                return minMax(agg, field);
        }
    }

    private static Accumulator sum(GroupAggregate.Aggregate agg, Field field, boolean keyed) {
        DataType.Kind k = field.type().kind();
        if (k == DataType.Kind.FLOAT32 || k == DataType.Kind.FLOAT64 || k == DataType.Kind.FLOAT16) {
            // f16 is widened here; the native kernel takes f32 and f64 only.
            return new SumDouble(!keyed && k != DataType.Kind.FLOAT16);
        }
        if (k.isInteger() && k != DataType.Kind.UINT64) {
            return new SumLong(agg);
        }
        if (k == DataType.Kind.UINT64 || k == DataType.Kind.DECIMAL) {
            return new SumDecimal();
        }
        throw new VortexException("cannot SUM column '" + field.name() + "' of type " + field.type());
    }

    private static Accumulator minMax(GroupAggregate.Aggregate agg, Field field) {
        boolean max = agg.function() == GroupAggregate.Function.MAX;
        DataType.Kind k = field.type().kind();
        if (k == DataType.Kind.FLOAT32 || k == DataType.Kind.FLOAT64 || k == DataType.Kind.FLOAT16) {
            return new MinMaxDouble(max, k != DataType.Kind.FLOAT64, k != DataType.Kind.FLOAT16);
        }
        if (k.isInteger() && k != DataType.Kind.UINT64) {
            return new MinMaxLong(max, k);
        }
        return new MinMaxObject(max);
    }

    static int grow(int length, int groups) {
        return Math.max(groups, length * 2);
    }

    /** COUNT(*) (no column: every row) and COUNT(column) (its non-null values). */
    static final class Count extends Accumulator {
        long[] counts = new long[16];

        @Override
        void ensure(int groups) {
            if (counts.length < groups) {
                counts = Arrays.copyOf(counts, grow(counts.length, groups));
            }
        }

        @Override
        void add(Array column, int[] rows, int[] gids, int m) {
            if (column == null || !column.mayHaveNulls()) {
                for (int k = 0; k < m; k++) {
                    counts[gids[k]]++;
                }
                return;
            }
            for (int k = 0; k < m; k++) {
                if (!column.isNull(rows[k])) {
                    counts[gids[k]]++;
                }
            }
        }

        @Override
        Object result(int g) {
            return g < counts.length ? counts[g] : 0L;
        }

        @Override
        boolean isNative() {
            return true;
        }

        @Override
        void merge(int g, long count, long value) {
            counts[g] += count;
        }
    }

    /** Shared "has a non-null value" flags. */
    abstract static class Seen extends Accumulator {
        boolean[] seen = new boolean[16];

        @Override
        void ensure(int groups) {
            if (seen.length < groups) {
                int n = grow(seen.length, groups);
                seen = Arrays.copyOf(seen, n);
                resize(n);
            }
        }

        abstract void resize(int n);

        boolean has(int g) {
            return g < seen.length && seen[g];
        }
    }

    /** SUM of integers, exact (overflow is an error, not a wrong answer). */
    static final class SumLong extends Seen {
        final GroupAggregate.Aggregate agg;
        long[] sums = new long[16];

        SumLong(GroupAggregate.Aggregate agg) {
            this.agg = agg;
        }

        @Override
        void resize(int n) {
            sums = Arrays.copyOf(sums, n);
        }

        @Override
        void add(Array column, int[] rows, int[] gids, int m) {
            if (column instanceof Int64Array x && !x.mayHaveNulls()) {
                for (int k = 0; k < m; k++) {
                    addTo(gids[k], Unchecked.int64At(x, rows[k]));
                }
                return;
            }
            for (int k = 0; k < m; k++) {
                int i = rows[k];
                if (Unchecked.valid(column, i)) {
                    addTo(gids[k], Unchecked.longAt(column, i));
                }
            }
        }

        /** Adds {@code v} to group {@code g}'s sum; overflow is an error. */
        private void addTo(int g, long v) {
            try {
                sums[g] = Math.addExact(sums[g], v);
            } catch (ArithmeticException e) {
                throw new VortexException(agg + " overflows a 64-bit integer");
            }
            seen[g] = true;
        }

        @Override
        Object result(int g) {
            return has(g) ? sums[g] : null;
        }

        @Override
        boolean isNative() {
            return true;
        }

        @Override
        void merge(int g, long count, long value) {
            if (count > 0) {
                addTo(g, value);
            }
        }
    }

    /** SUM of floating-point values, in row order (natively too: see {@link #nativeStart}). */
    static final class SumDouble extends Seen {
        final boolean nativeSum;
        double[] sums = new double[16];

        SumDouble(boolean nativeSum) {
            this.nativeSum = nativeSum;
        }

        @Override
        boolean isNative() {
            return nativeSum;
        }

        @Override
        double nativeStart() {
            return sums[0];
        }

        @Override
        void merge(int g, long count, double value) {
            // The kernel returns the sum so far plus the chunk's values: the new running sum.
            if (count > 0) {
                sums[g] = value;
                seen[g] = true;
            }
        }

        @Override
        void resize(int n) {
            sums = Arrays.copyOf(sums, n);
        }

        @Override
        void add(Array column, int[] rows, int[] gids, int m) {
            if (column instanceof Float64Array x && !x.mayHaveNulls()) {
                // Each run of rows of one group (all of them without GROUP BY) is added in a local,
                // in row order as below: the same sums, without a store and reload per row.
                for (int k = 0; k < m; ) {
                    int g = gids[k];
                    double s = sums[g];
                    for (; k < m && gids[k] == g; k++) {
                        s += Unchecked.float64At(x, rows[k]);
                    }
                    sums[g] = s;
                    seen[g] = true;
                }
                return;
            }
            for (int k = 0; k < m; k++) {
                int i = rows[k];
                if (Unchecked.valid(column, i)) {
                    int g = gids[k];
                    sums[g] += Unchecked.doubleAt(column, i);
                    seen[g] = true;
                }
            }
        }

        @Override
        Object result(int g) {
            return has(g) ? sums[g] : null;
        }
    }

    /** SUM of decimals and u64, exact. */
    static final class SumDecimal extends Seen {
        BigDecimal[] sums = new BigDecimal[16];

        @Override
        void resize(int n) {
            sums = Arrays.copyOf(sums, n);
        }

        @Override
        void add(Array column, int[] rows, int[] gids, int m) {
            for (int k = 0; k < m; k++) {
                Object v = Values.valueAt(column, rows[k]);
                if (v != null) {
                    int g = gids[k];
                    BigDecimal d = v instanceof BigInteger b ? new BigDecimal(b) : (BigDecimal) v;
                    sums[g] = sums[g] == null ? d : sums[g].add(d);
                    seen[g] = true;
                }
            }
        }

        @Override
        Object result(int g) {
            return has(g) ? sums[g] : null;
        }
    }

    /** MIN/MAX of integers up to u32. */
    static final class MinMaxLong extends Seen {
        final boolean max;
        final DataType.Kind kind;
        long[] best = new long[16];

        MinMaxLong(boolean max, DataType.Kind kind) {
            this.max = max;
            this.kind = kind;
        }

        @Override
        void resize(int n) {
            best = Arrays.copyOf(best, n);
        }

        @Override
        void add(Array column, int[] rows, int[] gids, int m) {
            for (int k = 0; k < m; k++) {
                int i = rows[k];
                if (Unchecked.valid(column, i)) {
                    offer(gids[k], Unchecked.longAt(column, i));
                }
            }
        }

        /** Keeps {@code v} as group {@code g}'s best if it is the first or better. */
        private void offer(int g, long v) {
            if (!seen[g] || (max ? v > best[g] : v < best[g])) {
                best[g] = v;
                seen[g] = true;
            }
        }

        @Override
        boolean isNative() {
            return true;
        }

        @Override
        void merge(int g, long count, long value) {
            if (count > 0) {
                offer(g, value);
            }
        }

        @Override
        Object result(int g) {
            if (!has(g)) {
                return null;
            }
            long v = best[g];
            switch (kind) {
                case INT8: return (byte) v;
                case INT16: return (short) v;
                case INT32: return (int) v;
                case UINT8:
                case UINT16: return (int) v;
                default: return v;
            }
        }
    }

    /** MIN/MAX of floats (total order, as Double.compare). */
    static final class MinMaxDouble extends Seen {
        final boolean max;
        final boolean single;
        final boolean nativeMinMax;
        double[] best = new double[16];

        MinMaxDouble(boolean max, boolean single, boolean nativeMinMax) {
            this.max = max;
            this.single = single;
            this.nativeMinMax = nativeMinMax;
        }

        @Override
        boolean isNative() {
            return nativeMinMax;
        }

        @Override
        void merge(int g, long count, double value) {
            if (count > 0) {
                offer(g, value);
            }
        }

        private void offer(int g, double v) {
            int c = Double.compare(v, best[g]);
            if (!seen[g] || (max ? c > 0 : c < 0)) {
                best[g] = v;
                seen[g] = true;
            }
        }

        @Override
        void resize(int n) {
            best = Arrays.copyOf(best, n);
        }

        @Override
        void add(Array column, int[] rows, int[] gids, int m) {
            for (int k = 0; k < m; k++) {
                int i = rows[k];
                if (Unchecked.valid(column, i)) {
                    offer(gids[k], Unchecked.doubleAt(column, i));
                }
            }
        }

        @Override
        Object result(int g) {
            return !has(g) ? null : single ? (Object) (float) best[g] : (Object) best[g];
        }
    }

    /** MIN/MAX of anything else, compared as {@link Predicate} literals are. */
    static final class MinMaxObject extends Seen {
        final boolean max;
        Object[] best = new Object[16];

        MinMaxObject(boolean max) {
            this.max = max;
        }

        @Override
        void resize(int n) {
            best = Arrays.copyOf(best, n);
        }

        @Override
        void add(Array column, int[] rows, int[] gids, int m) {
            for (int k = 0; k < m; k++) {
                Object v = Values.valueAt(column, rows[k]);
                if (v != null) {
                    int g = gids[k];
                    if (!seen[g] || better(v, best[g])) {
                        best[g] = v;
                        seen[g] = true;
                    }
                }
            }
        }

        private boolean better(Object v, Object current) {
            // Literals.compare takes a column value and a literal; binary literals are Binary.
            int c = Literals.compare(v, current instanceof byte[] b ? new Binary(b) : current);
            return max ? c > 0 : c < 0;
        }

        @Override
        Object result(int g) {
            return has(g) ? best[g] : null;
        }
    }
}
