package io.vortex4j.reader;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.vortex4j.cli.sample.Trades;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.predicate.Predicate;
import java.nio.file.Path;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The segments kept across scans ({@link SegmentCache}): repeated scans answer the same with the
 * cache, without it and with a bound smaller than a scan's segments; what is kept stays within the
 * bound and goes when the file closes.
 */
public class SegmentCacheTest {
    private static final Predicate NVDA = Predicate.eq("sym", "NVDA");
    private static Path file;
    private static long expected;

    @BeforeClass
    public static void writeFile() throws Exception {
        file = Fixtures.tempDir().resolve("segment-cache.vortex");
        Trades.write(file, 400_000, 7, null);
        expected = Fixtures.symRowsByValue(file, "NVDA");
        assertTrue(expected > 0);
    }

    @After
    public void restoreBound() {
        SegmentCache.setCapacity((long) SegmentCache.DEFAULT_MIB << 20);
    }

    /** NVDA rows counted by the filter (natively, no row built), with the file's price too. */
    private static long count(VortexFile f) {
        long n = 0;
        try (Scan scan = f.scan("sym", "price")) {
            for (Chunk c : scan) {
                try (c) {
                    n += Compute.count(c, NVDA);
                }
            }
        }
        return n;
    }

    @Test
    public void repeatedScansReadKeptSegmentsAndTheFileTakesThemWhenItCloses() {
        SegmentCache.clear();
        assertEquals(0, SegmentCache.heldBytes());
        try (VortexFile f = VortexFile.open(file)) {
            assertEquals(expected, count(f));
            long held = SegmentCache.heldBytes();
            assertTrue("nothing kept after a scan", held > 0);
            assertTrue(held <= SegmentCache.capacityBytes());
            assertEquals(expected, count(f));
            assertEquals(expected, count(f));
            assertEquals("a repeated scan kept other segments", held, SegmentCache.heldBytes());
        }
        assertEquals(0, SegmentCache.heldBytes());
    }

    @Test
    public void aBoundOfNothingOrOfLessThanAScanKeepsAnswersRight() {
        try (VortexFile f = VortexFile.open(file)) {
            assertEquals(expected, count(f));
            assertTrue(SegmentCache.heldBytes() > 0);
            SegmentCache.setCapacity(0);
            assertEquals(0, SegmentCache.heldBytes());
            assertEquals(expected, count(f));
            assertEquals(0, SegmentCache.heldBytes());
            SegmentCache.setCapacity(64 << 10);
            for (int i = 0; i < 3; i++) {
                assertEquals(expected, count(f));
                assertTrue(SegmentCache.heldBytes() <= 64 << 10);
            }
            assertEquals(64 << 10, SegmentCache.capacityBytes());
        }
        assertThrows(IllegalArgumentException.class, () -> SegmentCache.setCapacity(-1));
    }
}
