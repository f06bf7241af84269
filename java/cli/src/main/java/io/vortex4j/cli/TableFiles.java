package io.vortex4j.cli;

import io.vortex4j.calcite.VortexSchema;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The Vortex files a {@code FILE|DIR} argument names: the file, or the folder's {@code *.vortex} files (sorted). */
final class TableFiles {
    private TableFiles() {}

    static List<Path> of(Path path) throws IOException {
        if (Files.isRegularFile(path)) {
            return List.of(path);
        }
        if (!Files.isDirectory(path)) {
            throw new IllegalArgumentException(path + ": no such file or folder");
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(path, "*" + VortexSchema.SUFFIX)) {
            for (Path p : ds) {
                if (Files.isRegularFile(p)) {
                    files.add(p);
                }
            }
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException(path + " holds no " + VortexSchema.SUFFIX + " files");
        }
        Collections.sort(files);
        return files;
    }

    /** {@code file} as a quoted SQL name for FROM: its absolute path, which the connection resolves as a path. */
    static String quoted(Path file) {
        return "\"" + file.toAbsolutePath().normalize().toString().replace("\"", "\"\"") + "\"";
    }

    /** The table name of a file: its name without {@code .vortex}. */
    static String tableName(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(VortexSchema.SUFFIX) ? name.substring(0, name.length() - VortexSchema.SUFFIX.length()) : name;
    }
}
