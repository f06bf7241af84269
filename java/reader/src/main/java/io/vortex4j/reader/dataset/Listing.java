package io.vortex4j.reader.dataset;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.internal.Native;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Lists the files of a dataset: a single file, every file under a folder (recursively), or the
 * files matching a glob ({@code *}, {@code ?}, {@code [..]}, {@code {a,b}} within a path
 * component, {@code **} across components; see {@link java.nio.file.FileSystem#getPathMatcher}).
 *
 * <p>Files and folders whose name starts with {@code .} or {@code _} ({@code _SUCCESS}, {@code
 * .crc} files, {@code _temporary/}) are skipped, as Spark and Hive writers expect. The files come
 * back sorted by absolute path. Not public API.
 */
public final class Listing {
    /** The name ending of a file a catalog takes as a table. */
    private static final String TABLE_SUFFIX = ".vortex";

    private Listing() {}

    /** The listed files and the folder partition paths are relative to. */
    public record Result(Path root, List<ListedFile> files, boolean singleFile) {}

    /** Lists {@code location}; throws {@link VortexException} when it names nothing, or nothing is found. */
    public static Result list(Path location) {
        String text = location.toString();
        if (isGlob(text)) {
            return glob(location.toAbsolutePath().normalize());
        }
        Path absolute = location.toAbsolutePath().normalize();
        BasicFileAttributes attributes = attributes(absolute);
        if (attributes == null) {
            throw new VortexException(absolute + ": no such file or folder");
        }
        if (attributes.isRegularFile()) {
            return new Result(absolute.getParent(), List.of(listed(absolute, absolute, attributes)), true);
        }
        if (!attributes.isDirectory()) {
            throw new VortexException(absolute + ": neither a file nor a folder");
        }
        return new Result(absolute, walk(absolute, absolute, null), false);
    }

    /**
     * Lists {@code location}, a local path or an object store location ({@code s3://bucket/t/},
     * {@code s3://bucket/t/*}{@code /*.vortex}): an object store's over its list API, with the
     * same rules as local folders. Throws {@link VortexException} when nothing is found.
     */
    public static Result list(String location) {
        if (!Stores.isRemote(location)) {
            return list(Stores.localPath(location));
        }
        int scheme = location.indexOf("://") + 3;
        int slash = location.indexOf('/', scheme);
        String root = slash < 0 ? location : location.substring(0, slash);
        String key = slash < 0 ? "" : location.substring(slash + 1);
        if (isGlob(key)) {
            Path pattern = Paths.get(key);
            StringBuilder fixed = new StringBuilder();
            for (Path part : pattern) {
                if (isGlob(part.toString())) {
                    break;
                }
                fixed.append(part).append('/');
            }
            String prefix = root + "/" + fixed;
            PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + key);
            List<ListedFile> files = objects(objectsUnder(prefix), prefix, o -> matcher.matches(Paths.get(o.substring(root.length() + 1))));
            if (files.isEmpty()) {
                throw new VortexException(location + ": no objects match (hidden and _-prefixed ones are skipped)");
            }
            return new Result(null, files, false);
        }
        String folder = location.endsWith("/") ? location : location + "/";
        List<Object[]> found = objectsUnder(location);
        if (found.size() == 1 && found.get(0)[0].equals(location)) {
            Object[] o = found.get(0);
            return new Result(null, List.of(new ListedFile(location, (Long) o[1], (Long) o[2], List.of())), true);
        }
        List<ListedFile> files = objects(found, folder, o -> true);
        if (files.isEmpty()) {
            throw new VortexException(location + ": no objects there (hidden and _-prefixed ones are skipped)");
        }
        return new Result(null, files, false);
    }

    /**
     * What listing {@code location}, an object or a folder under the store listing {@code all},
     * gives: its files taken from {@code all} (partitions relative to the folder) rather than
     * listed again. Throws {@link VortexException} when nothing of {@code all} is there.
     */
    public static Result within(Result all, String location) {
        List<Object[]> found = new ArrayList<>();
        for (ListedFile f : all.files()) {
            if (f.path().equals(location)) {
                return new Result(null, List.of(new ListedFile(location, f.size(), f.modifiedMillis(), List.of())), true);
            }
            found.add(new Object[] {f.path(), f.size(), f.modifiedMillis()});
        }
        List<ListedFile> files = objects(found, location.endsWith("/") ? location : location + "/", o -> true);
        if (files.isEmpty()) {
            throw new VortexException(location + ": no objects there (hidden and _-prefixed ones are skipped)");
        }
        return new Result(null, files, false);
    }

    /**
     * The tables a catalog over store prefix {@code prefix} (no trailing {@code /}) names in its
     * listing {@code all}: {@code files}, each object {@code NAME.vortex} right under the prefix
     * (NAME to the object), and {@code folders}, each prefix {@code NAME/} one level down holding
     * {@code .vortex} objects at some depth (NAME to {@code prefix/NAME/}); both sorted by name.
     */
    public record Tables(Map<String, String> files, Map<String, String> folders) {}

    /** The {@link Tables} of store prefix {@code prefix} in its listing {@code all}. */
    public static Tables tables(Result all, String prefix) {
        Map<String, String> files = new TreeMap<>();
        Map<String, String> folders = new TreeMap<>();
        for (ListedFile f : all.files()) {
            String relative = f.path().substring(prefix.length() + 1);
            int slash = relative.indexOf('/');
            if (slash < 0) {
                if (relative.endsWith(TABLE_SUFFIX) && relative.length() > TABLE_SUFFIX.length()) {
                    files.put(relative.substring(0, relative.length() - TABLE_SUFFIX.length()), f.path());
                }
            } else if (f.path().endsWith(TABLE_SUFFIX)) {
                folders.put(relative.substring(0, slash), prefix + "/" + relative.substring(0, slash) + "/");
            }
        }
        return new Tables(files, folders);
    }

    /** The visible objects of {@code listed} under {@code folder} that {@code keep} accepts, partitions relative to {@code folder}. */
    private static List<ListedFile> objects(List<Object[]> listed, String folder, java.util.function.Predicate<String> keep) {
        List<ListedFile> files = new ArrayList<>();
        for (Object[] o : listed) {
            String object = (String) o[0];
            if (!object.startsWith(folder) || !keep.test(object)) {
                continue;
            }
            String[] parts = object.substring(folder.length()).split("/");
            boolean hidden = false;
            List<String[]> partitions = new ArrayList<>();
            for (int i = 0; i < parts.length; i++) {
                hidden |= parts[i].startsWith(".") || parts[i].startsWith("_") || parts[i].isEmpty();
                String[] pair = i < parts.length - 1 ? HivePartitions.parse(parts[i]) : null;
                if (pair != null) {
                    partitions.add(pair);
                }
            }
            if (!hidden) {
                files.add(new ListedFile(object, (Long) o[1], (Long) o[2], partitions));
            }
        }
        return files;
    }

    /** The objects under {@code location} (the object itself when it is one): {location, size, modified millis}. */
    private static List<Object[]> objectsUnder(String location) {
        Object[] parts = Native.listObjects(location);
        String[] locations = (String[]) parts[0];
        long[] sizes = (long[]) parts[1];
        long[] modified = (long[]) parts[2];
        List<Object[]> out = new ArrayList<>();
        for (int i = 0; i < locations.length; i++) {
            out.add(new Object[] {locations[i], sizes[i], modified[i]});
        }
        return out;
    }

    /** Whether {@code text} holds a glob character ({@code * ? [ {}). */
    public static boolean isGlob(String text) {
        return text.indexOf('*') >= 0 || text.indexOf('?') >= 0 || text.indexOf('[') >= 0 || text.indexOf('{') >= 0;
    }

    /** The longest leading part of the absolute {@code pattern} without glob characters: where a glob is walked from. */
    public static Path globRoot(Path pattern) {
        Path root = pattern.getRoot();
        for (Path part : pattern) {
            if (isGlob(part.toString())) {
                break;
            }
            root = root.resolve(part);
        }
        return root;
    }

    private static Result glob(Path pattern) {
        Path root = globRoot(pattern);
        if (root.equals(pattern)) {
            throw new VortexException(pattern + ": not a glob");
        }
        BasicFileAttributes attributes = attributes(root);
        if (attributes == null || !attributes.isDirectory()) {
            throw new VortexException(pattern + ": no files match (" + root + " is not a folder)");
        }
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        List<ListedFile> files = walk(root, root, matcher);
        if (files.isEmpty()) {
            throw new VortexException(pattern + ": no files match (hidden and _-prefixed files are skipped)");
        }
        return new Result(root, files, false);
    }

    private static List<ListedFile> walk(Path root, Path folder, PathMatcher matcher) {
        List<ListedFile> files = new ArrayList<>();
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.filter(p -> !p.equals(root) && !hidden(root.relativize(p)))
                    .sorted(Comparator.comparing(Path::toString))
                    .forEach(p -> {
                        BasicFileAttributes a = attributes(p);
                        if (a != null && a.isRegularFile() && (matcher == null || matcher.matches(p))) {
                            files.add(listed(root, p, a));
                        }
                    });
        } catch (IOException | UncheckedIOException e) {
            throw new VortexException(folder + ": cannot list the folder: " + e.getMessage(), e);
        }
        if (files.isEmpty() && matcher == null) {
            throw new VortexException(folder + ": no files in the folder (hidden and _-prefixed files are skipped)");
        }
        return files;
    }

    /** Whether some component of {@code relative} is hidden. */
    private static boolean hidden(Path relative) {
        for (Path part : relative) {
            String name = part.toString();
            if (name.startsWith(".") || name.startsWith("_")) {
                return true;
            }
        }
        return false;
    }

    private static ListedFile listed(Path root, Path file, BasicFileAttributes a) {
        List<String[]> partitions = new ArrayList<>();
        Path parent = root.relativize(file).getParent();
        if (parent != null) {
            for (Path part : parent) {
                String[] pair = HivePartitions.parse(part.toString());
                if (pair != null) {
                    partitions.add(pair);
                }
            }
        }
        return new ListedFile(file.toString(), a.size(), a.lastModifiedTime().toMillis(), partitions);
    }

    /** The file's attributes, or null when it does not exist. */
    public static BasicFileAttributes attributes(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new VortexException(p + ": cannot read: " + e.getMessage(), e);
        }
    }
}
