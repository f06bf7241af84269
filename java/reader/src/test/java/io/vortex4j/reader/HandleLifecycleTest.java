package io.vortex4j.reader;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.array.VarBinArray;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.internal.NativeHandle;
import io.vortex4j.reader.oracle.Sql3;
import io.vortex4j.reader.predicate.Predicate;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.Test;

/**
 * Native handle lifetimes: what closing a file, scan or chunk does to what came from it, what
 * the garbage collector frees, and reading one file from several threads.
 */
public class HandleLifecycleTest {

    /** Checks every row of {@code c} against the fixture: {@code id} is the row, {@code s} as generated. */
    private static void checkChunk(Fixtures.DictFile f, Chunk c) {
        Array id = c.column("id");
        Array s = c.column("s");
        for (int i = 0; i < c.length(); i++) {
            int row = (int) c.firstRow() + i;
            assertEquals((long) row, Values.valueAt(id, i));
            assertEquals("row " + row, f.s.get(row), Values.valueAt(s, i));
        }
    }

    private static void expectClosed(Runnable r) {
        try {
            r.run();
            fail("no IllegalStateException");
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("closed"));
        }
    }

    @Test
    public void closingAChunkInvalidatesItsArraysOnly() {
        Fixtures.DictFile f = Fixtures.flatDict();
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan()) {
            Chunk first = scan.next();
            Chunk second = scan.next();
            VarBinDictArray s = (VarBinDictArray) first.column("s");
            Int64Array id = (Int64Array) first.column("id");
            VarBinArray dictionary = s.dictionary();
            Array v = first.column("v");
            checkChunk(f, first);
            first.close();
            expectClosed(() -> s.getString(0));
            expectClosed(() -> s.getCode(0));
            expectClosed(() -> dictionary.getString(0));
            expectClosed(() -> id.getLong(0));
            expectClosed(() -> v.isNull(0));
            expectClosed(() -> Values.valueAt(v, 0));
            expectClosed(() -> first.column("s"));
            // The other chunk, and the rest of the scan, are unaffected.
            checkChunk(f, second);
            second.close();
            long rows = 2000;
            while (scan.hasNext()) {
                try (Chunk c = scan.next()) {
                    checkChunk(f, c);
                    rows += c.length();
                }
            }
            assertEquals(f.s.size(), rows);
        }
    }

    @Test
    public void closingTheScanKeepsTheChunksItReturned() {
        Fixtures.DictFile f = Fixtures.flatDict();
        try (VortexFile file = VortexFile.open(f.path)) {
            Scan scan = file.scan();
            List<Chunk> chunks = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                chunks.add(scan.next());
            }
            // Only column "s" of chunk 0 was exported before the close; the others export after.
            chunks.get(0).column("s");
            assertTrue(scan.hasNext()); // prefetches chunk 3, which the close then releases
            scan.close();
            expectClosed(scan::next);
            for (Chunk c : chunks) {
                assertTrue(c.isOpen());
                checkChunk(f, c);
                assertTrue(c.encodingTree(1).contains("dict"));
                c.close();
            }
        }
    }

    @Test
    public void closingTheFileKeepsScansAlreadyStarted() {
        for (Fixtures.DictFile f : List.of(Fixtures.flatDict(), Fixtures.referenceDict())) {
            VortexFile file = VortexFile.open(f.path);
            Scan scan = file.scan("id", "s");
            Chunk first = scan.next();
            file.close();
            expectClosed(() -> file.scan());
            expectClosed(file::rowCount);
            long rows = 0;
            try (first) {
                checkChunk(f, first);
                rows += first.length();
            }
            for (Chunk c : scan) {
                try (c) {
                    checkChunk(f, c);
                    rows += c.length();
                }
            }
            scan.close();
            assertEquals(f.s.size(), rows);
        }
    }

    /** Files, scans and chunks dropped without close: the Cleaner frees them, nothing crashes. */
    @Test
    public void abandonedHandlesAreCleanedWithoutCrashing() {
        Fixtures.DictFile f = Fixtures.flatDict();
        for (int round = 0; round < 400; round++) {
            VortexFile file = VortexFile.open(f.path);
            Scan scan = file.scan();
            int take = 1 + round % 4;
            for (int k = 0; k < take && scan.hasNext(); k++) {
                Chunk c = scan.next();
                int i = (round * 7) % c.length();
                assertEquals(f.s.get((int) c.firstRow() + i), Values.valueAt(c.column("s"), i));
                if (round % 3 == 0) {
                    c.close(); // some closed explicitly, the rest left to the Cleaner
                }
            }
            if (round % 5 == 0) {
                scan.close();
            }
            if (round % 7 == 0) {
                file.close();
            }
            if (round % 50 == 49) {
                System.gc();
            }
        }
        System.gc();
        // Still fully working afterwards.
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan()) {
            for (Chunk c : scan) {
                try (c) {
                    checkChunk(f, c);
                }
            }
        }
    }

    /** Nothing keeps a dropped chunk's handle reachable, so the Cleaner can free it. */
    @Test
    public void droppedChunksBecomeUnreachable() {
        Fixtures.DictFile f = Fixtures.flatDict();
        List<WeakReference<NativeHandle>> handles = new ArrayList<>();
        VortexFile file = VortexFile.open(f.path);
        Scan scan = file.scan();
        for (int k = 0; k < 3; k++) {
            Chunk c = scan.next();
            c.column("s");
            Compute.count(c, Predicate.eq("s", "AAPL"));
            handles.add(new WeakReference<>(c.handle()));
        }
        WeakReference<NativeHandle> scanHandle = new WeakReference<>(scanHandle(scan));
        scan = null;
        file = null;
        for (int attempt = 0; attempt < 50 && !allCleared(handles); attempt++) {
            System.gc();
            byte[][] garbage = new byte[64][];
            for (int i = 0; i < garbage.length; i++) {
                garbage[i] = new byte[1 << 16];
            }
        }
        assertTrue("dropped chunk handles still reachable", allCleared(handles));
        for (int attempt = 0; attempt < 50 && scanHandle.get() != null; attempt++) {
            System.gc();
        }
        assertNull("dropped scan handle still reachable", scanHandle.get());
    }

    private static NativeHandle scanHandle(Scan scan) {
        try {
            java.lang.reflect.Field h = Scan.class.getDeclaredField("handle");
            h.setAccessible(true);
            return (NativeHandle) h.get(scan);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static boolean allCleared(List<WeakReference<NativeHandle>> refs) {
        for (WeakReference<NativeHandle> r : refs) {
            if (r.get() != null) {
                return false;
            }
        }
        return true;
    }

    /** An array keeps its chunk's memory alive after the chunk object itself is dropped. */
    @Test
    public void anArrayOutlivesItsDroppedChunk() {
        Fixtures.DictFile f = Fixtures.referenceDict();
        List<Array> arrays = new ArrayList<>();
        List<Long> firstRows = new ArrayList<>();
        VortexFile file = VortexFile.open(f.path);
        Scan scan = file.scan("s", "id");
        for (int k = 0; k < 2; k++) {
            Chunk c = scan.next();
            arrays.add(c.column(0));
            arrays.add(c.column(1));
            firstRows.add(c.firstRow());
        }
        scan = null;
        file = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            System.gc();
            byte[][] garbage = new byte[64][];
            for (int i = 0; i < garbage.length; i++) {
                garbage[i] = new byte[1 << 16];
            }
        }
        for (int k = 0; k < 2; k++) {
            Array s = arrays.get(2 * k);
            Array id = arrays.get(2 * k + 1);
            int first = (int) (long) firstRows.get(k);
            for (int i = 0; i < s.length(); i++) {
                assertEquals(f.s.get(first + i), Values.valueAt(s, i));
                assertEquals((long) (first + i), Values.valueAt(id, i));
            }
        }
    }

    // ---- threads

    /** Two threads scanning the same open file at once see the same, right, values. */
    @Test
    public void twoThreadsReadingOneFileAgree() throws Exception {
        Fixtures.DictFile f = Fixtures.referenceDict();
        List<Predicate> predicates = List.of(Predicate.eq("s", "AAPL"), Predicate.lt("s", "B"),
                Predicate.isNull("s"), Predicate.in("s", "東京", "Ω", null), Predicate.gt("id", 123_456));
        long[] want = new long[predicates.size()];
        for (int k = 0; k < want.length; k++) {
            Predicate p = predicates.get(k);
            for (int r = 0; r < f.s.size(); r++) {
                final int row = r;
                if (Sql3.selects(p, name -> name.equals("id") ? (Object) (long) row : f.s.get(row))) {
                    want[k]++;
                }
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (VortexFile file = VortexFile.open(f.path)) {
            CyclicBarrier start = new CyclicBarrier(2);
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                results.add(pool.submit(() -> {
                    start.await();
                    long[] counts = new long[predicates.size()];
                    long rows = 0;
                    try (Scan scan = file.scan()) {
                        for (Chunk c : scan) {
                            try (c) {
                                checkChunk(f, c);
                                for (int k = 0; k < counts.length; k++) {
                                    counts[k] += Compute.count(c, predicates.get(k));
                                }
                                rows += c.length();
                            }
                        }
                    }
                    assertEquals(f.s.size(), rows);
                    return counts;
                }));
            }
            for (Future<long[]> r : results) {
                assertArrayEquals(want, get(r));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Two threads reading the same chunks (columns, values, selections) at once. */
    @Test
    public void twoThreadsSharingChunksAgree() throws Exception {
        Fixtures.DictFile f = Fixtures.flatDict();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan()) {
            for (Chunk c : scan) {
                try (c) {
                    CyclicBarrier start = new CyclicBarrier(2);
                    Callable<Integer> work = () -> {
                        start.await();
                        checkChunk(f, c);
                        return Compute.count(c, Predicate.or(Predicate.eq("s", "AAPL"), Predicate.isNull("s")));
                    };
                    Future<Integer> a = pool.submit(work);
                    Future<Integer> b = pool.submit(work);
                    int want = 0;
                    for (int i = 0; i < c.length(); i++) {
                        String s = f.s.get((int) c.firstRow() + i);
                        want += s == null || s.equals("AAPL") ? 1 : 0;
                    }
                    assertEquals(want, (int) get(a));
                    assertEquals(want, (int) get(b));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static <T> T get(Future<T> f) throws Exception {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error) {
                throw (Error) e.getCause();
            }
            throw (Exception) e.getCause();
        }
    }

    private static void assertArrayEquals(long[] want, long[] got) {
        org.junit.Assert.assertArrayEquals(want, got);
        assertFalse(want.length == 0);
    }
}
