package io.vortex4j.reader.exec;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.CancelledException;
import io.vortex4j.VortexException;
import io.vortex4j.reader.Cancellation;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.NativeMemory;
import io.vortex4j.reader.ReaderCache;
import io.vortex4j.reader.SegmentCache;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.dataset.DatasetTest;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongPredicate;
import org.junit.Test;

/**
 * Chunks read ahead on workers against the generator's own rows (see {@link DatasetTest}: row
 * {@code i} has {@code id = i}, {@code s = WORDS[i % 7]}, {@code v = i * 3 % 101}, null every 13th
 * row): every selected row exactly once, in order, whatever the thread count; failures in order;
 * nothing left running or held after close.
 */
public class ChunkReadAheadTest {
    private static final String[] WORDS = {"ant", "bee", "cat", "dog", "eel", "fox", "gnu"};

    private static Path folder(String name, int files, long rows) throws Exception {
        Path dir = Fixtures.tempDir().resolve(name);
        for (int f = 0; f < files; f++) {
            DatasetTest.write(dir.resolve(String.format("part-%03d.vortex", f)), rows * f / files,
                    rows * (f + 1) / files, 1000);
        }
        return dir;
    }

    private static Long v(long i) {
        return i % 13 == 0 ? null : i * 3 % 101;
    }

    /** The ids the read-ahead hands out, checking each row's other columns against the generator. */
    private static List<Long> ids(VortexDataset d, Predicate filter, long target, int threads) {
        List<Long> ids = new ArrayList<>();
        try (ChunkReadAhead ahead = ChunkReadAhead.open(d, d.splits(filter, target), List.of("id", "s", "v"), filter,
                3, threads)) {
            for (ChunkReadAhead.Ready r; (r = ahead.next()) != null; ) {
                try (Chunk c = r.chunk()) {
                    Bitmap sel = r.selection();
                    assertTrue("an empty selection was handed out", sel == null || sel.cardinality() > 0);
                    for (int row = 0; row < c.length(); row++) {
                        if (sel == null || sel.get(row)) {
                            long id = (Long) Values.valueAt(c.column(0), row);
                            assertEquals(WORDS[(int) (id % 7)], Values.valueAt(c.column(1), row));
                            assertEquals(v(id), Values.valueAt(c.column(2), row));
                            ids.add(id);
                        }
                    }
                }
            }
        }
        return ids;
    }

