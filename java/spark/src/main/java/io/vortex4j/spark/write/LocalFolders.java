package io.vortex4j.spark.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Local folders the writers stage files in. */
final class LocalFolders {
    private LocalFolders() {}

    /** Deletes {@code dir} and everything under it; nothing happens when it does not exist. */
    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p); // deepest first, so each folder is empty when reached
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
