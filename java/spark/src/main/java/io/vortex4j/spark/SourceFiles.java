package io.vortex4j.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files at a location as {@link io.vortex4j.reader.dataset.VortexDataset} lists them: a file, every
 * file under a folder (recursively, skipping names starting with {@code _} or {@code .}, such as a
 * write's {@code _temporary}), or the files a glob ({@code *}, {@code ?}, {@code [..]}, {@code
 * {a,b}}, {@code **}) matches. Used by writes (to replace a folder's files) and to tell an empty
 * output folder, which reads as no rows, from a dataset.
 */
public final class SourceFiles {
    private SourceFiles() {}

    /** The files of one location (possibly none, e.g. a new, empty output folder). */
    public static List<Path> list(String location) {
        String local = Datasets.localPath(location);
        int glob = firstGlobChar(local);
        if (glob < 0) {
            Path p = Paths.get(local).toAbsolutePath();
            return Files.isDirectory(p) ? walk(p, null) : Files.exists(p) ? List.of(p) : List.of();
        }
        int slash = local.lastIndexOf('/', glob);
        Path root = Paths.get(slash < 0 ? "." : slash == 0 ? "/" : local.substring(0, slash)).toAbsolutePath();
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher(
                "glob:" + root + "/" + local.substring(slash + 1));
        return Files.isDirectory(root) ? walk(root, matcher) : List.of();
    }

    private static List<Path> walk(Path root, PathMatcher matcher) {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> !hidden(root, p) && Files.isRegularFile(p))
                    .filter(p -> matcher == null || matcher.matches(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + root + ": " + e.getMessage(), e);
        }
    }

    /** True when a name below {@code root} starts with {@code _} or {@code .}. */
    private static boolean hidden(Path root, Path p) {
        for (Path name : root.relativize(p)) {
            String s = name.toString();
            if (s.startsWith("_") || s.startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    /** True when the location is a glob pattern. */
    public static boolean isGlob(String location) {
        return firstGlobChar(location) >= 0;
    }

    private static int firstGlobChar(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == '{') {
                return i;
            }
        }
        return -1;
    }
}
