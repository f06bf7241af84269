package io.vortex4j.reader.internal;

import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.VortexFile;

/**
 * The harness of {@link NativeLoaderTest}: loads the bundled library (the child runs without
 * {@code -Dvortex4j.library}) and reads a file written by the Rust code, printing {@code rows=N}.
 */
public final class LoadBundledLibrary {
    private LoadBundledLibrary() {}

    public static void main(String[] args) {
        Fixtures.DictFile f = Fixtures.flatDict();
        try (VortexFile file = VortexFile.open(f.path)) {
            System.out.println("rows=" + file.rowCount());
        }
    }
}