    private static List<Long> expected(long rows, LongPredicate keep) {
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < rows; i++) {
            if (keep.test(i)) {
                ids.add(i);
            }
        }
        return ids;
    }

    @Test
    public void everySelectedRowOnceInOrderAtEveryThreadCount() throws Exception {
        long rows = 60_000;
        for (int files : new int[] {1, 10}) {
            try (VortexDataset d = VortexDataset.open(folder("f" + files, files, rows))) {
                for (int threads : new int[] {1, 2, 4}) {
                    for (long target : new long[] {5_000, 1_048_576}) {
                        String at = files + " files, threads " + threads + ", target " + target;
                        assertEquals(at, expected(rows, i -> true), ids(d, null, target, threads));
                        assertEquals(at, expected(rows, i -> WORDS[(int) (i % 7)].equals("cat")),
                                ids(d, Predicate.eq("s", "cat"), target, threads));
                        assertEquals(at, expected(rows, i -> v(i) != null && v(i) > 90 && i >= 20_000),
                                ids(d, Predicate.and(Predicate.gt("v", 90L), Predicate.ge("id", 20_000L)),
                                        target, threads));
                        assertEquals(at, List.of(), ids(d, Predicate.eq("s", "yak"), target, threads));
                    }
                }
            }
        }
    }

    @Test
    public void closeMidwayStopsTheWorkersAndReleasesTheirChunks() throws Exception {
        try (VortexDataset d = VortexDataset.open(folder("close", 20, 200_000))) {
            long before = liveWithoutKeptCaches();
            for (int round = 0; round < 20; round++) {
                ChunkReadAhead ahead = ChunkReadAhead.open(d, d.splits(null, 2_000), List.of("id", "s", "v"), null, 3, 4);
                for (int k = 0; k < round % 5; k++) {
                    ahead.next().chunk().close();
                }
                ahead.close();
                try {
                    ahead.next();
                    fail("next() after close");
                } catch (IllegalStateException expected) {
                    // the read-ahead is closed
                }
            }
            assertNoWorkerBusy();
            long live = liveWithoutKeptCaches();
            for (int i = 0; i < 5 && live > before + (8 << 20); i++) {
                Thread.sleep(100); // concurrent tests free memory meanwhile
                live = liveWithoutKeptCaches();
            }
            assertTrue(before + " -> " + live, live <= before + (8 << 20));
        }
    }

    /**
     * Native bytes held without the bounded caches the process keeps on purpose (layout readers,
     * segments): how far the workers read ahead before a close varies with the machine's load,
     * and so does how much of the files they left in those caches.
     */
    private static long liveWithoutKeptCaches() {
        int files = ReaderCache.capacity();
        ReaderCache.setCapacity(0);
        ReaderCache.setCapacity(files);
        SegmentCache.clear();
        return NativeMemory.liveBytes();
    }

    @Test
    public void aFailureArrivesAfterEveryRowBeforeIt() throws Exception {
        long rows = 10_000;
        Path dir = folder("fail", 10, rows);
        try (VortexDataset d = VortexDataset.open(dir)) {
            List<Split> splits = d.splits(null);
            Files.delete(dir.resolve("part-005.vortex"));
            for (int threads : new int[] {1, 3}) {
                List<Long> seen = new ArrayList<>();
                try (ChunkReadAhead ahead = ChunkReadAhead.open(d, splits, List.of("id"), null, 1, threads)) {
                    for (ChunkReadAhead.Ready r; (r = ahead.next()) != null; ) {
                        try (Chunk c = r.chunk()) {
                            for (int row = 0; row < c.length(); row++) {
                                seen.add((Long) Values.valueAt(c.column(0), row));
                            }
                        }
                    }
                    fail("the deleted file was read");
                } catch (VortexException e) {
                    assertTrue(e.getMessage(), e.getMessage().contains("part-005.vortex"));
                }
                assertEquals("threads " + threads, expected(rows / 2, i -> true), seen);
            }
        }
    }

    @Test
    public void aCancelledConsumerStopsItsWorkers() throws Exception {
        try (VortexDataset d = VortexDataset.open(folder("cancel", 10, 100_000))) {
            AtomicBoolean flag = new AtomicBoolean();
            Cancellation cancellation = Cancellation.of(flag, 0);
            ChunkReadAhead ahead = cancellation.call(
                    () -> ChunkReadAhead.open(d, d.splits(null, 2_000), List.of("id"), null, 1, 3));
            ahead.next().chunk().close();
            flag.set(true);
            try {
                for (ChunkReadAhead.Ready r; (r = ahead.next()) != null; ) {
                    r.chunk().close();
                }
                fail("the cancelled read-ahead ran to its end");
            } catch (CancelledException expected) {
                // the workers stopped at their next chunk; the consumer sees it in order
            } finally {
                ahead.close();
            }
            assertNoWorkerBusy();
        }
    }

    /** No read-ahead worker in vortex4j code (idle pooled ones may wait for work). */
    private static void assertNoWorkerBusy() throws InterruptedException {
        long until = System.nanoTime() + 5_000_000_000L;
        List<String> busy;
        do {
            busy = new ArrayList<>();
            for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                if (e.getKey().getName().startsWith("vortex4j-readahead-")) {
                    for (StackTraceElement f : e.getValue()) {
                        if (f.getClassName().startsWith("io.vortex4j")) {
                            busy.add(e.getKey().getName() + " at " + f);
                            break;
                        }
                    }
                }
            }
            if (busy.isEmpty()) {
                return;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < until);
        fail("read-ahead workers still busy: " + busy);
    }
}
