package io.vortex4j.reader.compute;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.oracle.ReferenceScan;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.After;
import org.junit.Test;

/**
 * LIKE / NOT LIKE / ILIKE leaves on files Rust wrote (null codes, null dictionary slots,
 * non-ASCII, the empty string, values full of wildcards and regex metacharacters, dictionaries
 * larger than their chunk, a shared FSST dictionary): the native dictionary kernel, the native
 * whole-column path, the per-entry Java path and the generic row path all select exactly the
 * rows of vortex's own filtered scan (its like/not_like/ilike expressions) and of an independent
 * oracle (java.util.regex built from the pattern).
 */
public class LikeCrossCheckTest {
    @After
    public void restore() {
        PredicateEvaluator.setDictFilterEnabled(true);
    }

    /** Every pattern shape: prefix, suffix, infix, _, escapes, %, empty, metacharacters, long. */
    static List<Predicate.Like> patterns() {
        Object[][] shapes = {
            {"A%", null}, {"AA%", null}, {"w0%", null}, {"%L", null}, {"%h", null}, {"%A%", null},
            {"%ü%", null}, {"%ri%", null}, {"_", null}, {"__", null}, {"A_P_", null}, {"Z_rich", null},
            {"%", null}, {"%%", null}, {"", null}, {"100!%", '!'}, {"snake!_case", '!'}, {"snake_case", null},
            {"back\\slash", null}, {"back\\\\slash", '\\'}, {"!%", '!'}, {"!_", '!'}, {"\\%", '\\'},
            {"%\\_%", '\\'}, {"%!!%", '!'}, {"a.b", null}, {"a*b", null}, {"a+b?", null}, {"[x]", null},
            {"(y)", null}, {"{z}", null}, {"p|q", null}, {"^s$", null}, {"%.%", null}, {"%*%", null},
            {"_.*", null}, {"%$", null}, {"^%", null}, {"AAPL%AAPL%", null},
            {"a pattern longer than every value in the file", null}, {"東%", null}, {"%🎉%", null},
            {"_party", null}, {"Ω", null}, {"\uE000%", null}, {"%%%_", '%'},
        };
        List<Predicate.Like> out = new ArrayList<>();
        for (Object[] s : shapes) {
            for (boolean negated : new boolean[] {false, true}) {
                out.add(new Predicate.Like("s", (String) s[0], (Character) s[1], false, negated));
            }
        }
        for (String p : new String[] {"aapl", "A%l", "%IB_", "Z%", "%ÜRICH", "ÉCLAIR", "%_CASE"}) {
            out.add(new Predicate.Like("s", p, null, true, false));
            out.add(new Predicate.Like("s", p, null, true, true));
        }
        return out;
    }

    /** The oracle: the pattern as a regex, on the values Rust generated. */
    static long[] oracle(Fixtures.DictFile f, Predicate.Like like) {
        Pattern regex = LikeAndComputedTest.regex(like.pattern(), like.escape(), like.caseInsensitive());
        List<Long> rows = new ArrayList<>();
        for (int r = 0; r < f.s.size(); r++) {
            String v = f.s.get(r);
            if (v != null && regex.matcher(v).matches() != like.negated()) {
                rows.add((long) r);
            }
        }
        return rows.stream().mapToLong(Long::longValue).toArray();
    }

    private static void crossCheck(Fixtures.DictFile f, List<Predicate.Like> likes) {
        try (VortexFile file = VortexFile.open(f.path)) {
            for (Predicate.Like like : likes) {
                long[] want = oracle(f, like);
                assertArrayEquals("vortex's filtered scan: " + like, want, ReferenceScan.selectedRows(file, like));
                PredicateEvaluator.setDictFilterEnabled(true);
                assertArrayEquals("native: " + like, want, DictFilterCrossCheckTest.javaRows(file, like));
                PredicateEvaluator.setDictFilterEnabled(false);
                assertArrayEquals("row path: " + like, want, DictFilterCrossCheckTest.javaRows(file, like));
                PredicateEvaluator.setDictFilterEnabled(true);
            }
        }
    }

    @Test
    public void everyShapeOnTheFlatFixture() {
        crossCheck(Fixtures.flatDict(), patterns());
    }

    @Test
    public void everyShapeOnTheSharedFsstDictionary() {
        crossCheck(Fixtures.sharedDict(), patterns());
    }

    @Test
    public void randomPatterns() {
        String alphabet = "AaPL%_!\\.*ü東🎉01z";
        Random r = new Random(88);
        List<Predicate.Like> likes = new ArrayList<>();
        while (likes.size() < 150) {
            StringBuilder sb = new StringBuilder();
            for (int n = r.nextInt(6); n > 0; n--) {
                int at = r.nextInt(alphabet.length());
                sb.appendCodePoint(alphabet.codePointAt(Character.isLowSurrogate(alphabet.charAt(at)) ? at - 1 : at));
            }
            Character escape = new Character[] {null, '!', '\\'}[r.nextInt(3)];
            try {
                likes.add(new Predicate.Like("s", sb.toString(), escape, r.nextInt(5) == 0, r.nextBoolean()));
            } catch (IllegalArgumentException dangling) {
                // SQL rejects it; so does the reader (LikeAndComputedTest)
            }
        }
        crossCheck(Fixtures.flatDict(), likes);
    }

