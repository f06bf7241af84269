package io.vortex4j.reader;

import io.vortex4j.cli.sample.Trades;
import io.vortex4j.reader.array.Array;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The harness of {@link NativeMemoryTest}, run in a child JVM with a small heap: {@code CYCLES}
 * times, opens the file, starts a scan, reads the first chunk's columns and drops all three
 * without closing them. Prints the peak resident memory ({@code VmRSS}, sampled) and, after a
 * garbage collection, the open descriptors of Vortex files and live native bytes against their values
 * before the loop:
 * {@code peak-rss-mb=P fds-before=A fds-after=B live-before=L0 live-after=L1}.
 *
 * <pre>java -Xmx128m ... io.vortex4j.reader.UnclosedChunks FILE CYCLES</pre>
 */
public final class UnclosedChunks {
    private UnclosedChunks() {}

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        int cycles = Integer.parseInt(args[1]);
        if (!Files.exists(path)) {
            Trades.write(path, 400_000, 1, null);
        }
        // Warm up: load the library, fill the dictionary cache, then measure from here.
        readFirstChunk(path);
        System.gc();
        long fdsBefore = openFiles();
        long liveBefore = NativeMemory.liveBytes();
        long peak = 0;
        long sum = 0;
        for (int i = 0; i < cycles; i++) {
            sum += readFirstChunk(path);
            if (i % 20 == 0) {
                peak = Math.max(peak, residentKb());
            }
        }
        peak = Math.max(peak, residentKb());
        long fdsAfter = -1;
        long liveAfter = -1;
        // Up to 20 s: on a loaded machine the Cleaner thread may lag the collections.
        for (int attempt = 0; attempt < 200; attempt++) {
            System.gc();
            Thread.sleep(100);
            fdsAfter = openFiles();
            liveAfter = NativeMemory.liveBytes();
            if (fdsAfter <= fdsBefore && liveAfter <= liveBefore + (16 << 20)) {
                break;
            }
        }
        System.out.println("peak-rss-mb=" + peak / 1024 + " fds-before=" + fdsBefore + " fds-after=" + fdsAfter
                + " live-before=" + liveBefore + " live-after=" + liveAfter + " limit=" + NativeMemory.limit()
                + " checksum=" + sum);
    }

    /** Opens, scans and reads the first chunk of {@code path}, closing nothing. */
    private static long readFirstChunk(Path path) {
        VortexFile file = VortexFile.open(path);
        Scan scan = file.scan();
        Chunk chunk = scan.next();
        long sum = 0;
        for (int col = 0; col < chunk.schema().size(); col++) {
            Array a = chunk.column(col);
            for (int i = 0; i < a.length(); i += 1000) {
                sum += a.isNull(i) ? 0 : 1;
            }
        }
        return sum;
    }

    private static long residentKb() throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    /** Open descriptors of Vortex files (others, e.g. jars the JVM opens lazily, do not count). */
    private static long openFiles() {
        File[] fds = new File("/proc/self/fd").listFiles();
        if (fds == null) {
            return -1;
        }
        long n = 0;
        for (File fd : fds) {
            try {
                n += Files.readSymbolicLink(fd.toPath()).toString().endsWith(".vortex") ? 1 : 0;
            } catch (java.io.IOException e) {
                // closed while listed
            }
        }
        return n;
    }
}
