package io.vortex4j.cli;

import io.vortex4j.calcite.VortexSchema;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.dataset.ListedFile;
import io.vortex4j.reader.dataset.Listing;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The Vortex files a {@code FILE|DIR} argument names: the file, or the folder's {@code *.vortex}
 * files (sorted); locally or in an object store ({@code s3://bucket/t/}: the objects under the
 * prefix).
 */
final class TableFiles {
    private TableFiles() {}

    /** The files {@code location} names, as locations with their sizes. */
    static List<ListedFile> of(String location) throws IOException {
        if (!Stores.isRemote(location)) {
            List<ListedFile> files = new ArrayList<>();
            for (Path p : of(Stores.localPath(location))) {
                files.add(new ListedFile(p.toAbsolutePath().normalize().toString(), Files.size(p), 0, List.of()));
            }
            return files;
        }
        Listing.Result listed = Listing.list(location);
        if (listed.singleFile()) {
            return listed.files();
        }
        List<ListedFile> files = new ArrayList<>();
        for (ListedFile f : listed.files()) {
            if (f.path().endsWith(VortexSchema.SUFFIX) && f.path().lastIndexOf('/') == location.replaceAll("/+$", "").length()) {
                files.add(f);
            }
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException(location + " holds no " + VortexSchema.SUFFIX + " objects");
        }
        return files;
    }

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

    /** {@code location} (absolute) as a quoted SQL name for FROM, which the connection resolves as a path. */
    static String quoted(String location) {
        return "\"" + location.replace("\"", "\"\"") + "\"";
    }

    /** The table name of a file: its name without {@code .vortex}. */
    static String tableName(String location) {
        String name = location.substring(location.lastIndexOf('/') + 1);
        return name.endsWith(VortexSchema.SUFFIX) ? name.substring(0, name.length() - VortexSchema.SUFFIX.length()) : name;
    }
}
