package io.vortex4j.reader;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.VortexException;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.DecimalArray;
import io.vortex4j.reader.array.Float64Array;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.array.VarBinArray;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.oracle.ReferenceScan;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Bad files and misuse: each gives a clear {@link VortexException} (naming the file or column)
 * or {@link IllegalStateException}, never a JVM crash.
 */
public class BadInputTest {
    private static final Schema SCHEMA = Schema.of(
            new Field("id", DataType.INT64, false),
            new Field("s", DataType.UTF8, true),
            new Field("d", DataType.decimal(9, 2), true),
            new Field("f", DataType.FLOAT64, true),
            new Field("b", DataType.BINARY, true));
    private static final int ROWS = 6000;

    private static Path dir;
    private static Path good;
    private static byte[] goodBytes;

    @BeforeClass
    public static void writeGoodFile() throws IOException {
        dir = Fixtures.tempDir();
        good = dir.resolve("good.vortex");
        Random r = new Random(3);
        String[] words = {"x", "yy", "Zürich", "", null};
        try (VortexWriter w = VortexWriter.create(good, SCHEMA)) {
            for (int from = 0; from < ROWS; from += 2000) {
                long[] id = new long[2000];
                String[] s = new String[2000];
                BigDecimal[] d = new BigDecimal[2000];
                double[] f = new double[2000];
                byte[][] b = new byte[2000][];
                for (int i = 0; i < 2000; i++) {
                    id[i] = from + i;
                    s[i] = words[r.nextInt(words.length)];
                    d[i] = i % 9 == 0 ? null : BigDecimal.valueOf(r.nextInt(2_000_000) - 1_000_000, 2);
                    f[i] = r.nextGaussian();
                    b[i] = i % 5 == 0 ? null : ("v" + r.nextInt(50_000)).getBytes(StandardCharsets.UTF_8);
                }
                w.write(new Batch(SCHEMA, 2000).set("id", id).set("s", s).set("d", d).set("f", f).set("b", b));
            }
            w.finish();
        }
        goodBytes = Files.readAllBytes(good);
        assertEquals(ROWS, readAll(good));
    }

    /** Opens the file, scans every column and touches every value; returns the rows read. */
    private static long readAll(Path p) {
        try (VortexFile file = VortexFile.open(p); Scan scan = file.scan()) {
            long rows = 0;
            for (Chunk c : scan) {
                try (c) {
                    for (int col = 0; col < c.schema().size(); col++) {
                        Array a = c.column(col);
                        assertEquals(c.length(), a.length());
                        for (int i = 0; i < a.length(); i++) {
                            Values.valueAt(a, i);
                        }
                    }
                    rows += c.length();
                }
            }
            assertEquals(file.rowCount(), rows);
            return rows;
        }
    }

    private static void assertOpenFails(Path p, String... fragments) {
        try (VortexFile f = VortexFile.open(p)) {
            fail("opened " + p + ": " + f.schema());
        } catch (VortexException e) {
            String m = e.getMessage();
            assertTrue("message does not name the file: " + m, m.contains(p.toAbsolutePath().toString()));
            for (String fragment : fragments) {
                assertTrue("message lacks '" + fragment + "': " + m, m.contains(fragment));
            }
        }
    }

    @Test
    public void missingFile() {
        assertOpenFails(dir.resolve("no-such-file.vortex"), "no such file");
        assertOpenFails(dir.resolve("no-such-dir").resolve("x.vortex"));
    }

    @Test
    public void directory() {
        assertOpenFails(dir, "directory");
    }

    @Test
    public void emptyFile() throws IOException {
        Path p = dir.resolve("empty.vortex");
        Files.write(p, new byte[0]);
        assertOpenFails(p, "empty");
    }

    @Test
    public void textFile() throws IOException {
        Path p = dir.resolve("notes.txt");
        Files.write(p, "id,s\n1,hello\n2,world\nthis is not a Vortex file at all\n".getBytes(StandardCharsets.UTF_8));
        assertOpenFails(p, "not a Vortex file");
        Path tiny = dir.resolve("tiny.txt");
        Files.write(tiny, "hi".getBytes(StandardCharsets.UTF_8));
        assertOpenFails(tiny);
    }

    @Test
    public void fileWithMagicButGarbageInside() throws IOException {
        Path p = dir.resolve("magic-garbage.vortex");
        byte[] bytes = new byte[4096];
        new Random(1).nextBytes(bytes);
        System.arraycopy(goodBytes, 0, bytes, 0, 4);
        System.arraycopy(goodBytes, goodBytes.length - 4, bytes, bytes.length - 4, 4);
        Files.write(p, bytes);
        assertOpenFails(p);
    }