    /**
     * Which path answers: LIKE by the dictionary kernel (or vortex's like on the whole column where
     * the dictionary is larger than the chunk); ILIKE on dictionaries with non-ASCII entries is
     * declined natively and answered by the reader's matcher once per entry.
     */
    @Test
    public void likeIsNativeIlikeOnNonAsciiIsNot() {
        Fixtures.DictFile f = Fixtures.flatDict();
        Predicate like = Predicate.like("s", "%A%");
        Predicate ilike = new Predicate.Like("s", "%a%", null, true, false);
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan("s")) {
            for (Chunk c : scan) {
                try (c) {
                    boolean larger = c.index() % 4 == 3;
                    assertEquals("chunk " + c.index(), List.of(larger ? LeafPath.COMPUTE : LeafPath.DICTIONARY),
                            PredicateEvaluator.leafPaths(c, like));
                    // Every dictionary of the fixture holds non-ASCII words.
                    assertEquals("chunk " + c.index(), List.of(LeafPath.DECLINED), PredicateEvaluator.leafPaths(c, ilike));
                    int n = 0;
                    for (int i = 0; i < c.length(); i++) {
                        String v = f.s.get((int) c.firstRow() + i);
                        n += v != null && v.toLowerCase().contains("a") ? 1 : 0;
                    }
                    assertEquals(n, Compute.count(c, ilike));
                }
            }
        }
    }

    /** ILIKE on a dictionary of ASCII words is native (vortex's ilike on the entries) and exact. */
    @Test
    public void ilikeOnAsciiDictionariesIsNative() {
        Path p = Fixtures.tempDir().resolve("ascii.vortex");
        String[] words = {"AAPL", "aapl", "Msft", "ibm", "IBM_x", "a%b", "", null, "Zz", "q.e.d"};
        int rows = 20_000;
        String[] values = new String[rows];
        for (int i = 0; i < rows; i++) {
            values[i] = words[(i * 7 + i / 3) % words.length];
        }
        Schema schema = Schema.of(new Field("s", DataType.UTF8, true));
        try (VortexWriter w = VortexWriter.create(p, schema)) {
            w.write(new Batch(schema, rows).set("s", values));
            w.finish();
        }
        Fixtures.DictFile f = new Fixtures.DictFile(p, values);
        List<Predicate.Like> likes = new ArrayList<>();
        for (String pattern : new String[] {"aapl", "A%", "%B%", "ibm!_%", "_SF_", "%", "Q.E.D", "a!%b"}) {
            likes.add(new Predicate.Like("s", pattern, '!', true, false));
            likes.add(new Predicate.Like("s", pattern, '!', true, true));
        }
        crossCheck(f, likes);
        try (VortexFile file = VortexFile.open(p); Scan scan = file.scan("s")) {
            for (Chunk c : scan) {
                try (c) {
                    assertNotNull("the writer dictionary-encodes these words", c.dictionary(0));
                    assertEquals(List.of(LeafPath.DICTIONARY), PredicateEvaluator.leafPaths(c, likes.get(0)));
                }
            }
        }
    }

    /**
     * Where vortex's case folding (Unicode simple folding) and the reader's (toLowerCase of
     * toUpperCase) differ, the reader gives its own answer on every path, never vortex's.
     */
    @Test
    public void ilikeKeepsTheReadersFoldingWhereVortexDiffers() {
        Path p = Fixtures.tempDir().resolve("fold.vortex");
        String[] values = {"İstanbul", "istanbul", "Istanbul", "\u212Aelvin", "kelvin", "ſun", "sun", "ß", "SS", null};
        Schema schema = Schema.of(new Field("s", DataType.UTF8, true));
        try (VortexWriter w = VortexWriter.create(p, schema)) {
            w.write(new Batch(schema, values.length).set("s", values));
            w.finish();
        }
        try (VortexFile file = VortexFile.open(p)) {
            for (String pattern : new String[] {"i%", "%ELVIN", "S_N", "ss", "ß"}) {
                Predicate.Like ilike = new Predicate.Like("s", pattern, null, true, false);
                List<Long> want = new ArrayList<>();
                for (int r = 0; r < values.length; r++) {
                    if (values[r] != null && ilike.matches(values[r])) {
                        want.add((long) r);
                    }
                }
                long[] expected = want.stream().mapToLong(Long::longValue).toArray();
                assertArrayEquals(pattern, expected, DictFilterCrossCheckTest.javaRows(file, ilike));
                PredicateEvaluator.setDictFilterEnabled(false);
                assertArrayEquals(pattern, expected, DictFilterCrossCheckTest.javaRows(file, ilike));
                PredicateEvaluator.setDictFilterEnabled(true);
            }
            // The reader folds İ to i; vortex's ILIKE does not (which is why it is not used here).
            Predicate.Like i = new Predicate.Like("s", "i%", null, true, false);
            assertTrue(i.matches("İstanbul"));
            assertNotEquals(DictFilterCrossCheckTest.javaRows(file, i).length, ReferenceScan.selectedRows(file, i).length);
        }
    }
}
