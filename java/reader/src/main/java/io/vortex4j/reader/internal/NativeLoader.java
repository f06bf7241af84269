package io.vortex4j.reader.internal;

import io.vortex4j.VortexException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * Loads the native library once per JVM.
 *
 * <p>Order: the system property {@value #LIBRARY_PROPERTY} (a path to the library file), else the
 * copy bundled in the jar under {@code io/vortex4j/native/<os>-<arch>/}. A shared object cannot
 * be loaded from inside a jar, so the bundled copy is extracted once per content hash (the build
 * writes it next to the library as {@code <name>.sha256}) into a cache folder shared by every JVM
 * of the user: {@code <cache>/<sha256>/libvortex4j.so}, where {@code <cache>} is the system
 * property {@value #CACHE_PROPERTY}, else {@code $XDG_CACHE_HOME/vortex4j/native}, else {@code
 * ~/.cache/vortex4j/native}. Extraction writes a temporary file in that folder and renames it
 * into place atomically, so concurrent JVMs never load a partial file and a JVM that crashed
 * mid-way leaves only a temporary file (removed by a later extraction once it is an hour old).
 * When the folder cannot be written, the library goes to a temporary folder deleted at exit.
 *
 * <p>Before loading, the CPU features the library is compiled for ({@code <library>.cpu} beside
 * it, in the jar or in the folder of the overriding file) are checked against this CPU's, so a
 * CPU lacking one is an exception naming them, not a crash of the JVM ({@link CpuFeatures}).
 */
public final class NativeLoader {
    /** System property naming a library file to load instead of the bundled one. */
    public static final String LIBRARY_PROPERTY = "vortex4j.library";
    /** System property naming the folder the bundled library is extracted to. */
    public static final String CACHE_PROPERTY = "vortex4j.nativeCache";

    private static final String TEMP_PREFIX = ".extract-";
    private static final Duration STALE = Duration.ofHours(1);

    private static volatile boolean loaded;

    private NativeLoader() {}

    /** Loads the library if it is not loaded yet; throws {@link VortexException} if it cannot. */
    public static void load() {
        if (loaded) {
            return;
        }
        synchronized (NativeLoader.class) {
            if (loaded) {
                return;
            }
            String override = System.getProperty(LIBRARY_PROPERTY);
            if (override != null && !override.isEmpty()) {
                Path path = Paths.get(override).toAbsolutePath();
                if (!Files.isRegularFile(path)) {
                    throw new VortexException(
                            "-D" + LIBRARY_PROPERTY + "=" + override + ": no such library file");
                }
                CpuFeatures.require(readIfPresent(Paths.get(path + ".cpu")), path.toString());
                System.load(path.toString());
            } else {
                String resource = resourcePath();
                CpuFeatures.require(resourceText(resource + ".cpu"), "the bundled native library " + resource);
                System.load(extractBundled(resource).toString());
            }
            loaded = true;
        }
    }

    /** The text of {@code file}, or null when there is no such file. */
    private static String readIfPresent(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.US_ASCII) : null;
        } catch (IOException e) {
            throw new VortexException("cannot read " + file + ": " + e, e);
        }
    }

    /** The text of a resource of this jar, or null when there is no such resource. */
    private static String resourceText(String resource) {
        try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new VortexException("cannot read " + resource + ": " + e, e);
        }
    }

    /** The resource path of the library for this platform, as the Gradle build bundles it. */
    static String resourcePath() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT).replaceAll("[^a-z]", "");
        String arch = System.getProperty("os.arch");
        return "/io/vortex4j/native/" + os + "-" + arch + "/" + System.mapLibraryName("vortex4j");
    }

    /** The folder the bundled library is extracted to (see the class comment). */
    static Path cacheFolder() {
        String configured = System.getProperty(CACHE_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Paths.get(configured);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Paths.get(xdg) : Paths.get(System.getProperty("user.home"), ".cache");
        return base.resolve("vortex4j").resolve("native");
    }

    private static Path extractBundled(String resource) {
        if (NativeLoader.class.getResource(resource) == null) {
            throw new VortexException("the native library " + resource + " is not bundled in this jar; build it with"
                    + " `gradle :reader:jar` or pass -D" + LIBRARY_PROPERTY + "=PATH");
        }
        Digest digest = Digest.of(resource);
        try {
            return extractToCache(resource, digest, cacheFolder());
        } catch (IOException | RuntimeException e) {
            // A read-only or full home: one private copy for this JVM.
            return extractToTemporaryFolder(resource);
        }
    }

    /** {@code <cache>/<sha256>/<library>}, extracted unless a complete copy is already there. */
    static Path extractToCache(String resource, Digest digest, Path cache) throws IOException {
        Path folder = cache.resolve(digest.sha256);
        Path lib = folder.resolve(System.mapLibraryName("vortex4j"));
        if (digest.matches(lib)) {
            return lib;
        }
        Files.createDirectories(folder);
        removeStaleTemporaries(folder);
        Path temp = Files.createTempFile(folder, TEMP_PREFIX, ".tmp");
        try {
            copy(resource, temp);
            if (!digest.matches(temp)) {
                throw new IOException("extracted " + Files.size(temp) + " bytes of " + resource + ", expected "
                        + digest.size);
            }
            if (!digest.matches(lib)) {
                // Atomic: another JVM sees the old name or the complete file, never a partial one.
                Files.move(temp, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
        return lib;
    }

    private static Path extractToTemporaryFolder(String resource) {
        try {
            Path dir = Files.createTempDirectory("vortex4j-native");
            Path lib = dir.resolve(System.mapLibraryName("vortex4j"));
            copy(resource, lib);
            lib.toFile().deleteOnExit();
            dir.toFile().deleteOnExit();
            return lib;
        } catch (IOException e) {
            throw new VortexException("cannot extract the native library " + resource + ": " + e, e);
        }
    }

    private static void copy(String resource, Path to) throws IOException {
        try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " is not bundled");
            }
            Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Temporary files of extractions that did not finish (a JVM that crashed or was killed). */
    private static void removeStaleTemporaries(Path folder) {
        FileTime cutoff = FileTime.from(Instant.now().minus(STALE));
        try (DirectoryStream<Path> temps = Files.newDirectoryStream(folder, TEMP_PREFIX + "*")) {
            for (Path t : temps) {
                if (Files.getLastModifiedTime(t).compareTo(cutoff) < 0) {
                    Files.deleteIfExists(t);
                }
            }
        } catch (IOException e) {
            // Best effort: a leftover temporary file costs disk space, nothing else.
        }
    }

    /** The bundled library's content hash and size, as the build recorded them. */
    static final class Digest {
        final String sha256;
        final long size;

        Digest(String sha256, long size) {
            this.sha256 = sha256;
            this.size = size;
        }

        /** Reads {@code <resource>.sha256}: {@code <hex sha-256> <size in bytes>}. */
        static Digest of(String resource) {
            String text = resourceText(resource + ".sha256");
            if (text == null) {
                throw new VortexException(resource + ".sha256 is missing from the jar; rebuild it with `gradle :reader:jar`");
            }
            String[] parts = text.trim().split("\\s+");
            if (parts.length != 2 || !parts[0].matches("[0-9a-f]{64}")) {
                throw new VortexException(resource + ".sha256 is malformed: expected '<sha256> <size>'");
            }
            try {
                return new Digest(parts[0], Long.parseLong(parts[1]));
            } catch (NumberFormatException e) {
                throw new VortexException("cannot read " + resource + ".sha256: " + e, e);
            }
        }

        /** Whether {@code file} is a complete copy (its size; files are only ever renamed into place whole). */
        boolean matches(Path file) {
            try {
                return Files.isRegularFile(file) && Files.size(file) == size;
            } catch (IOException e) {
                return false;
            }
        }
    }
}
