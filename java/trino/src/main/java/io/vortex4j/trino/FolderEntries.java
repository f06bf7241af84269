package io.vortex4j.trino;

import io.trino.spi.TrinoException;
import io.vortex4j.reader.dataset.VortexDataset;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

import static io.trino.spi.StandardErrorCode.GENERIC_INTERNAL_ERROR;

/**
 * The tables of a local catalog folder: each file {@code NAME.vortex}, and each sub-folder
 * holding {@code .vortex} files at some depth; names starting with {@code .} or {@code _} are
 * skipped.
 */
final class FolderEntries implements TableEntries {
    private final Path directory;

    FolderEntries(Path directory) {
        this.directory = directory;
    }

    @Override
    public String location() {
        return directory.toString();
    }

    @Override
    public boolean remote() {
        return false;
    }

    @Override
    public Listed list() {
        List<Entry> entries = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(directory)) {
            for (Path p : ds) {
                String entry = p.getFileName().toString();
                if (hidden(p)) {
                    continue;
                }
                if (Files.isRegularFile(p) && entry.endsWith(Catalog.SUFFIX) && entry.length() > Catalog.SUFFIX.length()) {
                    entries.add(new Entry(entry.substring(0, entry.length() - Catalog.SUFFIX.length()), p.toString()));
                } else if (Files.isDirectory(p) && holdsVortexFiles(p)) {
                    entries.add(new Entry(entry, p.toString()));
                }
            }
        } catch (IOException e) {
            throw new TrinoException(GENERIC_INTERNAL_ERROR, "cannot list the catalog folder " + directory + ": " + e.getMessage(), e);
        }
        return new Listed(entries, VortexDataset::open);
    }

    /**
     * Whether {@code folder} holds a {@code .vortex} file at some depth; folders and files whose
     * names start with {@code .} or {@code _} are not looked into.
     */
    private static boolean holdsVortexFiles(Path folder) {
        boolean[] found = {false};
        try {
            Files.walkFileTree(folder, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    return !dir.equals(folder) && hidden(dir) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    found[0] = attrs.isRegularFile() && !hidden(file) && file.getFileName().toString().endsWith(Catalog.SUFFIX);
                    return found[0] ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            return true; // a folder that cannot be walked is a table whose queries say why
        }
        return found[0];
    }

    private static boolean hidden(Path p) {
        String name = p.getFileName().toString();
        return name.startsWith(".") || name.startsWith("_");
    }
}
