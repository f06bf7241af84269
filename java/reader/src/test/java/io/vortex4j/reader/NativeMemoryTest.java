package io.vortex4j.reader;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.VortexException;
import io.vortex4j.reader.array.Int64Array;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Native memory is bounded and visible: {@link NativeMemory#liveBytes()} follows what chunks
 * hold, and chunks, scans and files left to the garbage collector in a small heap neither grow
 * the process without bound nor keep file descriptors ({@link UnclosedChunks}, in child JVMs).
 */
public class NativeMemoryTest {
    private static Path trades;

    @BeforeClass
    public static void writeSample() {
        trades = Fixtures.tempDir().resolve("trades.vortex");
        io.vortex4j.cli.sample.Trades.write(trades, 400_000, 1, null);
    }

    @Test
    public void liveBytesFollowChunks() {
        // The counter is global: the Cleaner may free other tests' dropped chunks meanwhile, so
        // the steps are measured up to five times, each with the same bounds.
        String last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            last = measureOneChunk();
            if (last == null) {
                return;
            }
        }
        fail(last);
    }

    /** Null when reading a chunk raised live bytes by its values and closing it lowered them as much, else why not. */
    private static String measureOneChunk() {
        try (VortexFile file = VortexFile.open(trades); Scan scan = file.scan("volume")) {
            Chunk first = scan.next();
            first.close();
            long before = NativeMemory.liveBytes();
            Chunk c = scan.next();
            Int64Array volume = (Int64Array) c.column(0);
            long holding = NativeMemory.liveBytes();
            c.close();
            long after = NativeMemory.liveBytes();
            // At least the exported values: 8 bytes a row, both ways.
            long values = 8L * volume.length();
            if (holding - before < values || holding - after < values) {
                return before + " -> " + holding + " -> " + after + " for " + values + " bytes of values";
            }
            return null;
        }
    }

    @Test
    public void theLimitIsParsed() {
        assertEquals(512L << 20, NativeMemory.parseLimit("512m"));
        assertEquals(2L << 30, NativeMemory.parseLimit(" 2G "));
        assertEquals(4096, NativeMemory.parseLimit("4k"));
        assertEquals(12345, NativeMemory.parseLimit("12345"));
        assertEquals(Math.max(1L << 30, Runtime.getRuntime().maxMemory()), NativeMemory.parseLimit(null));
        for (String bad : List.of("0", "-5m", "lots", "9999999999g", "m")) {
            try {
                NativeMemory.parseLimit(bad);
                fail(bad);
            } catch (VortexException e) {
                assertTrue(e.getMessage(), e.getMessage().contains(NativeMemory.LIMIT_PROPERTY));
            }
        }
    }

    /** 1,000+ chunks left unclosed in a 128 MB heap: the process stays under 2 GB resident. */
    @Test
    public void unclosedChunksInASmallHeapStayBounded() throws Exception {
        Map<String, Long> r = unclosed(1500, List.of("-Xmx128m"));
        assertTrue(r.toString(), r.get("peak-rss-mb") < 2048);
        assertReleased(r);
    }

    /** With a low limit the bound follows it. */
    @Test
    public void theLimitBoundsNativeMemory() throws Exception {
        Map<String, Long> r = unclosed(1500, List.of("-Xmx128m", "-D" + NativeMemory.LIMIT_PROPERTY + "=192m"));
        assertEquals(r.toString(), 192L << 20, (long) r.get("limit"));
        assertTrue(r.toString(), r.get("peak-rss-mb") < 700);
        assertReleased(r);
    }

    /** Everything dropped is released after a collection: descriptors and native bytes. */
    private static void assertReleased(Map<String, Long> r) {
        assertTrue(r.toString(), r.get("fds-after") <= r.get("fds-before"));
        assertTrue(r.toString(), r.get("live-after") <= r.get("live-before") + (16 << 20));
    }

    private static Map<String, Long> unclosed(int cycles, List<String> options) throws Exception {
        ChildJvm.Result r = ChildJvm.run(UnclosedChunks.class, options, Map.of(), 120, trades.toString(),
                Integer.toString(cycles));
        assertFalse(r.toString(), r.timedOut());
        assertEquals(r.toString(), 0, r.exit());
        String line = r.last("peak-rss-mb=");
        assertNotNull(r.toString(), line);
        System.out.println("unclosed chunks " + options + ": " + line);
        Map<String, Long> values = new java.util.HashMap<>();
        Matcher m = Pattern.compile("([a-z-]+)=(-?\\d+)").matcher(line);
        while (m.find()) {
            values.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return values;
    }
}
