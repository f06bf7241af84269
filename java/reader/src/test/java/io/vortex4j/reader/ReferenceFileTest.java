package io.vortex4j.reader;

import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.DictionaryStrings;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.compute.LeafPath;
import io.vortex4j.reader.compute.PredicateEvaluator;
import io.vortex4j.reader.oracle.ReferenceScan;
import io.vortex4j.reader.oracle.Sql3;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.PredicateCodecTest;

import static io.vortex4j.reader.predicate.Predicate.and;
import static io.vortex4j.reader.predicate.Predicate.between;
import static io.vortex4j.reader.predicate.Predicate.eq;
import static io.vortex4j.reader.predicate.Predicate.ge;
import static io.vortex4j.reader.predicate.Predicate.gt;
import static io.vortex4j.reader.predicate.Predicate.in;
import static io.vortex4j.reader.predicate.Predicate.isNotNull;
import static io.vortex4j.reader.predicate.Predicate.isNull;
import static io.vortex4j.reader.predicate.Predicate.le;
import static io.vortex4j.reader.predicate.Predicate.lt;
import static io.vortex4j.reader.predicate.Predicate.ne;
import static io.vortex4j.reader.predicate.Predicate.not;
import static io.vortex4j.reader.predicate.Predicate.notIn;
import static io.vortex4j.reader.predicate.Predicate.or;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.Test;

/**
 * Files written by the Rust reference code alone ({@code rust/fixtures/dict_fixture.rs}), read by Java: the
 * dictionary-encoded {@code s} column in every shape the fixture produces, checked value by
 * value against the strings Rust generated.
 */
public class ReferenceFileTest {
    /** The fixture's word list (dict_fixture.rs WORDS), for the dictionary-size checks. */
    private static final int WORDS = 33;

