package io.vortex4j.arrow;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.NativeAccess;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.internal.Native;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.PredicateCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Struct fields read and filtered by their dotted path ({@code scan("st.x")}): only that field is
 * read, a null struct makes its fields null, a dictionary-encoded field stays encoded (so the
 * dictionary kernel filters it); compared with the values Arrow held ({@link NestedTypesTest})
 * and, for filters, with vortex's own filtered scan.
 */
public class NestedFieldScanTest {
    private static List<Object[]> expected;

    @BeforeClass
    public static void write() throws Exception {
        NestedTypesTest.write();
        expected = NestedTypesTest.expected();
    }

    private static VortexFile open() {
        return VortexFile.open(NestedTypesTest.dir().resolve("nested.vortex"));
    }

    @SuppressWarnings("unchecked")
    private static Object field(Object struct, String name) {
        return struct == null ? null : ((Map<String, Object>) struct).get(name);
    }

    @Test
    public void fieldsByPathAreTheStructsFields() {
        List<List<Object>> got = new ArrayList<>();
        boolean encoded = false;
        try (VortexFile f = open(); Scan s = f.scan("id", "st.x", "st.y", "st.inner.z")) {
            assertEquals(List.of("id", "st.x", "st.y", "st.inner.z"), s.schema().names());
            Field z = s.schema().field("st.inner.z");
            assertEquals(DataType.Kind.INT32, z.type().kind());
            assertTrue("null through the nullable struct", z.nullable());
            for (Chunk c : s) {
                try (c) {
                    encoded |= c.column("st.y") instanceof VarBinDictArray;
                    for (int i = 0; i < c.length(); i++) {
                        List<Object> row = new ArrayList<>();
                        for (int k = 0; k < 4; k++) {
                            row.add(Values.valueAt(c.column(k), i));
                        }
                        got.add(row);
                    }
                }
            }
        }
        List<List<Object>> want = new ArrayList<>();
        for (Object[] e : expected) {
            want.add(java.util.Arrays.asList(e[0], field(e[1], "x"), field(e[1], "y"),
                    field(field(e[1], "inner"), "z")));
        }
        assertEquals(want, got);
        assertTrue("the string field stays dictionary-encoded", encoded);
    }

    @Test
    public void predicatesOnFieldsByPath() {
        check(Predicate.eq("st.y", "bb"), e -> Objects.equals(field(e[1], "y"), "bb"));
        check(Predicate.in("st.y", "", "日本"), e -> "".equals(field(e[1], "y")) || "日本".equals(field(e[1], "y")));
        check(Predicate.like("st.y", "c%"), e -> field(e[1], "y") != null && ((String) field(e[1], "y")).startsWith("c"));
        check(Predicate.gt("st.inner.z", 0), e -> {
            Object z = field(field(e[1], "inner"), "z");
            return z != null && (int) z > 0;
        });
        check(Predicate.isNull("st.x"), e -> field(e[1], "x") == null);
        check(Predicate.and(Predicate.isNotNull("st.y"), Predicate.lt("st.inner.z", -100)), e -> {
            Object z = field(field(e[1], "inner"), "z");
            return field(e[1], "y") != null && z != null && (int) z < -100;
        });
    }

    /** The ids {@code filter} selects, by the reader, equal those {@code truth} selects among Arrow's rows. */
    private static void check(Predicate filter, Function<Object[], Boolean> truth) {
        List<Object> want = new ArrayList<>();
        for (Object[] e : expected) {
            if (truth.apply(e)) {
                want.add(e[0]);
            }
        }
        List<Object> got = new ArrayList<>();
        try (VortexFile f = open(); Scan s = f.scan(List.of("id", "st.y", "st.x", "st.inner.z"), filter)) {
            for (Chunk c : s) {
                try (c) {
                    Bitmap selected = Compute.selection(c, filter);
                    for (int i = 0; i < c.length(); i++) {
                        if (selected.get(i)) {
                            got.add(Values.valueAt(c.column("id"), i));
                        }
                    }
                }
            }
        }
        assertEquals(filter.toString(), want, got);
        // vortex's own filtered scan of the same predicate (ids are file row numbers).
        List<Object> reference = new ArrayList<>();
        try (VortexFile f = open()) {
            for (long row : NativeAccess.withHandle(f, h -> Native.filteredScanRows(h, PredicateCodec.encode(filter)))) {
                reference.add((int) row);
            }
        }
        assertEquals(filter + " vs vortex's filtered scan", reference, got);
        assertTrue(filter + " selects some rows", !want.isEmpty());
    }

    @Test
    public void aMissingFieldIsNamed() {
        try (VortexFile f = open()) {
            for (String[] bad : new String[][] {
                    {"st.nope", "struct 'st' has no field 'nope'; its fields are [x, y, inner]"},
                    {"id.x", "'id' is i32, not a struct"},
                    {"st.inner.z.w", "'st.inner.z' is i32, not a struct"},
                    {"nope.x", "unknown column 'nope.x'"}}) {
                try (Scan s = f.scan(bad[0])) {
                    fail(bad[0] + " scanned");
                } catch (VortexException e) {
                    assertTrue(e.getMessage(), e.getMessage().contains(bad[1]));
                    assertTrue(e.getMessage(), e.getMessage().contains("nested.vortex"));
                }
            }
        }
    }
}
