package io.vortex4j.tpch;

import java.util.Arrays;
import java.util.List;

/**
 * A query timed on several contenders (engines, catalogs): one untimed run on each, whose answer
 * is kept for comparison, then {@code runs} rounds taking the contenders in turn, so that a busy
 * moment of the machine falls on all of them. A contender whose query fails is out of the rounds,
 * its outcome the failure.
 */
public final class TpchRounds {
    private TpchRounds() {}

    /** One run of the query on one contender. */
    @FunctionalInterface
    public interface Run {
        TpchAnswer answer() throws Exception;
    }

    /**
     * What one contender did: the first run's answer and time and the best time of the rounds, or
     * the failure and how long the failed run took.
     */
    public record Outcome(TpchAnswer answer, double firstMs, double bestMs, Exception failure, double failedAfterS) {
        public boolean ok() {
            return failure == null;
        }
    }

    public static Outcome[] time(List<Run> contenders, int runs) {
        int n = contenders.size();
        TpchAnswer[] answers = new TpchAnswer[n];
        double[] first = new double[n];
        double[] best = new double[n];
        double[] failedAfter = new double[n];
        Exception[] failures = new Exception[n];
        Arrays.fill(first, Double.NaN);
        Arrays.fill(best, Double.MAX_VALUE);
        for (int r = -1; r < runs; r++) {
            for (int k = 0; k < n; k++) {
                if (failures[k] != null) {
                    continue;
                }
                long t0 = System.nanoTime();
                try {
                    TpchAnswer a = contenders.get(k).answer();
                    double ms = (System.nanoTime() - t0) / 1e6;
                    if (r < 0) {
                        answers[k] = a;
                        first[k] = ms;
                    } else {
                        best[k] = Math.min(best[k], ms);
                    }
                } catch (Exception e) {
                    failures[k] = e;
                    failedAfter[k] = (System.nanoTime() - t0) / 1e9;
                }
            }
        }
        Outcome[] out = new Outcome[n];
        for (int k = 0; k < n; k++) {
            out[k] = new Outcome(answers[k], first[k], best[k], failures[k], failedAfter[k]);
        }
        return out;
    }
}
