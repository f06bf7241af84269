package io.vortex4j.reader;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import org.junit.Test;

/** Zone-map pruning skips chunks that cannot match and never changes an answer. */
public class PruningTest {
    @Test
    public void sortedColumnRangesSkipChunksWithSameAnswers() {
        Path p = Fixtures.tempDir().resolve("trades.vortex");
        io.vortex4j.sample.Trades.write(p, 400_000, 11, null);
        try (VortexFile file = VortexFile.open(p)) {
            long firstTs;
            long lastTs;
            try (Scan scan = file.scan("ts")) {
                Chunk first = scan.next();
                firstTs = ((Int64Array) first.column(0)).getLong(0);
                first.close();
            }
            long[] all = file.referenceFilteredRows(Predicate.ge("ts", Long.MIN_VALUE));
            assertEquals(400_000, all.length);
            lastTs = firstTs + 50_000_000L; // ts grows by ~1000 per row: the first ~50k rows
            Predicate early = Predicate.lt("ts", lastTs);
            long want = file.referenceFilteredRows(early).length;
            assertTrue(want > 0 && want < 400_000);

            long got = 0;
            long rowsSeen = 0;
            long pruned;
            try (Scan scan = file.scan(java.util.List.of("ts", "sym"), early)) {
                for (Chunk c : scan) {
                    try (c) {
                        rowsSeen += c.length();
                        Bitmap sel = Compute.selection(c, early);
                        got += sel.cardinality();
                    }
                }
                pruned = scan.prunedRows();
            }
            assertEquals(want, got);
            assertTrue("zone maps skipped chunks: pruned " + pruned, pruned > 0);
            assertEquals(400_000, rowsSeen + pruned);

            // A predicate zone maps cannot decide skips nothing and loses nothing.
            Predicate sym = Predicate.eq("sym", "AAPL");
            try (Scan scan = file.scan(java.util.List.of("sym"), sym)) {
                long n = 0;
                for (Chunk c : scan) {
                    try (c) {
                        n += Compute.count(c, sym);
                    }
                }
                assertEquals(file.referenceFilteredRows(sym).length, n);
            }
        }
    }

    @Test
    public void firstRowTracksSkippedRanges() {
        Path p = Fixtures.tempDir().resolve("trades2.vortex");
        io.vortex4j.sample.Trades.write(p, 300_000, 12, null);
        try (VortexFile file = VortexFile.open(p)) {
            long lastTs;
            try (Scan scan = file.scan("ts")) {
                Chunk last = null;
                for (Chunk c : scan) {
                    if (last != null) {
                        last.close();
                    }
                    last = c;
                }
                lastTs = ((Int64Array) last.column(0)).getLong(last.length() - 1);
                last.close();
            }
            Predicate late = Predicate.gt("ts", lastTs - 10_000_000L);
            long[] want = file.referenceFilteredRows(late);
            java.util.List<Long> got = new java.util.ArrayList<>();
            try (Scan scan = file.scan(java.util.List.of("ts"), late)) {
                for (Chunk c : scan) {
                    try (c) {
                        Bitmap sel = Compute.selection(c, late);
                        for (int i = sel.nextSetBit(0); i >= 0; i = sel.nextSetBit(i + 1)) {
                            got.add(c.firstRow() + i);
                        }
                    }
                }
                assertTrue(scan.prunedRows() > 0);
            }
            assertEquals(want.length, got.size());
            for (int i = 0; i < want.length; i++) {
                assertEquals(want[i], (long) got.get(i));
            }
        }
    }
}