    @Test
    public void truncatedFiles() throws IOException {
        int n = goodBytes.length;
        TreeSet<Integer> cuts = new TreeSet<>(Arrays.asList(
                1, 3, 4, 8, 16, 64, n / 4, n / 2, 3 * n / 4, n - 200, n - 64, n - 9, n - 8, n - 5, n - 4, n - 2, n - 1));
        cuts.removeIf(c -> c <= 0 || c >= n);
        assertTrue(cuts.size() >= 10);
        for (int cut : cuts) {
            Path p = dir.resolve("cut-" + cut + ".vortex");
            Files.write(p, Arrays.copyOf(goodBytes, cut));
            assertOpenFails(p);
        }
    }

    /** Pieces cut out of the middle, with the real end (postscript and magic) kept. */
    @Test
    public void filesWithAMissingMiddle() throws IOException {
        int n = goodBytes.length;
        for (int[] keep : new int[][] {{4, 64}, {n / 2, 64}, {n / 2, 300}, {16, n / 2}, {n - 400, 200}, {n - 100, 40}}) {
            int head = Math.min(keep[0], n);
            int tail = Math.min(keep[1], n - head);
            byte[] spliced = new byte[head + tail];
            System.arraycopy(goodBytes, 0, spliced, 0, head);
            System.arraycopy(goodBytes, n - tail, spliced, head, tail);
            Path p = dir.resolve("spliced-" + head + "-" + tail + ".vortex");
            Files.write(p, spliced);
            assertOpenFails(p);
        }
    }

    /**
     * One flipped byte anywhere in the last 512 bytes (postscript, footer, layout, statistics,
     * end magic) and at positions spread over the data: the file either still reads with the same
     * row count or fails with a {@link VortexException}. Nothing crashes or hangs.
     */
    @Test
    public void flippedBytesEitherReadOrFailCleanly() throws IOException {
        int n = goodBytes.length;
        List<Integer> positions = new ArrayList<>();
        for (int i = Math.max(0, n - 512); i < n; i++) {
            positions.add(i);
        }
        for (int i = 0; i < 64; i++) {
            positions.add((int) ((long) i * (n - 512) / 64)); // includes byte 0, in the start magic
        }
        int failedAtOpen = 0;
        int failedLater = 0;
        int read = 0;
        List<String> unnamed = new ArrayList<>();
        Path p = dir.resolve("flipped.vortex");
        for (int pos : positions) {
            for (int mask : new int[] {0xFF, 0x01}) {
                byte[] bytes = goodBytes.clone();
                bytes[pos] ^= (byte) mask;
                Files.write(p, bytes);
                VortexFile file;
                try {
                    file = VortexFile.open(p);
                } catch (VortexException e) {
                    failedAtOpen++;
                    if (!e.getMessage().contains(p.toString())) {
                        unnamed.add("open, byte " + pos + ": " + e.getMessage());
                    }
                    if (pos >= n - 4) {
                        assertTrue(e.getMessage(), e.getMessage().contains("magic"));
                    }
                    continue;
                }
                if (pos >= n - 4 || pos < 4) {
                    fail("opened a file whose magic has byte " + pos + " flipped");
                }
                try (file) {
                    long rows = scanEveryColumn(file);
                    assertEquals("byte " + pos + " flipped with " + mask, ROWS, rows);
                    read++;
                } catch (VortexException e) {
                    failedLater++;
                    if (!e.getMessage().contains(p.toString())) {
                        unnamed.add("scan, byte " + pos + ": " + e.getMessage());
                    }
                }
            }
        }
        System.out.println("flipped bytes: " + failedAtOpen + " failed at open, " + failedLater
                + " failed while scanning, " + read + " read");
        // Most flips near the end hit the footer and must be detected.
        assertTrue("failed at open: " + failedAtOpen, failedAtOpen > 0);
        assertTrue("errors that do not name the file: " + unnamed, unnamed.isEmpty());
    }

    /** Scans every column, exporting each; the rows read, or VortexException. */
    private static long scanEveryColumn(VortexFile file) {
        long rows = 0;
        try (Scan scan = file.scan()) {
            for (Chunk c : scan) {
                try (c) {
                    for (int col = 0; col < c.schema().size(); col++) {
                        assertEquals(c.length(), c.column(col).length());
                    }
                    rows += c.length();
                }
            }
        }
        return rows;
    }

    // ---- misuse

