package io.vortex4j.bench;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.array.VarBinDictArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Nanoseconds per value of the reader's per-value accessors, the calls a Calcite row loop makes
 * millions of times: {@code Int64Array.getLong}, {@code VarBinDictArray.getCode}, {@code
 * isNull}, {@code getString} (decoded once per dictionary entry) and {@code Values.valueAt}. The
 * floor is the same loop over a plain direct {@link ByteBuffer} holding the same values (what a
 * read costs with no check at all). Chunks are held open while measured; best of N passes over
 * every chunk of the columns {@code volume} and {@code sym} of a {@code trades} file ({@code
 * --markdown}: a table of the figures, then a line naming the command and the machine; see
 * {@link Report}).
 *
 * <pre>
 * bin/bench accessor FILE [--runs N] [--markdown]
 * </pre>
 */
public final class AccessorBench {
    private AccessorBench() {}

    /** One measured loop over every row of every chunk; returns a checksum so nothing is dead code. */
    interface Loop {
        long run();
    }

    public static void main(String[] args) {
        Path path = null;
        int runs = 15;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs": runs = Integer.parseInt(args[++i]); break;
                case Report.MARKDOWN: break;
                default:
                    if (path != null || args[i].startsWith("--")) {
                        System.err.println("usage: AccessorBench FILE [--runs N] [--markdown]");
                        System.exit(2);
                    }
                    path = Paths.get(args[i]);
            }
        }
        if (path == null) {
            System.err.println("usage: AccessorBench FILE [--runs N] [--markdown]");
            System.exit(2);
        }
        Report report = new Report("bin/bench accessor", args);
        try (VortexFile file = VortexFile.open(path); Scan scan = file.scan("volume", "sym")) {
            List<Chunk> chunks = new ArrayList<>();
            List<Int64Array> volume = new ArrayList<>();
            List<VarBinDictArray> sym = new ArrayList<>();
            List<ByteBuffer> raw = new ArrayList<>();
            long rows = 0;
            for (Chunk c : scan) {
                chunks.add(c);
                Int64Array v = (Int64Array) c.column(0);
                volume.add(v);
                sym.add((VarBinDictArray) c.column(1));
                ByteBuffer copy = ByteBuffer.allocateDirect(v.length() * 8).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < v.length(); i++) {
                    copy.putLong(i << 3, v.getLong(i));
                }
                raw.add(copy);
                rows += c.length();
            }
            final long n = rows;
            if (report.markdown()) {
                report.note(String.format("%s: %,d rows in %d chunks, best of %d", path.getFileName(), n, chunks.size(), runs));
                report.header("accessor", "ns per value", "checksum");
            } else {
                System.out.printf("%s: %,d rows in %d chunks, best of %d%n", path, n, chunks.size(), runs);
            }
            measure(report, "floor: direct ByteBuffer.getLong", n, runs, () -> {
                long s = 0;
                for (ByteBuffer b : raw) {
                    int len = b.capacity() >>> 3;
                    for (int i = 0; i < len; i++) {
                        s += b.getLong(i << 3);
                    }
                }
                return s;
            });
            measure(report, "Int64Array.getLong", n, runs, () -> {
                long s = 0;
                for (Int64Array a : volume) {
                    for (int i = 0, len = a.length(); i < len; i++) {
                        s += a.getLong(i);
                    }
                }
                return s;
            });
            measure(report, "Int64Array.isNull + getLong", n, runs, () -> {
                long s = 0;
                for (Int64Array a : volume) {
                    for (int i = 0, len = a.length(); i < len; i++) {
                        if (!a.isNull(i)) {
                            s += a.getLong(i);
                        }
                    }
                }
                return s;
            });
            measure(report, "VarBinDictArray.getCode", n, runs, () -> {
                long s = 0;
                for (VarBinDictArray a : sym) {
                    for (int i = 0, len = a.length(); i < len; i++) {
                        s += a.getCode(i);
                    }
                }
                return s;
            });
            measure(report, "VarBinDictArray.getString", n, runs, () -> {
                long s = 0;
                for (VarBinDictArray a : sym) {
                    for (int i = 0, len = a.length(); i < len; i++) {
                        String v = a.getString(i);
                        s += v == null ? 0 : v.length();
                    }
                }
                return s;
            });
            measure(report, "Values.valueAt (both columns)", 2 * n, runs, () -> {
                long s = 0;
                for (int k = 0; k < chunks.size(); k++) {
                    Array v = volume.get(k);
                    Array y = sym.get(k);
                    for (int i = 0, len = v.length(); i < len; i++) {
                        Object a = Values.valueAt(v, i);
                        Object b = Values.valueAt(y, i);
                        s += (a == null ? 0 : 1) + (b == null ? 0 : 1);
                    }
                }
                return s;
            });
            chunks.forEach(Chunk::close);
        }
        report.end();
    }

    private static void measure(Report report, String name, long values, int runs, Loop loop) {
        long best = Long.MAX_VALUE;
        long check = 0;
        for (int r = 0; r < runs + 3; r++) {
            long t = System.nanoTime();
            check += loop.run();
            t = System.nanoTime() - t;
            if (r >= 3) {
                best = Math.min(best, t);
            }
        }
        if (report.markdown()) {
            report.row(name, String.format("%.3f", (double) best / values), Long.toString(check));
        } else {
            System.out.printf("%-34s %6.3f ns/value  (checksum %d)%n", name, (double) best / values, check);
        }
    }
}
