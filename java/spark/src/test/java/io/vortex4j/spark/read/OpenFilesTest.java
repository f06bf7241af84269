package io.vortex4j.spark.read;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import io.vortex4j.spark.SharedSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The executor's cache of open files ({@link OpenFiles}), without Spark: files are shared across
 * leases, a replaced file is opened again (never served stale), a dropped file is closed only once
 * no lease holds it, and concurrent tasks over more files than the cache holds read every row.
 */
public class OpenFilesTest {
    private static final Schema SCHEMA = Schema.of(new Field("v", DataType.INT64, false));
    private static Path dir;

    @BeforeClass
    public static void setUp() throws IOException {
        dir = Files.createTempDirectory("vortex4j-open-files");
    }

    @AfterClass
    public static void tearDown() throws IOException {
        SharedSpark.delete(dir);
    }

    /** Writes {@code from, from + 1, ..., from + rows - 1} to {@code path}. */
    private static void write(Path path, long from, int rows) {
        try (VortexWriter w = VortexWriter.create(path, SCHEMA)) {
            w.write(new Batch(SCHEMA, rows).set("v", LongStream.range(from, from + rows).toArray()));
            w.finish();
        }
    }

    private static Split split(Path file) {
        try (VortexDataset d = VortexDataset.open(file)) {
            List<Split> splits = d.splits(null);
            assertEquals(1, splits.size());
            return splits.get(0);
        }
    }

    /** The sum of the split's values, read through {@code files}. */
    private static long sum(OpenFiles files, Split split) {
        long sum = 0;
        try (Scan scan = files.scan(split, List.of("v"), null)) {
            for (Chunk c : scan) {
                try (c) {
                    Int64Array a = (Int64Array) c.column(0);
                    for (int i = 0; i < c.length(); i++) {
                        sum += a.getLong(i);
                    }
                }
            }
        }
        return sum;
    }

    private static boolean isClosed(VortexFile f) {
        try {
            f.rowCount();
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }

    @Test
    public void leasesShareOneOpenFile() {
        Path p = dir.resolve("shared.vortex");
        write(p, 0, 1000);
        OpenFiles files = new OpenFiles(4);
        Split s = split(p);
        VortexFile first;
        try (OpenFiles.Lease a = files.lease(s); OpenFiles.Lease b = files.lease(s)) {
            first = a.file();
            assertSame(first, b.file());
        }
        assertEquals(999L * 1000 / 2, sum(files, s));
        assertEquals(1, files.size());
        assertTrue("kept open after its leases end", !isClosed(first));
        files.clear();
        assertTrue(isClosed(first));
    }

    @Test
    public void aReplacedFileIsOpenedAgain() throws IOException {
        Path p = dir.resolve("replaced.vortex");
        write(p, 0, 1000);
        OpenFiles files = new OpenFiles(4);
        Split before = split(p);
        VortexFile old;
        try (OpenFiles.Lease l = files.lease(before)) {
            old = l.file();
        }
        assertEquals(999L * 1000 / 2, sum(files, before));
        // Same path and row count, even the same modification time: another file (another inode).
        Path other = dir.resolve("other.tmp");
        write(other, 5000, 1000);
        Files.setLastModifiedTime(other, FileTime.fromMillis(before.modifiedMillis()));
        Files.move(other, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Split after = split(p);
        if (after.fileSize() == before.fileSize()) {
            // The split planned on the old file must not be served by the new one either.
            assertEquals(after.modifiedMillis(), before.modifiedMillis());
        } else {
            try {
                sum(files, before);
                fail("a split of the old file read the new one");
            } catch (VortexException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("changed after the split was planned"));
            }
        }
        assertEquals(LongStream.range(5000, 6000).sum(), sum(files, after));
        try (OpenFiles.Lease l = files.lease(after)) {
            assertNotSame(old, l.file());
        }
        assertTrue("the old version is closed", isClosed(old));
        assertEquals(1, files.size());
        files.clear();
    }

    @Test
    public void aDroppedFileClosesWhenItsLastLeaseEnds() {
        OpenFiles files = new OpenFiles(2);
        List<Split> splits = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Path p = dir.resolve("lru-" + i + ".vortex");
            write(p, i, 10);
            splits.add(split(p));
        }
        OpenFiles.Lease held = files.lease(splits.get(0));
        VortexFile first = held.file();
        try (OpenFiles.Lease b = files.lease(splits.get(1)); OpenFiles.Lease c = files.lease(splits.get(2))) {
            assertEquals(2, files.size());
        }
        assertTrue("dropped, but a lease still holds it", !isClosed(first));
        assertEquals(10, first.rowCount());
        held.close();
        assertTrue(isClosed(first));
        held.close(); // idempotent
        try {
            held.file();
            fail("a released lease gave its file");
        } catch (IllegalStateException expected) {
            // released
        }
        files.clear();
    }

    @Test
    public void concurrentTasksOverMoreFilesThanTheCacheHolds() throws Exception {
        OpenFiles files = new OpenFiles(2);
        List<Split> splits = new ArrayList<>();
        List<Long> sums = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Path p = dir.resolve("many-" + i + ".vortex");
            write(p, i * 1000L, 3000);
            splits.add(split(p));
            sums.add(LongStream.range(i * 1000L, i * 1000L + 3000).sum());
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> tasks = new ArrayList<>();
            for (int t = 0; t < 400; t++) {
                int i = t % splits.size();
                tasks.add(pool.submit(() -> sum(files, splits.get(i)) == sums.get(i)));
            }
            for (Future<Boolean> f : tasks) {
                assertTrue(f.get());
            }
        } finally {
            pool.shutdown();
        }
        assertTrue(files.size() <= 2);
        files.clear();
        assertEquals(0, files.size());
    }
}
