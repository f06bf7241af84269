package io.vortex4j.reader;

import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.predicate.Predicate;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The harness of {@link CloseRaceTest}, run in a child JVM: chunks, scans and files closed by
 * one thread while another reads them, over and over. A read may return the right value or
 * throw {@link IllegalStateException}; anything else (a wrong value, another exception, a crash)
 * is a failure. Prints {@code races=N failures=F} and exits 0 when F is 0.
 *
 * <pre>java ... io.vortex4j.reader.CloseRace SECONDS</pre>
 */
public final class CloseRace {
    private CloseRace() {}

    private static final AtomicReference<String> FAILURE = new AtomicReference<>();
    private static long races;
    private static long interrupted;

    public static void main(String[] args) throws Exception {
        long deadline = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        SplittableRandom random = new SplittableRandom(9);
        List<Fixtures.DictFile> files = List.of(Fixtures.flatDict(), Fixtures.referenceDict());
        int round = 0;
        while (System.nanoTime() < deadline && FAILURE.get() == null) {
            Fixtures.DictFile f = files.get(round & 1);
            switch (round++ % 3) {
                case 0 -> chunkClosedWhileRead(f, random);
                case 1 -> scanClosedWhileIterated(f, random);
                default -> fileClosedWhileScanned(f, random);
            }
        }
        System.out.println("races=" + races + " reads-stopped-by-close=" + interrupted
                + " failures=" + (FAILURE.get() == null ? 0 : 1));
        if (FAILURE.get() != null) {
            System.out.println("FAILURE " + FAILURE.get());
            System.exit(3);
        }
    }

    /** Every column of every chunk read on another thread while this one closes the chunk. */
    private static void chunkClosedWhileRead(Fixtures.DictFile f, SplittableRandom random) throws Exception {
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan()) {
            for (Chunk c : scan) {
                // Export some columns before the race, let the reader export the rest during it.
                if (random.nextBoolean()) {
                    c.column("s");
                }
                Thread reader = new Thread(() -> readUntilClosed(f, c), "reader");
                reader.start();
                LockSupport.parkNanos(random.nextLong(300_000));
                c.close();
                reader.join();
                races++;
            }
        }
    }

    private static void readUntilClosed(Fixtures.DictFile f, Chunk c) {
        try {
            for (int pass = 0; pass < 50; pass++) {
                Int64Array id = (Int64Array) c.column("id");
                Array s = c.column("s");
                Array v = c.column("v");
                for (int i = 0; i < id.length(); i++) {
                    long row = c.firstRow() + i;
                    check(id.getLong(i) == row, "id of row " + row + " read " + id.getLong(i));
                    String want = f.s.get((int) row);
                    Object got = Values.valueAt(s, i);
                    check(java.util.Objects.equals(want, got), "s of row " + row + ": want " + want + ", read " + got);
                    if (s instanceof VarBinDictArray d && !d.isCodeNull(i)) {
                        check(java.util.Objects.equals(want, d.dictionary().getString(d.getCode(i))),
                                "dictionary entry of row " + row);
                    }
                    v.isNull(i);
                    Values.valueAt(v, i);
                }
                Compute.count(c, Predicate.eq("s", "AAPL"));
            }
        } catch (IllegalStateException e) {
            interrupted++;
            check(e.getMessage().contains("closed"), "unexpected IllegalStateException: " + e.getMessage());
        } catch (Throwable t) {
            fail(t);
        }
    }

    /** A scan iterated (chunks read and closed) on another thread while this one closes the scan. */
    private static void scanClosedWhileIterated(Fixtures.DictFile f, SplittableRandom random) throws Exception {
        try (VortexFile file = VortexFile.open(f.path)) {
            Scan scan = file.scan("id", "s");
            Thread reader = new Thread(() -> {
                try {
                    while (scan.hasNext()) {
                        try (Chunk c = scan.next()) {
                            Int64Array id = (Int64Array) c.column(0);
                            check(id.getLong(id.length() - 1) == c.firstRow() + id.length() - 1, "last id");
                            Values.valueAt(c.column(1), 0);
                        }
                    }
                } catch (IllegalStateException e) {
                    interrupted++;
                } catch (Throwable t) {
                    fail(t);
                }
            }, "scanner");
            reader.start();
            LockSupport.parkNanos(random.nextLong(2_000_000));
            scan.close();
            reader.join();
            races++;
        }
    }

    /** Scans started on another thread while this one closes their file: they keep working. */
    private static void fileClosedWhileScanned(Fixtures.DictFile f, SplittableRandom random) throws Exception {
        VortexFile file = VortexFile.open(f.path);
        Thread reader = new Thread(() -> {
            try {
                for (int k = 0; k < 20; k++) {
                    try (Scan scan = file.scan("id")) {
                        long rows = 0;
                        for (Chunk c : scan) {
                            try (c) {
                                rows += c.length();
                            }
                        }
                        check(rows == f.s.size(), "a scan of a closed file read " + rows + " rows");
                    }
                }
            } catch (IllegalStateException e) {
                interrupted++; // file.scan() after the close
            } catch (Throwable t) {
                fail(t);
            }
        }, "file-scanner");
        reader.start();
        LockSupport.parkNanos(random.nextLong(2_000_000));
        file.close();
        reader.join();
        races++;
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    private static void fail(Throwable t) {
        java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        FAILURE.compareAndSet(null, w.toString());
    }
}
