package io.vortex4j.reader;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.CancelledException;
import io.vortex4j.VortexException;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.compute.PredicateEvaluator;
import io.vortex4j.reader.compute.PreparedFilter;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntPredicate;
import org.junit.After;
import org.junit.Test;

/**
 * {@link Scan#countRemaining}: the chunks after the first counted natively in batches of 1, 2 and
 * 16 chunks per call, a chunk the native filter declines (ILIKE on a chunk holding non-ASCII
 * words) counted in Java, over every split of a file, against vortex's own filtered scan and
 * against the generated values; and a cancellation between two calls.
 */
public class CountRemainingTest {
    @After
    public void restore() {
        PredicateEvaluator.setDictFilterEnabled(true);
    }

    private static final int ROWS = 6 * 65_536;
    private static final String[] WORDS = {"AAPL", "bar", "Msft", "zap", "ibm", "Kayak"};
    /** Folded alike by vortex's ILIKE and the reader's. */
    private static final String[] NON_ASCII = {"Zürich", "café", "Ärger", "naïve"};

    private static Path path;
    /** Per row: {@code s}, unique (not dictionary-encoded), and {@code w}, a dictionary word. */
    private static String[] s;
    private static String[] w;

    private static final Schema SCHEMA = Schema.of(new Field("id", DataType.INT64, false),
            new Field("s", DataType.UTF8, false), new Field("w", DataType.UTF8, false));

    /** Whether {@code s} of the row is non-ASCII: in every third run of 65536 rows. */
    private static boolean nonAscii(int row) {
        return row / 65_536 % 3 == 1 && row % 7 == 0;
    }

    /**
     * vortex's writer coalesces about 1 MB of a column per chunk: the unique strings give chunks
     * of tens of thousands of rows (the test reads how many).
     */
    private static synchronized Path file() {
        if (path == null) {
            Path p = Fixtures.tempDir().resolve("count-remaining.vortex");
            long[] id = new long[ROWS];
            String[] strings = new String[ROWS];
            String[] words = new String[ROWS];
            for (int row = 0; row < ROWS; row++) {
                id[row] = row;
                int k = row * 7 + row / 5;
                strings[row] = "r" + row + (nonAscii(row) ? NON_ASCII[k % NON_ASCII.length] : WORDS[k % WORDS.length]);
                words[row] = WORDS[(row / 3 + row % 11) % WORDS.length];
            }
            try (VortexWriter writer = VortexWriter.create(p, SCHEMA)) {
                writer.write(new Batch(SCHEMA, ROWS).set("id", id).set("s", strings).set("w", words));
                writer.finish();
            }
            s = strings;
            w = words;
            path = p;
        }
        return path;
    }

    private static final Predicate ILIKE_A = new Predicate.Like("s", "%a%", null, true, false);

