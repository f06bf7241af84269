package io.vortex4j.reader.oracle;

import io.vortex4j.reader.NativeAccess;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.internal.Native;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.PredicateCodec;

/**
 * The tests' oracle for filters: vortex's own filtered scan of a file (the reference reader,
 * with the predicate as its filter expression), against which the Java paths are checked. Throws
 * as any read does when the file is closed.
 */
public final class ReferenceScan {
    private ReferenceScan() {}

    /** The indices of the rows vortex's own filtered scan selects for {@code filter}, ascending. */
    public static long[] selectedRows(VortexFile file, Predicate filter) {
        return NativeAccess.withHandle(file, h -> Native.filteredScanRows(h, PredicateCodec.encode(filter)));
    }
}
