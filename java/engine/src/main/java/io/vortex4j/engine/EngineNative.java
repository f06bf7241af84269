package io.vortex4j.engine;

import io.vortex4j.reader.internal.Native;

/**
 * The native engine's entry points ({@code rust/src/jni/engine.rs}). A query handle holds a
 * DataFusion session with the query's tables; it is freed exactly once ({@link NativeQuery}).
 */
final class EngineNative {
    static {
        Native.ensureLoaded();
    }

    private EngineNative() {}

    /** A query on {@code threads} partitions, its operators' memory bounded by {@code memoryLimit} bytes (0: none). */
    static native long openQuery(int threads, long memoryLimit);

    /**
     * Registers the table named {@code names} (as the plan names it) over its splits: split
     * {@code i} is rows {@code [splits[4i], splits[4i+1])} of {@code paths[i]}, planned when the
     * file had {@code splits[4i+2]} bytes (negative: not checked) and modification time {@code
     * splits[4i+3]} ms. The table's Hive partition columns are {@code partitionNames} of types
     * {@code partitionTypes} ({@code int64}, {@code date}, {@code utf8}); split {@code i}'s value
     * of column {@code k} is {@code partitionValues[i * partitionNames.length + k]} as its folder
     * names it (null: the default partition).
     */
    static native void registerTable(long query, String[] names, String[] paths, long[] splits,
            String[] partitionNames, String[] partitionTypes, String[] partitionValues);

    /** DataFusion's physical plan of Substrait plan {@code plan}, an operator per line. */
    static native String explain(long query, byte[] plan);

    /** Executes Substrait plan {@code plan}; its results are the Arrow C stream written at {@code stream}. */
    static native void execute(long query, byte[] plan, long stream);

    /** Stops the query: a read waiting for its next batch fails at once. Safe from any thread. */
    static native void cancel(long query);

    /** Stops and frees the query (0 is ignored). */
    static native void freeQuery(long query);
}
