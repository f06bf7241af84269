package io.vortex4j.reader;

import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.oracle.ReferenceScan;
import io.vortex4j.reader.predicate.Predicate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import org.junit.Test;

/** Zone-map pruning skips chunks that cannot match and never changes an answer. */
public class PruningTest {
    @Test
    public void sortedColumnRangesSkipChunksWithSameAnswers() {
        Path p = Fixtures.tempDir().resolve("trades.vortex");
        io.vortex4j.cli.sample.Trades.write(p, 400_000, 11, null);
        try (VortexFile file = VortexFile.open(p)) {
            long firstTs;
            long lastTs;
            try (Scan scan = file.scan("ts")) {
                Chunk first = scan.next();
                firstTs = ((Int64Array) first.column(0)).getLong(0);
                first.close();
            }
            long[] all = ReferenceScan.selectedRows(file, Predicate.ge("ts", Long.MIN_VALUE));
            assertEquals(400_000, all.length);
            lastTs = firstTs + 50_000_000L; // ts grows by ~1000 per row: the first ~50k rows
            Predicate early = Predicate.lt("ts", lastTs);
            long want = ReferenceScan.selectedRows(file, early).length;
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
                assertEquals(ReferenceScan.selectedRows(file, sym).length, n);
            }
        }
    }

    @Test
    public void firstRowTracksSkippedRanges() {
        Path p = Fixtures.tempDir().resolve("trades2.vortex");
        io.vortex4j.cli.sample.Trades.write(p, 300_000, 12, null);
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
            long[] want = ReferenceScan.selectedRows(file, late);
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

    /**
     * A Java-function conjunct cannot cross JNI, but the rest of the filter still prunes; LIKE
     * prunes (vortex rewrites a prefix into a min/max range) and never loses a row.
     */
    @Test
    public void computedConjunctsKeepPruningAndLikePrunesExactly() {
        Path p = Fixtures.tempDir().resolve("trades3.vortex");
        io.vortex4j.cli.sample.Trades.write(p, 300_000, 13, null);
        try (VortexFile file = VortexFile.open(p)) {
            long firstTs;
            try (Scan scan = file.scan("ts")) {
                try (Chunk first = scan.next()) {
                    firstTs = ((Int64Array) first.column(0)).getLong(0);
                }
            }
            Predicate early = Predicate.lt("ts", firstTs + 30_000_000L);
            Predicate.ValueTest startsWithA = v -> v == null ? null : ((String) v).startsWith("A");
            Predicate computed = new Predicate.Computed("sym", "sym LIKE 'A%'", startsWithA, false);
            Predicate like = Predicate.like("sym", "A%");
            // vortex 0.90 prunes nothing for an AND holding a string predicate (LIKE or = alike),
            // so only the function conjuncts beside the range must still prune.
            Predicate reference = Predicate.and(early, like);
            Object[][] cases = {
                {Predicate.and(early, computed), reference, true},
                {Predicate.and(computed, early), reference, true},
                {Predicate.not(Predicate.or(Predicate.not(early), Predicate.not(computed))), reference, true},
                {Predicate.and(early, like), reference, false},
                {like, like, false},
            };
            for (Object[] c : cases) {
                Predicate filter = (Predicate) c[0];
                long want = ReferenceScan.selectedRows(file, (Predicate) c[1]).length;
                long got = 0;
                long pruned;
                try (Scan scan = file.scan(java.util.List.of("ts", "sym"), filter)) {
                    for (Chunk chunk : scan) {
                        try (chunk) {
                            got += Compute.count(chunk, filter);
                        }
                    }
                    pruned = scan.prunedRows();
                }
                assertEquals(filter.toString(), want, got);
                assertTrue(filter + " pruned " + pruned, !(Boolean) c[2] || pruned > 0);
            }
            // An OR with a branch that cannot cross prunes nothing (and still answers right).
            Predicate or = Predicate.or(early, computed);
            try (Scan scan = file.scan(java.util.List.of("ts", "sym"), or)) {
                long got = 0;
                for (Chunk c : scan) {
                    try (c) {
                        got += Compute.count(c, or);
                    }
                }
                assertEquals(0, scan.prunedRows());
                assertEquals(ReferenceScan.selectedRows(file, Predicate.or(early, like)).length, got);
            }
        }
    }
}
