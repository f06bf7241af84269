package io.vortex4j.reader;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * A seeded whole-file fuzz ({@link CorruptFileFuzz}) in child JVMs: 500 damaged variants of a
 * small file vortex's writer wrote, read through every path. No variant crashes the JVM or hangs
 * (each child has a deadline and names the variant it is on), and every failure is a {@link
 * io.vortex4j.VortexException} (or {@link UnsupportedOperationException} for an unreadable dtype).
 * What vortex 0.90 cannot detect reads back different values: the figures are printed, see {@code
 * docs/integrity.md}.
 */
public class CorruptFileFuzzTest {
    private static final long SEED = 20260;
    private static final int VARIANTS = 500;
    private static final int PER_CHILD = 250;

    @Test
    public void damagedFilesReadOrFailWithTypedErrors() throws Exception {
        for (int from = 0; from < VARIANTS; from += PER_CHILD) {
            ChildJvm.Result r = ChildJvm.run(CorruptFileFuzz.class, List.of("-Xmx512m"), Map.of(), 120,
                    Long.toString(SEED), Integer.toString(from), Integer.toString(from + PER_CHILD));
            String where = "last started: " + r.last("variant ") + "\n" + r;
            assertFalse("hung; " + where, r.timedOut());
            assertEquals("crashed or untyped errors; " + where, 0, r.exit());
            String summary = r.last("summary ");
            assertNotNull(where, summary);
            System.out.println("corrupt-file fuzz " + from + ".." + (from + PER_CHILD) + ": " + summary);
            assertTrue(summary, summary.contains("variants=" + PER_CHILD + " ") && summary.contains("untyped=0"));
        }
    }
}
