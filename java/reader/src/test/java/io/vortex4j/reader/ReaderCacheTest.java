package io.vortex4j.reader;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.cli.sample.Trades;
import io.vortex4j.reader.compute.GroupAggregate;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The layout readers kept across scans ({@link ReaderCache}): answers are the same with and
 * without them, a dataset of many files keeps at most the bound's readers after its scans, and
 * closing it drops them.
 */
public class ReaderCacheTest {
    private static final int FILES = 16;
    private static Path folder;
    private static final Predicate NVDA = Predicate.eq("sym", "NVDA");

    @BeforeClass
    public static void writeFiles() throws Exception {
        folder = Fixtures.tempDir().resolve("reader-cache");
        Files.createDirectories(folder);
        for (int i = 0; i < FILES; i++) {
            Trades.write(folder.resolve(String.format("part-%02d.vortex", i)), 30_000, i, null);
        }
    }

    @After
    public void restoreBound() {
        ReaderCache.setCapacity(ReaderCache.DEFAULT_FILES);
    }

    /** COUNT(*) of NVDA rows over every file of the dataset, through the pushed aggregate. */
    private static long count(VortexDataset dataset, int threads) {
        GroupAggregate.Result r = GroupAggregate.run(dataset, null, NVDA,
                List.of(GroupAggregate.Aggregate.countStar()), threads);
        return (Long) r.value(0, 0);
    }

    /** The same count, row by row in Java over every file. */
    private static long countByRows() throws Exception {
        long n = 0;
        try (var files = Files.list(folder)) {
            for (Path p : (Iterable<Path>) files.sorted()::iterator) {
                n += Fixtures.symRowsByValue(p, "NVDA");
            }
        }
        return n;
    }

    @Test
    public void answersAreTheSameWithAndWithoutKeptReaders() throws Exception {
        long expected = countByRows();
        assertTrue(expected > 0);
        try (VortexDataset dataset = VortexDataset.open(folder)) {
            for (int bound : new int[] {0, 3, FILES, 0}) {
                ReaderCache.setCapacity(bound);
                for (int threads : new int[] {1, 2}) {
                    assertEquals("bound " + bound + ", threads " + threads, expected, count(dataset, threads));
                    assertEquals("bound " + bound + ", threads " + threads, expected, count(dataset, threads));
                }
                assertTrue(ReaderCache.size() <= bound);
            }
        }
    }

    @Test
    public void manyFilesKeepAtMostTheBound() {
        // Without kept chunks: a scan whose chunks are all kept needs no layout reader.
        long segments = SegmentCache.capacityBytes();
        SegmentCache.setCapacity(0);
        try (VortexDataset dataset = VortexDataset.open(folder)) {
            ReaderCache.setCapacity(0);
            count(dataset, 2);
            assertEquals(0, ReaderCache.size());
            ReaderCache.setCapacity(4);
            count(dataset, 2);
            assertEquals(4, ReaderCache.size());
            ReaderCache.setCapacity(FILES);
            count(dataset, 2);
            assertEquals(FILES, ReaderCache.size());
            ReaderCache.setCapacity(3);
            assertEquals(3, ReaderCache.size());
            ReaderCache.setCapacity(FILES);
            count(dataset, 1);
            assertEquals(FILES, ReaderCache.size());
        } finally {
            SegmentCache.setCapacity(segments);
        }
        // Closing the dataset closes its files: their readers go with them.
        assertEquals(0, ReaderCache.size());
    }
}