    @Test
    public void closedFile() {
        VortexFile file = VortexFile.open(good);
        file.close();
        assertFalse(file.handle().isOpen());
        expectClosed(file::schema);
        expectClosed(file::rowCount);
        expectClosed(() -> file.scan());
        expectClosed(() -> file.scan("id"));
        expectClosed(() -> ReferenceScan.selectedRows(file, Predicate.eq("id", 1)));
        expectClosed(() -> file.referenceFilteredCount(Predicate.eq("id", 1), false, "id"));
        file.close();
    }

    @Test
    public void closedScan() {
        try (VortexFile file = VortexFile.open(good)) {
            Scan scan = file.scan();
            scan.close();
            expectClosed(scan::hasNext);
            expectClosed(scan::next);
            scan.close();

            // A scan that already prefetched its next chunk, then closed.
            Scan prefetched = file.scan("id");
            assertTrue(prefetched.hasNext());
            prefetched.close();
            expectClosed(prefetched::next);

            // A scan read to the end, then closed.
            Scan finished = file.scan("id");
            while (finished.hasNext()) {
                finished.next().close();
            }
            assertFalse(finished.hasNext());
            try {
                finished.next();
                fail("a chunk after the end");
            } catch (java.util.NoSuchElementException e) {
                assertTrue(e.getMessage(), e.getMessage().contains(good.toAbsolutePath().toString()));
            }
            finished.close();
            expectClosed(finished::hasNext);
        }
    }

    @Test
    public void closedChunkAndItsArrays() {
        try (VortexFile file = VortexFile.open(good); Scan scan = file.scan()) {
            Chunk c = scan.next();
            Array id = c.column("id");
            Array s = c.column("s");
            Array d = c.column("d");
            Array f = c.column("f");
            Array b = c.column("b");
            int len = c.length();
            assertTrue(c.isOpen());
            c.close();
            assertFalse(c.isOpen());
            expectClosed(c::length);
            expectClosed(() -> c.column(0));
            expectClosed(() -> c.column("id"));
            expectClosed(() -> c.encodingTree(0));
            expectClosed(() -> Compute.count(c, Predicate.eq("id", 1)));
            for (Array a : new Array[] {id, s, d, f, b}) {
                assertEquals(len, a.length());
                expectClosed(() -> a.isNull(0));
                expectClosed(() -> a.isValid(0));
                expectClosed(() -> Values.valueAt(a, 0));
            }
            expectClosed(() -> ((Int64Array) id).getLong(0));
            expectClosed(() -> ((DecimalArray) d).getBigDecimal(0));
            expectClosed(() -> ((Float64Array) f).getDouble(0));
            expectClosed(() -> ((VarBinArray) b).getBytes(0));
            expectClosed(() -> ((VarBinArray) b).byteLength(0));
            if (s instanceof VarBinDictArray dict) {
                expectClosed(() -> dict.getString(0));
                expectClosed(() -> dict.getCode(0));
                expectClosed(() -> dict.isCodeNull(0));
                expectClosed(() -> dict.getBytes(0));
                expectClosed(() -> dict.dictionary().getString(0));
            } else {
                expectClosed(() -> ((VarBinArray) s).getString(0));
            }
            c.close();
            // The scan goes on (to its end).
            while (scan.hasNext()) {
                scan.next().close();
            }
        }
    }

    @Test
    public void doubleCloseIsHarmless() {
        VortexFile file = VortexFile.open(good);
        Scan scan = file.scan();
        Chunk c = scan.next();
        c.close();
        c.close();
        scan.close();
        scan.close();
        file.close();
        file.close();
        Path p = dir.resolve("double-close.vortex");
        VortexWriter w = VortexWriter.create(p, SCHEMA);
        w.finish();
        w.close();
        w.close();
        assertTrue(Files.exists(p));
        VortexWriter abandoned = VortexWriter.create(dir.resolve("abandoned.vortex"), SCHEMA);
        abandoned.close();
        abandoned.close();
        expectClosed(() -> abandoned.write(new Batch(SCHEMA, 0).set("id", new long[0])
                .set("s", new String[0]).set("d", new BigDecimal[0]).set("f", new double[0]).set("b", new byte[0][])));
        expectClosed(abandoned::finish);
    }