    @Test
    public void flatFixtureHasTheFourDictionaryShapes() {
        Fixtures.DictFile f = Fixtures.flatDict();
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan()) {
            assertEquals(8000, file.rowCount());
            assertEquals(Arrays.asList("id", "s", "v"), file.schema().names());
            assertEquals(DataType.UTF8, file.schema().field("s").type());
            assertTrue(file.schema().field("s").nullable());
            int chunks = 0;
            for (Chunk c : scan) {
                try (c) {
                    assertEquals(1000, c.length());
                    VarBinDictArray s = (VarBinDictArray) c.column("s");
                    int shape = chunks % 4;
                    int codeNulls = 0;
                    for (int i = 0; i < s.length(); i++) {
                        codeNulls += s.isCodeNull(i) ? 1 : 0;
                    }
                    List<Integer> nullSlots = new ArrayList<>();
                    for (int e = 0; e < s.dictionary().length(); e++) {
                        if (s.dictionary().isNull(e)) {
                            nullSlots.add(e);
                        }
                    }
                    String where = "chunk " + chunks + " (shape " + shape + ")";
                    switch (shape) {
                        case 0: // u8 nullable codes, some null; every entry valid
                            assertEquals(where, 1, s.codeWidth());
                            assertTrue(where, codeNulls > 0);
                            assertEquals(where, List.of(), nullSlots);
                            assertEquals(where, WORDS, s.dictionary().length());
                            break;
                        case 1: // u16 non-nullable codes; entry 3 is null
                            assertEquals(where, 2, s.codeWidth());
                            assertEquals(where, 0, codeNulls);
                            assertEquals(where, List.of(3), nullSlots);
                            assertEquals(where, WORDS, s.dictionary().length());
                            break;
                        case 2: // u32 nullable codes, some null; entry 0 is null
                            assertEquals(where, 4, s.codeWidth());
                            assertTrue(where, codeNulls > 0);
                            assertEquals(where, List.of(0), nullSlots);
                            assertEquals(where, WORDS, s.dictionary().length());
                            break;
                        default: // more entries than rows (2 * rows + 1), so u16 codes
                            assertEquals(where, 2, s.codeWidth());
                            assertEquals(where, 0, codeNulls);
                            assertEquals(where, List.of(), nullSlots);
                            assertEquals(where, 2 * 1000 + 1, s.dictionary().length());
                            assertTrue(where, s.dictionary().length() > c.length());
                    }
                    chunks++;
                }
            }
            assertEquals(8, chunks);
        }
    }

    @Test
    public void flatFixtureValuesMatchWhatRustGenerated() {
        Fixtures.DictFile f = Fixtures.flatDict();
        int[] nullKinds = checkEveryRow(f, 1000, 8);
        assertTrue("rows null by a null code: " + nullKinds[0], nullKinds[0] > 0);
        assertTrue("rows null by the null dictionary slot: " + nullKinds[1], nullKinds[1] > 0);
    }

    @Test
    public void referenceFixtureValuesMatchWhatRustGenerated() {
        Fixtures.DictFile f = Fixtures.referenceDict();
        int[] nullKinds = checkEveryRow(f, -1, -1);
        assertTrue("rows null by a null code or slot: " + (nullKinds[0] + nullKinds[1]),
                nullKinds[0] + nullKinds[1] > 0);
    }

    @Test
    public void referenceFixtureSharesOneDictionaryAcrossChunks() {
        Fixtures.DictFile f = Fixtures.referenceDict();
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan("s")) {
            Set<Long> ids = new HashSet<>();
            DictionaryStrings strings = null;
            int chunks = 0;
            for (Chunk c : scan) {
                try (c) {
                    VarBinDictArray s = (VarBinDictArray) c.column(0);
                    ids.add(s.strings().id());
                    if (strings != null) {
                        // The decoded strings are shared, so each entry is decoded once per scan.
                        assertSame(strings, s.strings());
                    }
                    strings = s.strings();
                    chunks++;
                }
            }
            assertTrue(chunks > 1);
            assertEquals(1, ids.size());
        }
    }

    /**
     * Checks every row of the fixture: {@code s} (dictionary-encoded, equal to the generated
     * values) and {@code id} (the row number), chunk sizes and first rows. Returns how many rows
     * were null by a null code and by a null dictionary slot.
     */
    private static int[] checkEveryRow(Fixtures.DictFile f, int chunkRows, int chunkCount) {
        int[] nullKinds = new int[2];
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan()) {
            assertEquals(f.s.size(), file.rowCount());
            long row = 0;
            int chunks = 0;
            for (Chunk c : scan) {
                try (c) {
                    assertEquals(row, c.firstRow());
                    assertEquals(chunks, c.index());
                    if (chunkRows > 0) {
                        assertEquals(chunkRows, c.length());
                    }
                    Array sa = c.column("s");
                    assertTrue(c + ": s is " + sa, sa instanceof VarBinDictArray);
                    VarBinDictArray s = (VarBinDictArray) sa;
                    assertEquals(c.length(), s.length());
                    Int64Array id = (Int64Array) c.column("id");
                    assertFalse(id.mayHaveNulls());
                    assertTrue(c.column("v") instanceof Int64Array);
                    for (int i = 0; i < c.length(); i++) {
                        int r = (int) row + i;
                        String want = f.s.get(r);
                        String where = "row " + r;
                        assertEquals(where, r, id.getLong(i));
                        assertEquals(where, (long) r, Values.valueAt(id, i));
                        assertEquals(where, want, Values.valueAt(s, i));
                        assertEquals(where, want, s.getString(i));
                        assertEquals(where, want == null, s.isNull(i));
                        if (want == null) {
                            assertTrue(where, s.mayHaveNulls());
                            assertNull(where, s.getBytes(i));
                        } else {
                            assertArrayEquals(where, want.getBytes(StandardCharsets.UTF_8), s.getBytes(i));
                        }
                        if (s.isCodeNull(i)) {
                            assertNull(where, want);
                            nullKinds[0]++;
                        } else {
                            int code = s.getCode(i);
                            assertTrue(where + " code " + code, code >= 0 && code < s.dictionary().length());
                            assertEquals(where, s.dictionary().isNull(code), s.isNull(i));
                            assertEquals(where, want, s.dictionary().getString(code));
                            if (want == null) {
                                nullKinds[1]++;
                            }
                        }
                    }
                    row += c.length();
                    chunks++;
                }
            }
            assertEquals(f.s.size(), row);
            if (chunkCount > 0) {
                assertEquals(chunkCount, chunks);
            }
        }
        return nullKinds;
    }

    @Test
    public void projectingOneColumnGivesTheSameValues() {
        Fixtures.DictFile f = Fixtures.flatDict();
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan("s")) {
            assertEquals(List.of("s"), scan.schema().names());
            int row = 0;
            for (Chunk c : scan) {
                try (c) {
                    assertEquals(1, c.schema().size());
                    for (int i = 0; i < c.length(); i++) {
                        assertEquals(f.s.get(row + i), Values.valueAt(c.column(0), i));
                    }
                    row += c.length();
                }
            }
            assertEquals(f.s.size(), row);
        }
    }

    /** Predicates on {@code s}: over the fixture's words, non-ASCII order, nulls and the kind-3 words. */
    static List<Predicate> stringPredicates() {
        List<Predicate> out = new ArrayList<>();
        for (String w : new String[] {
            "AAPL", "", "A", "AA", "AAP", "Zürich", "zurich", "東京", "🎉party", "\uE000private", "éclair", "Ω", "z",
            "w00100", "w01999", "nope",
        }) {
            out.add(eq("s", w));
            out.add(ne("s", w));
            out.add(lt("s", w));
            out.add(ge("s", w));
        }
        out.addAll(Arrays.asList(
                le("s", "Ω"), gt("s", "\uFFFF"), gt("s", "🎉"), lt("s", "\uE000"), between("s", "A", "Z"),
                between("s", "w0", "w01"), between("s", "z", "a"), in("s", "AAPL", "東京", "w00042"),
                in("s", "AAPL", null), notIn("s", "AAPL", "z"), notIn("s", "AAPL", null), in("s"), notIn("s"),
                isNull("s"), isNotNull("s"), eq("s", null), not(eq("s", "AAPL")), not(isNull("s")),
                or(eq("s", "A"), lt("id", 10)), and(ge("s", "A"), lt("s", "B"), gt("id", 3000)),
                not(or(eq("s", "z"), isNull("s"))), and(in("s", "Ω", "z"), between("id", 1500, 6500))));
        return out;
    }

    @Test
    public void filtersOnTheFixturesSelectTheRightRows() {
        boolean before = PredicateEvaluator.isDictFilterEnabled();
        try {
            for (Fixtures.DictFile f : Arrays.asList(Fixtures.flatDict(), Fixtures.referenceDict())) {
                int n = f.s.size();
                Object[][] columns = new Object[2][n];
                for (int r = 0; r < n; r++) {
                    columns[0][r] = (long) r;
                    columns[1][r] = f.s.get(r);
                }
                List<String> names = List.of("id", "s");
                try (VortexFile file = VortexFile.open(f.path)) {
                    for (Predicate p : stringPredicates()) {
                        long[] want = Sql3.selectedRows(p, names, columns, n);
                        PredicateCodecTest.assertRows(p + " on " + f.path.getFileName() + " (vortex)", want,
                                ReferenceScan.selectedRows(file, p));
                        for (boolean dict : new boolean[] {true, false}) {
                            PredicateEvaluator.setDictFilterEnabled(dict);
                            PredicateCodecTest.assertRows(p + " on " + f.path.getFileName() + " (Java, dict "
                                    + dict + ")", want, PredicateCodecTest.javaRows(file, p));
                        }
                    }
                }
            }
        } finally {
            PredicateEvaluator.setDictFilterEnabled(before);
        }
    }

    /**
     * The dictionary path selects each row as the test's own evaluation of the row's dictionary
     * entry (or of null, for a null code or a null entry) does.
     */
    @Test
    public void dictionarySelectionFollowsTheRowsEntries() {
        Fixtures.DictFile f = Fixtures.flatDict();
        List<Predicate> predicates = Arrays.asList(eq("s", "AAPL"), lt("s", "A"), isNull("s"), notIn("s"),
                in("s", "Ω", null), ne("s", "東京"), between("s", "w00100", "w00200"));
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan("id", "s")) {
            for (Chunk c : scan) {
                try (c) {
                    VarBinDictArray s = (VarBinDictArray) c.column(1);
                    for (Predicate p : predicates) {
                        Bitmap got = Compute.selection(c, p);
                        for (int i = 0; i < c.length(); i++) {
                            String entry = s.isNull(i) ? null : s.dictionary().getString(s.getCode(i));
                            assertEquals(p + " row " + i + " (" + entry + ") of " + c, Sql3.selects(p, name -> entry),
                                    got.get(i));
                        }
                    }
                }
            }
        }
    }

    /** The dictionary kernel answers for chunks it takes and declines the oversized dictionary. */
    @Test
    public void dictionaryKernelDeclinesOnlyOversizedDictionaries() {
        Fixtures.DictFile f = Fixtures.flatDict();
        Predicate p = eq("s", "AAPL");
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan()) {
            int chunk = 0;
            for (Chunk c : scan) {
                try (c) {
                    LeafPath path = PredicateEvaluator.leafPaths(c, p).get(0);
                    assertEquals("chunk " + chunk, chunk % 4 == 3 ? LeafPath.COMPUTE : LeafPath.DICTIONARY, path);
                    Bitmap b = PredicateEvaluator.selection(c, p);
                    for (int i = 0; i < c.length(); i++) {
                        assertEquals("row " + (c.firstRow() + i), "AAPL".equals(f.s.get((int) c.firstRow() + i)),
                                b.get(i));
                    }
                    // Not a dictionary column: another kernel.
                    assertNotEquals(LeafPath.DICTIONARY, PredicateEvaluator.leafPaths(c, eq("id", 5)).get(0));
                    chunk++;
                }
            }
        }
    }
}
