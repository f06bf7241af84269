package io.vortex4j.reader.compute;

/**
 * Which kernel computed a filter leaf's selection on a chunk, as the prepared filter reports it
 * ({@link PredicateEvaluator#leafPaths}); the ordinals are the native library's {@code path} code
 * table (docs/jni.md).
 */
public enum LeafPath {
    /** The reader evaluated it in Java (a computed leaf, a literal the encoding cannot carry). */
    JAVA,
    /** The dictionary kernel: once per dictionary entry, then rows selected by code. */
    DICTIONARY,
    /** Comparisons on bit-packed integers, in the packed domain. */
    PACKED_INTEGERS,
    /** vortex's compute on the column's encoded data. */
    COMPUTE,
    /** The list kernels (containment, length). */
    LIST,
    /** Not evaluated natively on this chunk: the reader evaluated the filter its own way. */
    DECLINED,
    /** Not reached: an AND stopped at a child that selected nothing. */
    NOT_EVALUATED
}
