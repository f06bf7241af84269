package io.vortex4j.reader.convert;

import io.vortex4j.reader.Stores;
import io.vortex4j.reader.dataset.Listing;
import io.vortex4j.reader.dataset.ListedFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Locations in object stores as the native writers and readers (which take local files) see
 * them: inputs are downloaded into a private temporary folder first, outputs are written there
 * and uploaded once complete (each object atomically, so a failed or abandoned conversion leaves
 * no partial object). Local locations pass through untouched. Closing deletes the folder.
 */
final class Staging implements AutoCloseable {
    private Path folder;
    private int inputs;

    /** The folder, made when first needed. */
    private Path folder() {
        if (folder == null) {
            try {
                folder = Files.createTempDirectory("vortex4j-staging");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a temporary folder for store transfers", e);
            }
        }
        return folder;
    }

    /**
     * The local paths to read {@code location} from: itself when local; else a download of the
     * object, of the objects a glob matches, or of every visible object under a prefix (as a
     * folder keeping their relative paths, read as a local folder is).
     */
    List<Path> inputs(String location) {
        if (!Stores.isRemote(location)) {
            return List.of(Stores.localPath(location).toAbsolutePath());
        }
        Listing.Result listed = Listing.list(location);
        Path into = folder().resolve("in" + (inputs++));
        List<Path> files = new ArrayList<>();
        for (ListedFile object : listed.files()) {
            Path file = into.resolve(key(object.path()));
            download(object.path(), file);
            files.add(file);
        }
        if (listed.singleFile() || Listing.isGlob(location)) {
            return files;
        }
        String prefix = key(location);
        return List.of(prefix.isEmpty() ? into : into.resolve(prefix));
    }

    /** The local path to write {@code location} at: itself when local, else a path in the folder. */
    Path output(String location) {
        if (!Stores.isRemote(location)) {
            return Stores.localPath(location).toAbsolutePath();
        }
        String trimmed = location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
        Path out = folder().resolve("out");
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + out, e);
        }
        return out.resolve(name(trimmed));
    }

    /**
     * Uploads what was written at {@code written} (a file or a folder's files, under {@link
     * #output}'s path for {@code location}) and returns the location of each file written, in
     * the order given; local locations are returned as they are.
     */
    List<String> publish(String location, List<Path> written) {
        List<String> locations = new ArrayList<>();
        if (!Stores.isRemote(location)) {
            for (Path p : written) {
                locations.add(p.toString());
            }
            return locations;
        }
        Path root = output(location);
        String base = location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
        for (Path p : written) {
            String target = p.equals(root) ? base : base + "/" + root.relativize(p).toString().replace('\\', '/');
            Stores.upload(p, target);
            locations.add(target);
        }
        return locations;
    }

    private static void download(String location, Path file) {
        try {
            Files.createDirectories(file.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + file.getParent(), e);
        }
        Stores.download(location, file);
    }

    /** The object key of a location: what follows its bucket ({@code ""} for the bucket). */
    private static String key(String location) {
        int slash = location.indexOf('/', location.indexOf("://") + 3);
        return slash < 0 ? "" : location.substring(slash + 1);
    }

    /** The last segment of a location. */
    private static String name(String location) {
        return location.substring(location.lastIndexOf('/') + 1);
    }

    /** Deletes the folder and everything in it. Idempotent. */
    @Override
    public void close() {
        if (folder == null) {
            return;
        }
        try (Stream<Path> all = Files.walk(folder)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // A temporary folder left behind is not worth failing the transfer for.
        }
        folder = null;
    }
}