    @Test
    public void unknownColumnInScan() {
        try (VortexFile file = VortexFile.open(good)) {
            try {
                file.scan("id", "nope");
                fail("scanned an unknown column");
            } catch (VortexException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("'nope'"));
                assertTrue(e.getMessage(), e.getMessage().contains(good.toAbsolutePath().toString()));
            }
            // The file is still usable.
            assertEquals(ROWS, scanEveryColumn(file));
        }
    }

    @Test
    public void unknownColumnInChunk() {
        try (VortexFile file = VortexFile.open(good); Scan scan = file.scan("id", "s")) {
            try (Chunk c = scan.next()) {
                try {
                    c.column("d");
                    fail("read a column the scan does not project");
                } catch (VortexException e) {
                    assertTrue(e.getMessage(), e.getMessage().contains("'d'"));
                }
                try {
                    c.column("nope");
                    fail("read an unknown column");
                } catch (VortexException e) {
                    assertTrue(e.getMessage(), e.getMessage().contains("'nope'"));
                }
                try {
                    c.column(2);
                    fail("read column 2 of 2");
                } catch (IndexOutOfBoundsException e) {
                    // ok
                }
                // The chunk still works.
                assertEquals(0L, ((Int64Array) c.column("id")).getLong(0));
            }
        }
    }

    @Test
    public void predicateLiteralOfTheWrongType() {
        try (VortexFile file = VortexFile.open(good)) {
            for (Predicate p : Arrays.asList(Predicate.eq("s", 5L), Predicate.lt("id", "ten"),
                    Predicate.in("s", "x", 1), Predicate.between("d", 1, "z"), Predicate.eq("b", true),
                    Predicate.and(Predicate.eq("id", 1), Predicate.ne("f", "x")))) {
                String column = p instanceof Predicate.And a ? "f" : p.column();
                try {
                    ReferenceScan.selectedRows(file, p);
                    fail("vortex filtered with " + p);
                } catch (VortexException e) {
                    assertTrue(e.getMessage(), e.getMessage().contains("'" + column + "'"));
                }
                try (Scan scan = file.scan(); Chunk c = scan.next()) {
                    Compute.matches(c, p, 0);
                    fail("Java filtered with " + p);
                } catch (VortexException e) {
                    assertTrue(e.getMessage(), e.getMessage().contains("'" + column + "'"));
                }
            }
        }
    }

    @Test
    public void predicateOnAnUnknownColumn() {
        Predicate p = Predicate.eq("nope", 1);
        try (VortexFile file = VortexFile.open(good)) {
            try {
                ReferenceScan.selectedRows(file, p);
                fail();
            } catch (VortexException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("'nope'"));
            }
            try (Scan scan = file.scan("id"); Chunk c = scan.next()) {
                Compute.selection(c, p);
                fail();
            } catch (VortexException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("'nope'"));
            }
            // A column the file has but the scan does not read.
            try (Scan scan = file.scan("id"); Chunk c = scan.next()) {
                Compute.selection(c, Predicate.eq("s", "x"));
                fail();
            } catch (VortexException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("'s'"));
            }
        }
    }

    @Test
    public void writerRejectsBadInput() {
        try {
            VortexWriter.create(dir.resolve("no-such-dir").resolve("x.vortex"), SCHEMA);
            fail();
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("no-such-dir"));
        }
        Batch b = new Batch(SCHEMA, 2);
        try {
            b.set("id", new int[] {1, 2});
            fail("an int[] for an i64 column");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("'id'"));
        }
        try {
            b.set("id", new long[] {1, 2, 3});
            fail("3 values for 2 rows");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("'id'"));
        }
        try {
            b.set("id", new long[] {1, 2}, new boolean[] {true, false});
            fail("a null in a non-nullable column");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("'id'"));
        }
        try {
            b.set("d", new BigDecimal[] {new BigDecimal("1.234"), null});
            fail("3 decimals in a scale-2 column");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("'d'"));
        }
        try {
            b.set("d", new BigDecimal[] {new BigDecimal("12345678.9"), null});
            fail("10 digits in a precision-9 column");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("'d'"));
        }
        try {
            b.set("nope", new long[] {1, 2});
            fail();
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("'nope'"));
        }
        Path p = dir.resolve("incomplete.vortex");
        try (VortexWriter w = VortexWriter.create(p, SCHEMA)) {
            try {
                w.write(new Batch(SCHEMA, 2).set("id", new long[] {1, 2}));
                fail("wrote a batch with unset columns");
            } catch (IllegalStateException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("'s'"));
            }
            try {
                w.write(new Batch(Schema.of(new Field("id", DataType.INT64, false)), 1).set("id", new long[] {1}));
                fail("wrote a batch of another schema");
            } catch (IllegalArgumentException e) {
                // ok
            }
        }
        assertFalse(Files.exists(p));
    }

    private static void expectClosed(Runnable r) {
        try {
            r.run();
            fail("used a closed resource without an error");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("closed"));
        }
    }

    private interface Call {
        Object call();
    }

    private static void expectClosed(Call c) {
        expectClosed((Runnable) c::call);
    }
}
