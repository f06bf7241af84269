package io.vortex4j.trino;

import io.trino.spi.TrinoException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static io.trino.spi.StandardErrorCode.AMBIGUOUS_NAME;
import static io.trino.spi.StandardErrorCode.GENERIC_INTERNAL_ERROR;

/**
 * The catalog folder: each file {@code NAME.vortex} is the table {@code NAME}, and each
 * sub-folder {@code NAME/} holding {@code .vortex} files at any depth (Hive {@code key=value/}
 * folders included) is the table {@code NAME} over all of them, as in {@code jdbc:vortex:DIR}.
 * Names starting with {@code .} or {@code _} are skipped. Trino's names are lower case, so a
 * table is found by its name in lower case; two entries whose names differ only in case, or a
 * file and a folder of the same name, are an error naming both. The folder is listed on every
 * request: files written since appear at once.
 */
public final class Catalog {
    /** The one schema. */
    public static final String SCHEMA = "default";
    /** The longest table name a new table may have: a folder name's bytes on common file systems. */
    public static final int MAX_NAME_BYTES = 255;
    /** The file suffix of Vortex tables. */
    public static final String SUFFIX = ".vortex";

    private final Path directory;

    public Catalog(Path directory) {
        this.directory = directory;
    }

    /** The catalog folder. */
    public Path directory() {
        return directory;
    }

    /** The tables' names (lower case) and locations, sorted by name. */
    public List<String> tableNames() {
        return new ArrayList<>(entries().keySet());
    }

    /** The location of table {@code name} (a file or a folder), or empty when there is none. */
    public Optional<Path> location(String name) {
        List<Path> found = entries().get(name.toLowerCase(Locale.ROOT));
        if (found == null) {
            return Optional.empty();
        }
        if (found.size() > 1) {
            throw new TrinoException(AMBIGUOUS_NAME, "the table name '" + name + "' is taken by " + found + "; rename all but one");
        }
        return Optional.of(found.get(0));
    }

    /** The folder a new table {@code name} is written to. */
    public Path newTableFolder(String name) {
        return directory.resolve(name.toLowerCase(Locale.ROOT));
    }

    private Map<String, List<Path>> entries() {
        Map<String, List<Path>> tables = new TreeMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(directory)) {
            for (Path p : ds) {
                String entry = p.getFileName().toString();
                if (entry.startsWith(".") || entry.startsWith("_")) {
                    continue;
                }
                String name = null;
                if (Files.isRegularFile(p) && entry.endsWith(SUFFIX) && entry.length() > SUFFIX.length()) {
                    name = entry.substring(0, entry.length() - SUFFIX.length());
                } else if (Files.isDirectory(p) && holdsVortexFiles(p)) {
                    name = entry;
                }
                if (name != null) {
                    tables.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(p);
                }
            }
        } catch (IOException e) {
            throw new TrinoException(GENERIC_INTERNAL_ERROR, "cannot list the catalog folder " + directory + ": " + e.getMessage(), e);
        }
        return tables;
    }

    /**
     * Whether {@code folder} holds a {@code .vortex} file at some depth; folders and files whose
     * names start with {@code .} or {@code _} are not looked into.
     */
    static boolean holdsVortexFiles(Path folder) {
        boolean[] found = {false};
        try {
            Files.walkFileTree(folder, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    return !dir.equals(folder) && hidden(dir) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    found[0] = attrs.isRegularFile() && !hidden(file) && file.getFileName().toString().endsWith(SUFFIX);
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
