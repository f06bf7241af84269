package io.vortex4j.reader.internal;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.ChildJvm;
import io.vortex4j.reader.Fixtures;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * The bundled library is extracted once per content hash into a shared cache folder, safely
 * for concurrent JVMs and for one that died mid-way, with a fallback when the folder cannot be
 * written (child JVMs loading the bundled copy, {@link LoadBundledLibrary}).
 */
public class NativeLoaderTest {
    private static final String LIB = System.mapLibraryName("vortex4j");

    /** The bundled library's hash and size, as the build recorded them. */
    private static String[] digest() throws Exception {
        String resource = "/io/vortex4j/native/" + System.getProperty("os.name").toLowerCase().replaceAll("[^a-z]", "")
                + "-" + System.getProperty("os.arch") + "/" + LIB + ".sha256";
        try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split(" ");
        }
    }

    private static ChildJvm.Result load(Path cache) throws Exception {
        return ChildJvm.run(LoadBundledLibrary.class,
                List.of("-D" + NativeLoader.LIBRARY_PROPERTY + "=", "-D" + NativeLoader.CACHE_PROPERTY + "=" + cache),
                Map.of(), 120);
    }

    private static void assertLoaded(ChildJvm.Result r) {
        assertFalse(r.toString(), r.timedOut());
        assertEquals(r.toString(), 0, r.exit());
        assertTrue(r.toString(), r.output().contains("rows=8000"));
    }

    private static List<Path> contents(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().collect(Collectors.toList());
        }
    }

    @Test
    public void concurrentJvmsShareOneExtraction() throws Exception {
        Path cache = Fixtures.tempDir().resolve("native");
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<ChildJvm.Result>> runs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                runs.add(pool.submit(() -> load(cache)));
            }
            for (Future<ChildJvm.Result> r : runs) {
                assertLoaded(r.get());
            }
        } finally {
            pool.shutdownNow();
        }
        String[] digest = digest();
        assertEquals(List.of(cache.resolve(digest[0])), contents(cache));
        Path lib = cache.resolve(digest[0]).resolve(LIB);
        // Exactly the library: no temporary file left behind.
        assertEquals(List.of(lib), contents(cache.resolve(digest[0])));
        assertEquals(Long.parseLong(digest[1]), Files.size(lib));
        // A later JVM uses the copy as it is.
        FileTime extracted = Files.getLastModifiedTime(lib);
        assertLoaded(load(cache));
        assertEquals(extracted, Files.getLastModifiedTime(lib));
    }

    @Test
    public void anIncompleteCopyIsReplacedAndStaleTemporariesRemoved() throws Exception {
        Path cache = Fixtures.tempDir().resolve("native");
        String[] digest = digest();
        Path folder = Files.createDirectories(cache.resolve(digest[0]));
        Files.write(folder.resolve(LIB), new byte[1000]); // as if copied by hand and cut short
        Path stale = Files.write(folder.resolve(".extract-123.tmp"), new byte[10]);
        Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
        Path fresh = Files.write(folder.resolve(".extract-456.tmp"), new byte[10]); // another JVM, still extracting
        assertLoaded(load(cache));
        assertEquals(Long.parseLong(digest[1]), Files.size(folder.resolve(LIB)));
        assertFalse(Files.exists(stale));
        assertTrue(Files.exists(fresh));
    }

    @Test
    public void anUnwritableCacheFallsBackToATemporaryFolder() throws Exception {
        Path notAFolder = Files.write(Fixtures.tempDir().resolve("file"), new byte[] {1});
        assertLoaded(load(notAFolder.resolve("native")));
    }

    /** A library compiled for a feature this CPU lacks is refused before it loads: an exception, not a crash. */
    @Test
    public void aLibraryForAnotherCpuIsRefusedByName() throws Exception {
        org.junit.Assume.assumeTrue(Files.isReadable(Path.of("/proc/cpuinfo")) && System.getProperty("os.arch").equals("amd64"));
        Path dir = Fixtures.tempDir();
        // Not a library at all: were it loaded, System.load would fail otherwise.
        Path lib = Files.write(dir.resolve(LIB), new byte[] {1, 2, 3});
        Files.writeString(dir.resolve(LIB + ".cpu"), "x86_64 avx,vortex4j-absent-feature\n");
        ChildJvm.Result r = ChildJvm.run(LoadBundledLibrary.class,
                List.of("-D" + NativeLoader.LIBRARY_PROPERTY + "=" + lib), Map.of(), 120);
        assertFalse(r.toString(), r.timedOut());
        assertTrue(r.toString(), r.exit() != 0);
        assertTrue(r.toString(), r.output().contains(
                lib + " is compiled for CPU features this CPU lacks: vortex4j-absent-feature"));
    }
}
