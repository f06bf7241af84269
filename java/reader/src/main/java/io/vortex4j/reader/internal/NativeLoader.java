package io.vortex4j.reader.internal;

import io.vortex4j.VortexException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads the native library once per JVM.
 *
 * <p>Order: the system property {@code vortex4j.library} (a path to the library file), else the
 * copy bundled in the jar under {@code io/vortex4j/native/<os>-<arch>/}, extracted to a temporary
 * file because a shared object cannot be loaded from inside a jar.
 */
public final class NativeLoader {
    /** System property naming a library file to load instead of the bundled one. */
    public static final String LIBRARY_PROPERTY = "vortex4j.library";

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
                System.load(path.toString());
            } else {
                System.load(extractBundled().toString());
            }
            loaded = true;
        }
    }

    /** The resource path of the library for this platform, as the Gradle build bundles it. */
    static String resourcePath() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT).replaceAll("[^a-z]", "");
        String arch = System.getProperty("os.arch");
        return "/io/vortex4j/native/" + os + "-" + arch + "/" + System.mapLibraryName("vortex4j");
    }

    private static Path extractBundled() {
        String resource = resourcePath();
        try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new VortexException(
                        "the native library " + resource + " is not bundled in this jar; build it with"
                                + " `gradle :reader:jar` or pass -D" + LIBRARY_PROPERTY + "=PATH");
            }
            Path dir = Files.createTempDirectory("vortex4j-native");
            Path lib = dir.resolve(System.mapLibraryName("vortex4j"));
            Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
            lib.toFile().deleteOnExit();
            dir.toFile().deleteOnExit();
            return lib;
        } catch (IOException e) {
            throw new VortexException("cannot extract the native library " + resource + ": " + e, e);
        }
    }
}
