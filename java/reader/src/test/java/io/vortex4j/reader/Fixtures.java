package io.vortex4j.reader;

import io.vortex4j.reader.array.VarBinArray;
import io.vortex4j.reader.array.VarBinDictArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Files written by the Rust reference code for the tests, cached per JVM. */
public final class Fixtures {
    private Fixtures() {}

    /** A dictionary fixture file and the values of its {@code s} column, as Rust generated them. */
    public static final class DictFile {
        public final Path path;
        public final List<String> s;

        public DictFile(Path path, String[] s) {
            this.path = path;
            this.s = Arrays.asList(s);
        }
    }

    /** Rows of {@code file} whose {@code sym} is {@code sym}, each value read and compared in Java. */
    public static long symRowsByValue(Path file, String sym) {
        long n = 0;
        try (VortexFile f = VortexFile.open(file); Scan scan = f.scan("sym")) {
            for (Chunk c : scan) {
                try (c) {
                    for (int i = 0; i < c.length(); i++) {
                        String s = c.column(0) instanceof VarBinDictArray d ? d.getString(i)
                                : ((VarBinArray) c.column(0)).getString(i);
                        n += sym.equals(s) ? 1 : 0;
                    }
                }
            }
        }
        return n;
    }

    private static DictFile flat;
    private static DictFile reference;
    private static DictFile shared;

    private static final List<Path> TEMP_DIRS = new java.util.ArrayList<>();

    /** A fresh temporary directory, deleted with its contents when the JVM exits. */
    public static Path tempDir() {
        try {
            Path dir = Files.createTempDirectory("vortex4j-test");
            synchronized (TEMP_DIRS) {
                if (TEMP_DIRS.isEmpty()) {
                    Runtime.getRuntime().addShutdownHook(new Thread(Fixtures::deleteTempDirs));
                }
                TEMP_DIRS.add(dir);
            }
            return dir;
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    private static void deleteTempDirs() {
        synchronized (TEMP_DIRS) {
            for (Path dir : TEMP_DIRS) {
                try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
                    walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException | RuntimeException e) {
                    // Best effort: a leftover temporary file is not a test failure.
                }
            }
        }
    }

    /** Eight chunks of 1000 rows in the four shapes of {@code rust/fixtures/dict_fixture.rs}. */
    public static synchronized DictFile flatDict() {
        if (flat == null) {
            Path p = tempDir().resolve("dict-flat.vortex");
            flat = new DictFile(p, DictFixture.write(p.toString(), 8, 1000, 42, false));
        }
        return flat;
    }

    /**
     * Three chunks of low-cardinality rows (the word shapes only) through vortex's default
     * strategy: one FSST dictionary shared by every chunk, small enough for many scans.
     */
    public static synchronized DictFile sharedDict() {
        if (shared == null) {
            Path p = tempDir().resolve("dict-shared.vortex");
            shared = new DictFile(p, DictFixture.write(p.toString(), 3, 20_000, 5, true));
        }
        return shared;
    }

    /** The same kind of rows written through vortex's default strategy (shared dictionary). */
    public static synchronized DictFile referenceDict() {
        if (reference == null) {
            Path p = tempDir().resolve("dict-reference.vortex");
            reference = new DictFile(p, DictFixture.write(p.toString(), 6, 50_000, 7, true));
        }
        return reference;
    }
}
