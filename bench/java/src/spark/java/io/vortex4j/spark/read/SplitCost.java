package io.vortex4j.spark.read;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import java.util.List;
import java.util.function.Function;

/**
 * Benchmark (not a test, not in CI): what one split costs the reader without Spark, for {@code
 * COUNT(*) WHERE sym = 'AAPL'} over each split of the 10M-row sample, one thread, best of 7: the
 * file reopened per split ({@code VortexDataset.scanSplit}) against the executor's open files
 * ({@link OpenFiles}). Run like {@link io.vortex4j.bench.spark.SparkBench}: {@code
 * io.vortex4j.spark.read.SplitCost ~/.cache/vortex4j/bench/trades.vortex}. In the connector's
 * package, as its tests are, to reach the package-private {@link OpenFiles}.
 */
public final class SplitCost {
    private SplitCost() {}

    public static void main(String[] args) {
        String path = args.length > 0 ? args[0] : System.getProperty("user.home") + "/.cache/vortex4j/bench/trades.vortex";
        Predicate filter = Predicate.eq("sym", "AAPL");
        List<Split> splits;
        try (VortexDataset d = VortexDataset.open(path)) {
            splits = d.splits(filter);
        }
        OpenFiles files = new OpenFiles(4);
        time("reopened per split", splits, s -> VortexDataset.scanSplit(s, List.of("sym"), filter));
        time("open files kept", splits, s -> files.scan(s, List.of("sym"), filter));
        files.clear();
    }

    private static void time(String what, List<Split> splits, Function<Split, Scan> scans) {
        double best = Double.MAX_VALUE;
        long count = 0;
        for (int rep = 0; rep < 7; rep++) {
            long t0 = System.nanoTime();
            count = 0;
            for (Split s : splits) {
                try (Scan scan = scans.apply(s)) {
                    for (Chunk c : scan) {
                        try (c) {
                            count += Compute.count(c, scan.chunkFilter());
                        }
                    }
                }
            }
            best = Math.min(best, (System.nanoTime() - t0) / 1e6);
        }
        System.out.printf("%-20s %d splits, count %d: %.0f ms, %.2f ms per split%n", what, splits.size(), count, best,
                best / splits.size());
    }
}
