package io.vortex4j.reader.compute;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DictFixture;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.oracle.ReferenceScan;
import io.vortex4j.reader.predicate.Predicate;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.After;
import org.junit.Test;

/**
 * The Java answer for every kind of leaf on a dictionary-encoded string column equals Rust's
 * filtered scan (vortex's own scan with the predicate as filter expression), on files Rust wrote
 * with null codes, null dictionary slots, u8/u16/u32 codes and dictionaries larger than a chunk;
 * and the dictionary path, the generic row path and the reference all agree.
 */
public class DictFilterCrossCheckTest {
    @After
    public void restore() {
        PredicateEvaluator.setDictFilterEnabled(true);
    }

    static List<Predicate> leaves() {
        List<Predicate> out = new ArrayList<>();
        String[] literals = {"AAPL", "AAPLZ", "", "A", "Zürich", "zurich", "東京", "🎉party", "\uE000private",
            "absent", "z", "zz", "Ω"};
        for (String lit : literals) {
            for (Predicate.Op op : Predicate.Op.values()) {
                out.add(new Predicate.Compare("s", op, lit));
            }
        }
        out.add(Predicate.eq("s", null));
        out.add(Predicate.between("s", "AB", "MSFTX"));
        out.add(Predicate.between("s", "z", "a"));
        out.add(Predicate.between("s", "", "\uDBFF\uDFFF"));
        out.add(Predicate.between("s", "Zürich", "東京"));
        out.add(Predicate.in("s", "AAPL", "absent", "Zürich", "🎉party"));
        out.add(Predicate.notIn("s", "AAPL", "absent", "Zürich", "🎉party"));
        out.add(Predicate.in("s"));
        out.add(Predicate.notIn("s"));
        out.add(Predicate.in("s", "IBM", null));
        out.add(Predicate.notIn("s", "IBM", null));
        out.add(Predicate.in("s", "absent", "also absent"));
        out.add(Predicate.isNull("s"));
        out.add(Predicate.isNotNull("s"));
        out.add(Predicate.not(Predicate.eq("s", "AAPL")));
        out.add(Predicate.or(Predicate.eq("s", "AAPL"), Predicate.isNull("s"), Predicate.gt("s", "z")));
        out.add(Predicate.and(Predicate.ge("s", "A"), Predicate.not(Predicate.in("s", "AAPL", "AMZN"))));
        return out;
    }

    /** The selected file rows, computed chunk by chunk with Compute.selection. */
    static long[] javaRows(VortexFile file, Predicate p) {
        List<Long> rows = new ArrayList<>();
        try (Scan scan = file.scan("s")) {
            for (Chunk c : scan) {
                try (c) {
                    Bitmap sel = Compute.selection(c, p);
                    for (int i = sel.nextSetBit(0); i >= 0; i = sel.nextSetBit(i + 1)) {
                        assertTrue(Compute.matches(c, p, i));
                        rows.add(c.firstRow() + i);
                    }
                }
            }
        }
        return rows.stream().mapToLong(Long::longValue).toArray();
    }

    private static void crossCheck(Fixtures.DictFile f) {
        try (VortexFile file = VortexFile.open(f.path)) {
            for (Predicate p : leaves()) {
                long[] reference = ReferenceScan.selectedRows(file, p);
                PredicateEvaluator.setDictFilterEnabled(true);
                assertArrayEquals("dict path: " + p, reference, javaRows(file, p));
                PredicateEvaluator.setDictFilterEnabled(false);
                assertArrayEquals("row path: " + p, reference, javaRows(file, p));
            }
        }
    }

    @Test
    public void flatFixtureEveryLeafMatchesRustsFilteredScan() {
        crossCheck(Fixtures.flatDict());
    }

    @Test
    public void referenceStrategyFixtureEveryLeafMatchesRustsFilteredScan() {
        crossCheck(Fixtures.referenceDict());
    }

    /** The Rust-generated values give a third, independent answer for a few leaves. */
    @Test
    public void referenceAgreesWithTheGeneratedValues() {
        Fixtures.DictFile f = Fixtures.flatDict();
        try (VortexFile file = VortexFile.open(f.path)) {
            long[] aapl = ReferenceScan.selectedRows(file, Predicate.eq("s", "AAPL"));
            long[] nulls = ReferenceScan.selectedRows(file, Predicate.isNull("s"));
            List<Long> wantAapl = new ArrayList<>();
            List<Long> wantNulls = new ArrayList<>();
            for (int r = 0; r < f.s.size(); r++) {
                if ("AAPL".equals(f.s.get(r))) {
                    wantAapl.add((long) r);
                }
                if (f.s.get(r) == null) {
                    wantNulls.add((long) r);
                }
            }
            assertArrayEquals(wantAapl.stream().mapToLong(Long::longValue).toArray(), aapl);
            assertArrayEquals(wantNulls.stream().mapToLong(Long::longValue).toArray(), nulls);
            assertTrue("the fixture has null rows", nulls.length > 0);
        }
    }

    /** Chunk shapes of the flat fixture: chunk % 4 == 3 has a dictionary larger than the chunk. */
    @Test
    public void declinesWhenTheDictionaryIsLargerThanTheChunk() {
        Fixtures.DictFile f = Fixtures.flatDict();
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan("s")) {
            for (Chunk c : scan) {
                try (c) {
                    Predicate aapl = Predicate.eq("s", "AAPL");
                    LeafPath path = PredicateEvaluator.leafPaths(c, aapl).get(0);
                    if (c.index() % 4 == 3) {
                        assertEquals("chunk " + c.index() + " declines", LeafPath.COMPUTE, path);
                    } else {
                        assertEquals("chunk " + c.index() + " is filtered on the dictionary", LeafPath.DICTIONARY, path);
                    }
                    assertEquals(Bitmap.wordsFor(c.length()), PredicateEvaluator.selection(c, aapl).words().length);
                }
            }
        }
    }

    /** A one-row file and an empty batch still filter correctly. */
    @Test
    public void tinyChunks() {
        java.nio.file.Path p = Fixtures.tempDir().resolve("tiny.vortex");
        String[] expected = DictFixture.write(p.toString(), 1, 1, 3, false);
        try (VortexFile file = VortexFile.open(p)) {
            assertEquals(1, file.rowCount());
            for (Predicate leaf : leaves()) {
                long[] want = ReferenceScan.selectedRows(file, leaf);
                assertArrayEquals(leaf.toString(), want, javaRows(file, leaf));
            }
            assertEquals(expected[0] == null ? 1 : 0, ReferenceScan.selectedRows(file, Predicate.isNull("s")).length);
        }
    }
}