    private static boolean ilikeA(int row) {
        return s[row].toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT).contains("a");
    }

    /** Filters the kernel takes on every chunk, the ILIKE it declines on some, and one with both. */
    private static List<Object[]> filters() {
        return List.of(
                new Object[] {Predicate.eq("w", "bar"), (IntPredicate) r -> w[r].equals("bar")},
                new Object[] {Predicate.between("id", 50_000L, 300_000L), (IntPredicate) r -> r >= 50_000 && r <= 300_000},
                new Object[] {ILIKE_A, (IntPredicate) CountRemainingTest::ilikeA},
                new Object[] {Predicate.and(ILIKE_A, Predicate.lt("id", 200_000L)), (IntPredicate) r -> ilikeA(r) && r < 200_000},
                new Object[] {Predicate.or(ILIKE_A, Predicate.eq("w", "zap")), (IntPredicate) r -> ilikeA(r) || w[r].equals("zap")});
    }

    private static long expected(IntPredicate rows) {
        long n = 0;
        for (int r = 0; r < s.length; r++) {
            n += rows.test(r) ? 1 : 0;
        }
        return n;
    }

    /**
     * The fixture is what the test needs: several chunks, the ILIKE declined natively exactly on
     * those holding non-ASCII values (not all), and those chunks hold rows it selects, so a count
     * that skipped them or counted them twice would be off.
     */
    @Test
    public void theIlikeIsDeclinedOnSomeChunksThatHoldSelectedRows() {
        try (VortexFile file = VortexFile.open(file()); Scan scan = file.scan("id", "s", "w")) {
            int chunks = 0;
            int declinedChunks = 0;
            long declinedRows = 0;
            long end = 0;
            for (Chunk c : scan) {
                try (c) {
                    assertEquals(end, c.firstRow());
                    end += c.length();
                    PreparedFilter prepared = scan.prepared(ILIKE_A);
                    assertTrue(prepared.isNativeOnly());
                    boolean declined = prepared.count(c) < 0;
                    boolean anyNonAscii = false;
                    long selected = 0;
                    for (int i = 0; i < c.length(); i++) {
                        int row = (int) c.firstRow() + i;
                        anyNonAscii |= nonAscii(row);
                        selected += ilikeA(row) ? 1 : 0;
                    }
                    assertEquals("chunk " + c, anyNonAscii, declined);
                    declinedChunks += declined ? 1 : 0;
                    declinedRows += declined ? selected : 0;
                    chunks++;
                }
            }
            assertEquals(ROWS, end);
            assertTrue(chunks + " chunks", chunks >= 6);
            assertTrue(declinedChunks + " of " + chunks + " declined", declinedChunks > 0 && declinedChunks < chunks - 1);
            assertTrue(declinedRows > 0);
        }
    }

    /** Over every split of the file (several chunks each), at 1, 2 and 16 chunks per native call. */
    @Test
    public void batchedCountsEqualVortexFilteredScan() {
        file();
        try (VortexDataset dataset = VortexDataset.open(path); VortexFile file = VortexFile.open(path)) {
            for (Object[] f : filters()) {
                Predicate filter = (Predicate) f[0];
                long want = expected((IntPredicate) f[1]);
                assertEquals("vortex's filtered scan: " + filter, want, file.referenceFilteredCount(filter, false, "s"));
                List<Split> splits = dataset.splits(filter, ROWS / 4);
                assertTrue(splits.toString(), splits.size() >= 3);
                for (int max : new int[] {1, 2, 16}) {
                    long n = 0;
                    int[] calls = {0};
                    for (Split split : splits) {
                        try (Scan scan = dataset.scan(split, List.of("id", "s", "w"), filter)) {
                            n += scan.countRemaining(scan.chunkFilter(), max, () -> calls[0]++);
                            assertFalse(scan.hasNext());
                        }
                    }
                    assertEquals(filter + " at " + max + " chunks per call", want, n);
                    assertTrue(filter + ": counted natively", calls[0] > 0);
                }
            }
        }
    }

    /**
     * {@link VortexDataset#count} / {@link VortexFile#countRows}: the scan opened, the filter
     * prepared and the first chunks counted in one native call, the rest (past 1, 2 or 16 chunks,
     * or a declined chunk) on the scan it hands back; a Java leaf, no filter or the native filters
     * off take the scan way. Every answer equals the generated values.
     */
    @Test
    public void splitCountsInOneCallEqualTheValues() {
        file();
        Predicate computed = new Predicate.Computed("s", "has z", v -> ((String) v).contains("z"), false);
        List<String> columns = List.of("id", "s", "w");
        try (VortexDataset dataset = VortexDataset.open(path); VortexFile file = VortexFile.open(path)) {
            int chunks = 0;
            try (Scan scan = file.scan("id")) {
                for (Chunk c : scan) {
                    c.close();
                    chunks++;
                }
            }
            assertTrue(chunks + " chunks: more than one call at 2 per call", chunks > 2);
            List<Object[]> filters = new java.util.ArrayList<>(filters());
            filters.add(new Object[] {computed, (IntPredicate) r -> s[r].contains("z")});
            filters.add(new Object[] {null, (IntPredicate) r -> true});
            for (boolean dictFilter : new boolean[] {true, false}) {
                PredicateEvaluator.setDictFilterEnabled(dictFilter);
                for (Object[] f : filters) {
                    Predicate filter = (Predicate) f[0];
                    long want = expected((IntPredicate) f[1]);
                    long n = 0;
                    for (Split split : dataset.splits(filter, ROWS / 4)) {
                        n += dataset.count(split, columns, filter);
                    }
                    assertEquals(filter + " by split", want, n);
                    for (int max : new int[] {1, 2, 16}) {
                        assertEquals(filter + " at " + max, want, file.countRows(columns, filter, 0, ROWS, null, max));
                    }
                }
            }
        }
    }

    /**
     * {@link VortexFile#countSplits} and {@link VortexDataset#count(List, List, Predicate)}: the
     * splits of a folder of three copies of the file (some whole files, some cut inside them),
     * counted several per native call, in the dataset's batches for 1, 2 and 8 threads and at 1, 2
     * and 16 chunks per split and call, with the native filters on and off; every answer is three
     * times the generated values'. A file rewritten after planning fails the count naming it.
     */
    @Test
    public void splitsCountedSeveralPerCallEqualTheValues() throws IOException {
        file();
        Path dir = Fixtures.tempDir().resolve("count-remaining-copies");
        Files.createDirectories(dir);
        for (int k = 0; k < 3; k++) {
            Files.copy(path, dir.resolve("part-" + k + ".vortex"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Predicate computed = new Predicate.Computed("s", "has z", v -> ((String) v).contains("z"), false);
        List<String> columns = List.of("id", "s", "w");
        List<Object[]> filters = new java.util.ArrayList<>(filters());
        filters.add(new Object[] {computed, (IntPredicate) r -> s[r].contains("z")});
        filters.add(new Object[] {null, (IntPredicate) r -> true});
        try (VortexDataset dataset = VortexDataset.open(dir)) {
            for (boolean dictFilter : new boolean[] {true, false}) {
                PredicateEvaluator.setDictFilterEnabled(dictFilter);
                for (Object[] f : filters) {
                    Predicate filter = (Predicate) f[0];
                    long want = 3 * expected((IntPredicate) f[1]);
                    // The first file whole, the others cut in two inside a chunk's rows.
                    List<Split> splits = new java.util.ArrayList<>();
                    for (Split split : dataset.splits(filter, ROWS)) {
                        if (split.path().endsWith("part-0.vortex")) {
                            splits.add(split);
                        }
                    }
                    for (Split split : dataset.splits(filter, ROWS / 3)) {
                        if (!split.path().endsWith("part-0.vortex")) {
                            splits.add(split);
                        }
                    }
                    assertTrue(splits.size() > 3);
                    for (int threads : new int[] {1, 2, 8}) {
                        long n = 0;
                        List<List<Split>> batches = VortexDataset.countBatches(splits, threads);
                        assertEquals(splits, batches.stream().flatMap(List::stream).toList());
                        for (List<Split> batch : batches) {
                            n += dataset.count(batch, columns, filter);
                        }
                        assertEquals(filter + " at " + threads + " threads", want, n);
                    }
                    List<VortexFile> files = new java.util.ArrayList<>();
                    try {
                        for (Split split : splits) {
                            files.add(VortexFile.open(split.path()));
                        }
                        for (int max : new int[] {1, 2, 16}) {
                            assertEquals(filter + " at " + max, want,
                                    VortexFile.countSplits(files, splits, columns, filter, max));
                        }
                    } finally {
                        files.forEach(VortexFile::close);
                    }
                }
            }
            PredicateEvaluator.setDictFilterEnabled(true);
            Predicate eq = Predicate.eq("w", "bar");
            List<Split> splits = dataset.splits(eq);
            assertEquals(3, splits.size());
            dataset.count(splits, columns, eq); // every file open
            Path changed = dir.resolve("part-1.vortex");
            Files.write(changed, new byte[] {1}, StandardOpenOption.APPEND);
            try {
                dataset.count(splits, columns, eq);
                fail("a file changed after planning is not counted");
            } catch (VortexException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("part-1.vortex") && e.getMessage().contains("changed"));
            }
        }
    }

    /**
     * Mixed with iteration: chunks read by next() (and one pending after hasNext()) are not counted
     * again. With a Java-evaluated leaf, or the native filters off, it counts chunk by chunk.
     */
    @Test
    public void countsWhatIsLeftAndFallsBackChunkByChunk() {
        file();
        Predicate computed = new Predicate.Computed("s", "has z", v -> ((String) v).contains("z"), false);
        long zs = expected(r -> s[r].contains("z"));
        try (VortexFile file = VortexFile.open(path)) {
            for (Object[] f : filters()) {
                Predicate filter = (Predicate) f[0];
                long want = expected((IntPredicate) f[1]);
                try (Scan scan = file.scan("id", "s", "w")) {
                    long n = 0;
                    for (int k = 0; k < 2; k++) {
                        try (Chunk c = scan.next()) {
                            n += Compute.count(c, filter);
                        }
                    }
                    assertTrue(scan.hasNext());
                    assertEquals(filter.toString(), want, n + scan.countRemaining(filter, 2, null));
                    assertEquals(0, scan.countRemaining(filter));
                }
            }
            int[] calls = {0};
            try (Scan scan = file.scan("id", "s", "w")) {
                assertEquals(zs, scan.countRemaining(computed, 2, () -> calls[0]++));
            }
            try (Scan scan = file.scan("id", "s", "w")) {
                assertEquals(expected(r -> true), scan.countRemaining(null, 2, () -> calls[0]++));
            }
            PredicateEvaluator.setDictFilterEnabled(false);
            try (Scan scan = file.scan("id", "s", "w")) {
                assertEquals(expected(CountRemainingTest::ilikeA), scan.countRemaining(ILIKE_A, 2, () -> calls[0]++));
            }
            assertEquals("no native batch", 0, calls[0]);
        }
    }

    /**
     * A file cut short after it was opened: the count fails on the first chunk it cannot read
     * (after the first, so in a native call) with the exception chunk-by-chunk iteration throws,
     * naming the file.
     */
    @Test
    public void aChunkThatCannotBeReadFailsAsChunkByChunk() throws IOException {
        file();
        Predicate filter = Predicate.like("s", "r1%"); // column s only: its segments lie in row order
        String[] messages = new String[2];
        for (int batched = 0; batched < 2; batched++) {
            Path copy = Fixtures.tempDir().resolve("cut.vortex");
            Files.copy(path, copy);
            int read = 0;
            try (VortexFile file = VortexFile.open(copy); Scan scan = file.scan("id", "s")) {
                try (FileChannel channel = FileChannel.open(copy, StandardOpenOption.WRITE)) {
                    channel.truncate(Files.size(copy) / 2);
                }
                if (batched == 1) {
                    scan.countRemaining(filter);
                } else {
                    for (Chunk c : scan) {
                        try (c) {
                            Compute.count(c, filter);
                            read++;
                        }
                    }
                }
                fail("read a file cut in half");
            } catch (VortexException e) {
                messages[batched] = e.getMessage().replace(copy.toString(), "FILE");
                assertTrue(e.getMessage(), e.getMessage().contains(copy.toString()));
            }
            if (batched == 0) {
                assertTrue("the first chunks read: " + read, read > 0);
            }
        }
        assertEquals(messages[0], messages[1]);
    }

    /**
     * A cancellation set after the first native call stops the count before the second, and every
     * chunk read is freed: once the scan closes, the native memory is what it was before.
     */
    @Test
    public void cancelledBetweenCallsThrowsAndFreesEverything() {
        file();
        try (VortexFile file = VortexFile.open(path)) {
            for (Predicate filter : List.of(Predicate.eq("s", "bar"), ILIKE_A)) {
                try (Scan warm = file.scan("id", "s", "w")) {
                    warm.countRemaining(filter); // fills the dictionary caches the count uses
                }
                long live = NativeMemory.liveBytes();
                AtomicBoolean flag = new AtomicBoolean();
                int[] calls = {0};
                Scan scan = Cancellation.of(flag, 0).call(() -> file.scan("id", "s", "w"));
                try (scan) {
                    scan.countRemaining(filter, 3, () -> {
                        if (calls[0]++ == 1) {
                            flag.set(true);
                        }
                    });
                    fail("the cancelled count ran to its end");
                } catch (CancelledException expected) {
                    assertEquals("the query was cancelled", expected.getMessage());
                }
                assertEquals(2, calls[0]);
                assertEquals(filter.toString(), live, NativeMemory.liveBytes());
            }
        }
    }
}
