package io.vortex4j.cli.sample;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * The sample {@code trades} table: {@code ts} i64 (microseconds since the epoch, increasing),
 * {@code sym} utf8 (100 ticker symbols with Zipf-like popularity, about 5% null), {@code price}
 * f64 (a random walk per symbol) and {@code volume} i64. Deterministic for a given seed.
 *
 * <p>Written with the reference writer's default strategy, so {@code sym} becomes a dictionary.
 */
public final class Trades {
    /** The table's columns. */
    public static final Schema SCHEMA = Schema.of(
            new Field("ts", DataType.INT64, false),
            new Field("sym", DataType.UTF8, true),
            new Field("price", DataType.FLOAT64, false),
            new Field("volume", DataType.INT64, false));

    /** The ticker symbols, most popular first. */
    public static final String[] SYMBOLS = {
        "AAPL", "MSFT", "NVDA", "AMZN", "GOOG", "META", "TSLA", "AVGO", "BRK.B", "JPM",
        "LLY", "V", "UNH", "XOM", "MA", "JNJ", "PG", "HD", "COST", "ABBV",
        "MRK", "ORCL", "CVX", "CRM", "BAC", "KO", "NFLX", "PEP", "AMD", "ADBE",
        "WMT", "TMO", "LIN", "MCD", "ACN", "CSCO", "ABT", "DIS", "WFC", "INTU",
        "DHR", "QCOM", "TXN", "VZ", "CAT", "AMGN", "IBM", "PFE", "NOW", "PM",
        "GE", "UNP", "CMCSA", "SPGI", "ISRG", "NEE", "HON", "AMAT", "RTX", "LOW",
        "UBER", "COP", "GS", "BKNG", "T", "PLD", "ELV", "BLK", "SYK", "MS",
        "TJX", "MDT", "AXP", "SCHW", "C", "VRTX", "LRCX", "ADP", "PGR", "REGN",
        "MMC", "ETN", "CB", "BSX", "ADI", "SBUX", "MU", "DE", "GILD", "BMY",
        "ZTS", "PANW", "CI", "FI", "SO", "KLAC", "MDLZ", "SNPS", "ANET", "SHOP"
    };

    /** Fraction of rows whose symbol is null. */
    public static final double NULL_FRACTION = 0.05;
    /** Zipf exponent of symbol popularity. */
    public static final double ZIPF_EXPONENT = 1.1;
    /** Rows per written batch. */
    public static final int BATCH_ROWS = 1 << 16;

    private Trades() {}

    /** The rows of the Vortex file {@code path}, or -1 when it is missing or unreadable (to be written again). */
    public static long rowsIn(Path path) {
        if (!Files.isRegularFile(path)) {
            return -1;
        }
        try (VortexFile f = VortexFile.open(path)) {
            return f.rowCount();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * Writes {@code rows} rows to {@code path}; {@code progress} (may be null) receives the
     * number of rows written after each batch. Returns the file size in bytes.
     */
    public static long write(Path path, long rows, long seed, LongConsumer progress) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] cdf = zipfCdf(SYMBOLS.length, ZIPF_EXPONENT);
        double[] walk = new double[SYMBOLS.length];
        for (int s = 0; s < walk.length; s++) {
            walk[s] = 20 + random.nextDouble() * 480;
        }
        long ts = 1_767_225_600_000_000L; // 2026-01-01T00:00:00Z in microseconds
        try (VortexWriter writer = VortexWriter.create(path, SCHEMA)) {
            long written = 0;
            while (written < rows) {
                int n = (int) Math.min(BATCH_ROWS, rows - written);
                long[] tsCol = new long[n];
                String[] symCol = new String[n];
                double[] priceCol = new double[n];
                long[] volumeCol = new long[n];
                for (int i = 0; i < n; i++) {
                    ts += 1 + random.nextInt(2_000);
                    tsCol[i] = ts;
                    int s = pick(cdf, random.nextDouble());
                    walk[s] = Math.max(1, walk[s] * (1 + (random.nextDouble() - 0.5) * 0.002));
                    priceCol[i] = Math.round(walk[s] * 100) / 100.0;
                    symCol[i] = random.nextDouble() < NULL_FRACTION ? null : SYMBOLS[s];
                    volumeCol[i] = 1 + (long) (-Math.log(1 - random.nextDouble()) * 300);
                }
                writer.write(new Batch(SCHEMA, n)
                        .set("ts", tsCol).set("sym", symCol).set("price", priceCol).set("volume", volumeCol));
                written += n;
                if (progress != null) {
                    progress.accept(written);
                }
            }
            return writer.finish();
        }
    }

    static double[] zipfCdf(int n, double exponent) {
        double[] cdf = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += 1 / Math.pow(k + 1, exponent);
            cdf[k] = sum;
        }
        for (int k = 0; k < n; k++) {
            cdf[k] /= sum;
        }
        return cdf;
    }

    static int pick(double[] cdf, double u) {
        int lo = 0;
        int hi = cdf.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] < u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
