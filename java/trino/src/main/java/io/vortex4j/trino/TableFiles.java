package io.vortex4j.trino;

import io.trino.spi.TrinoException;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.dataset.ListedFile;
import io.vortex4j.reader.dataset.Listing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import static io.vortex4j.trino.Errors.VORTEX_WRITE_ERROR;

/**
 * A table's files as a whole, in a local folder or an object store: whether the table is a
 * folder of files, making a new table's folder, and deleting a table.
 */
final class TableFiles {
    private TableFiles() {}

    /** Whether the table at {@code location} is a folder of files rather than a single file. */
    static boolean isFolder(String location) {
        return Stores.isRemote(location) ? location.endsWith("/") : Files.isDirectory(Path.of(location));
    }

    /** Makes the folder of a new table; a store prefix needs none (it exists once it holds an object). */
    static void createFolder(String folder) {
        if (Stores.isRemote(folder)) {
            return;
        }
        try {
            Files.createDirectories(Path.of(folder));
        } catch (IOException e) {
            throw new TrinoException(VORTEX_WRITE_ERROR, "cannot create " + folder + ": " + e, e);
        }
    }

    /**
     * Deletes the table at {@code location}: a local file or folder with everything in it; in a
     * store, the object or every visible object under the prefix (hidden objects, such as files
     * staged by failed writes, are never listed and stay).
     */
    static void delete(String location) {
        try {
            if (!Stores.isRemote(location)) {
                try (Stream<Path> walk = Files.walk(Path.of(location))) {
                    for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            } else if (!location.endsWith("/")) {
                Stores.delete(location);
            } else {
                for (ListedFile f : Listing.list(location).files()) {
                    Stores.delete(f.path());
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new TrinoException(VORTEX_WRITE_ERROR, "cannot drop " + location + ": " + (e instanceof IOException ? e.toString() : e.getMessage()), e);
        }
    }
}
