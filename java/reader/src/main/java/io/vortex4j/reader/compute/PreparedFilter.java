package io.vortex4j.reader.compute;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.internal.Native;
import io.vortex4j.reader.internal.NativeHandle;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.PredicateCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * A chunk filter prepared once per {@link Scan} on the native side ({@code rust/src/predicate/prepared.rs}):
 * its leaves decoded, normalized and resolved against the scanned columns, so that selecting,
 * counting or aggregating the rows a chunk selects is one native call (a count or an aggregate
 * with no bitmap crossing JNI). It is the one way a filter is evaluated natively: row consumers
 * ({@link PredicateEvaluator#selection}), counts and pushed aggregates all use it.
 *
 * <p>The filter crosses in negation normal form as a shape, prefix order {@code AND n}, {@code OR
 * n}, {@code LEAF k}, over the leaves' encodings ({@link PredicateCodec}). A leaf the encoding
 * cannot carry (a {@link Predicate.Computed}, a java.time literal) is evaluated per chunk by
 * {@link PredicateEvaluator} (memoized, a Java function once per dictionary entry) and its
 * selection passed along. Answers equal {@link PredicateEvaluator#selection}'s, errors included:
 * a chunk where a Java leaf throws, or a native leaf cannot be evaluated (say, an ILIKE on
 * non-ASCII values), is declined, and the caller takes the selection path.
 *
 * <p>Owned by its scan, freed exactly once when the scan closes (in-flight calls finish first).
 *
 * <p>Public for the reader's own packages; not a user API.
 */
public final class PreparedFilter implements AutoCloseable {
    /** The shape's tree tags (docs/jni.md; the native library's table is checked against them by a test). */
    static final int AND = 0;
    static final int OR = 1;
    static final int LEAF = 2;

    private final NativeHandle handle;
    /** Per leaf: the leaf if Java evaluates it, else null. */
    private final Predicate[] javaLeaves;
    private final boolean anyJavaLeaf;

    private PreparedFilter(long handle, Predicate[] javaLeaves, String what) {
        this.handle = new NativeHandle(handle, Native::freeFilter, what);
        this.javaLeaves = javaLeaves;
        boolean any = false;
        for (Predicate p : javaLeaves) {
            any |= p != null;
        }
        this.anyJavaLeaf = any;
    }

    /**
     * Prepares {@code filter} for the chunks of the scan whose native handle the caller holds
     * (acquired), scanning {@code schema}, before or after its first chunk; {@code what} names it
     * in errors. Throws {@link io.vortex4j.VortexException} for a leaf on an unknown column or of
     * another type, as {@link PredicateEvaluator#selection} does.
     */
    public static PreparedFilter prepare(long scan, Schema schema, Predicate filter, String what) {
        Plan plan = Plan.of(filter);
        int[] columns = new int[plan.leaves.length];
        for (int k = 0; k < columns.length; k++) {
            columns[k] = PredicateEvaluator.column(schema, plan.leaves[k]);
        }
        long prepared = Native.prepareFilter(scan, plan.shape, plan.encoded, columns);
        return new PreparedFilter(prepared, plan.javaLeaves, "prepared filter of " + what);
    }

    /**
     * What {@code Native.prepareFilter} takes for {@code filter} over a scan of {@code schema}:
     * {shape, leaf encodings, leaf columns} as {@code Object[]{int[], byte[][], int[]}}, or null
     * when a leaf is evaluated by Java. Throws as {@link #prepare} does.
     */
    public static Object[] nativeEncoding(Schema schema, Predicate filter) {
        Plan plan = Plan.of(filter);
        int[] columns = new int[plan.leaves.length];
        for (int k = 0; k < columns.length; k++) {
            columns[k] = PredicateEvaluator.column(schema, plan.leaves[k]);
            if (plan.javaLeaves[k] != null) {
                return null;
            }
        }
        return new Object[] {plan.shape, plan.encoded, columns};
    }

    /** The filter {@code Native.countSplits} prepared natively ({@code handle}), now owned here. */
    public static PreparedFilter adopt(long handle, Predicate filter, String what) {
        return new PreparedFilter(handle, Plan.of(filter).javaLeaves, "prepared filter of " + what);
    }

    /**
     * A filter's shape and leaf encodings, which do not depend on the scan. The last one is kept:
     * a query's splits (100 files: 100 scans) prepare the same filter object one after another,
     * on any thread.
     */
    private static final class Plan {
        private static volatile Plan last;

        final Predicate filter;
        final int[] shape;
        final Predicate[] leaves;
        final byte[][] encoded;
        /** Per leaf: the leaf if Java evaluates it, else null. */
        final Predicate[] javaLeaves;

        private Plan(Predicate filter) {
            List<Integer> shapeList = new ArrayList<>();
            List<Predicate> leafList = new ArrayList<>();
            flatten(filter.normalize(), shapeList, leafList);
            this.filter = filter;
            this.shape = shapeList.stream().mapToInt(Integer::intValue).toArray();
            this.leaves = leafList.toArray(new Predicate[0]);
            this.encoded = new byte[leaves.length][];
            this.javaLeaves = new Predicate[leaves.length];
            for (int k = 0; k < leaves.length; k++) {
                encoded[k] = encoding(leaves[k]);
                javaLeaves[k] = encoded[k] == null ? leaves[k] : null;
            }
        }

        static Plan of(Predicate filter) {
            Plan p = last;
            if (p == null || p.filter != filter) {
                p = new Plan(filter);
                last = p;
            }
            return p;
        }
    }

    private static void flatten(Predicate p, List<Integer> shape, List<Predicate> leaves) {
        List<Predicate> children = p instanceof Predicate.And a ? a.children()
                : p instanceof Predicate.Or o ? o.children() : null;
        if (children != null) {
            shape.add(p instanceof Predicate.And ? AND : OR);
            shape.add(children.size());
            for (Predicate c : children) {
                flatten(c, shape, leaves);
            }
            return;
        }
        shape.add(LEAF);
        shape.add(leaves.size());
        leaves.add(p);
    }

    /**
     * Whether {@code filter} is one leaf (in negation normal form) that Java evaluates: a {@link
     * Predicate.Computed}, or a literal the encoding cannot carry.
     */
    static boolean isJavaLeaf(Predicate filter) {
        Predicate p = filter.normalize();
        return !(p instanceof Predicate.And) && !(p instanceof Predicate.Or) && encoding(p) == null;
    }

    /** The leaf's wire encoding, or null when Java evaluates it. */
    private static byte[] encoding(Predicate leaf) {
        if (leaf instanceof Predicate.Computed) {
            return null;
        }
        try {
            return PredicateCodec.encode(leaf);
        } catch (IllegalArgumentException e) {
            return null; // a literal the native side cannot carry (java.time values)
        }
    }

    /**
     * The rows of {@code chunk} the filter selects, or null when the chunk is declined; {@code
     * paths} (null, or one per leaf) receives the {@link LeafPath} ordinal of each leaf.
     */
    public Bitmap select(Chunk chunk, int[] paths) {
        long[] words = onChunk(chunk, null, (c, f, external) -> Native.selectRows(c, f, external, paths));
        return words == null ? null : new Bitmap(words, chunk.length());
    }

    /** How many leaves the filter has (in negation normal form). */
    public int leafCount() {
        return javaLeaves.length;
    }

    /** How many rows of {@code chunk} the filter selects, or -1 when the chunk is declined. */
    public long count(Chunk chunk) {
        return onChunk(chunk, -1L, Native::countSelected);
    }

    /**
     * Whether every leaf is evaluated natively, so that {@link #countChunks} can count chunks Java
     * never sees.
     */
    public boolean isNativeOnly() {
        return !anyJavaLeaf;
    }

    /**
     * {@code Native.countChunks} over the scan whose native handle {@code scan} the caller holds
     * (acquired): the rows the filter selects in its next chunks, at most {@code maxChunks}, with
     * what it did in {@code out}; -1 when this filter is closed (its scan closed meanwhile).
     * Only for a filter {@link #isNativeOnly}.
     */
    public long countChunks(long scan, int maxChunks, long[] out) {
        long f;
        try {
            f = handle.acquire();
        } catch (IllegalStateException e) {
            return -1;
        }
        try {
            return Native.countChunks(scan, f, maxChunks, out);
        } finally {
            handle.release();
        }
    }

    /**
     * {@code Native.aggregateChunk} of the rows the filter selects, in one call ({@code
     * Native.aggregateSelected}): the partials ({@code Object[]}), the selection ({@code long[]})
     * when the aggregate kernel does not take the chunk, or null when the chunk is declined.
     */
    public Object aggregate(Chunk chunk, int[] keys, int[] funcs, int[] columns, double[] starts) {
        return onChunk(chunk, null,
                (c, f, external) -> Native.aggregateSelected(c, f, external, keys, funcs, columns, starts));
    }

    /** A native call on a chunk through this filter: (chunk handle, filter handle, external selections). */
    private interface ChunkCall<T> {
        T apply(long chunk, long filter, long[][] external);
    }

    /**
     * {@code call} with the Java leaves' selections and both handles held, or {@code declined}
     * when a Java leaf throws or the filter was closed with its scan meanwhile.
     */
    private <T> T onChunk(Chunk chunk, T declined, ChunkCall<T> call) {
        long[][] external = externalSelections(chunk);
        if (external == DECLINED) {
            return declined;
        }
        long f;
        try {
            f = handle.acquire();
        } catch (IllegalStateException e) {
            return declined;
        }
        try {
            long c = chunk.handle().acquire();
            try {
                return call.apply(c, f, external);
            } finally {
                chunk.handle().release();
            }
        } finally {
            handle.release();
        }
    }

    private static final long[][] DECLINED = new long[0][];

    /**
     * The selections of the leaves Java evaluates (null when there are none), or {@link
     * #DECLINED} when one throws: the selection path then raises it exactly where it would have
     * (an AND may never reach the leaf there).
     */
    private long[][] externalSelections(Chunk chunk) {
        if (!anyJavaLeaf) {
            return null;
        }
        long[][] out = new long[javaLeaves.length][];
        for (int k = 0; k < out.length; k++) {
            if (javaLeaves[k] != null) {
                try {
                    out[k] = PredicateEvaluator.selection(chunk, javaLeaves[k]).words();
                } catch (RuntimeException e) {
                    return DECLINED;
                }
            }
        }
        return out;
    }

    /** Whether the native filter is still there (its scan not closed). */
    public boolean isOpen() {
        return handle.isOpen();
    }

    @Override
    public void close() {
        handle.close();
    }
}
