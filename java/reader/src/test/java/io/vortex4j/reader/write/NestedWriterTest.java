package io.vortex4j.reader.write;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Values;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.Test;

/**
 * Nested columns written with {@link VortexWriter} from Java values (structs two levels deep,
 * lists of ints, of structs and of lists, fixed-size lists; nulls at every level, empty lists,
 * several batches) read back value by value with {@link Values#valueAt}, and the writer's
 * errors for values that do not fit the type.
 */
public class NestedWriterTest {
    private static final String[] WORDS = {"a", "bb", "", "Zürich", "東京"};

    private static final DataType INNER = DataType.struct(List.of(new Field("z", DataType.INT32, true),
            new Field("d", DataType.DATE, true)));
    private static final DataType ST = DataType.struct(List.of(new Field("x", DataType.INT64, true),
            new Field("y", DataType.UTF8, true), new Field("inner", INNER, true)));
    private static final DataType PAIR = DataType.struct(List.of(new Field("a", DataType.INT32, false),
            new Field("b", DataType.UTF8, false)));
    private static final Schema SCHEMA = Schema.of(
            new Field("id", DataType.INT64, false),
            new Field("st", ST, true),
            new Field("l", DataType.list(DataType.INT32, true), true),
            new Field("ls", DataType.list(PAIR, true), true),
            new Field("ll", DataType.list(DataType.list(DataType.INT64, true), true), true),
            new Field("fl", DataType.fixedSizeList(DataType.FLOAT64, true, 2), true),
            new Field("req", DataType.list(DataType.UTF8, false), false));

    private static Object maybe(Random r, int oneIn, Object v) {
        return r.nextInt(oneIn) == 0 ? null : v;
    }

    private static Object[] row(Random r, long id) {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("z", maybe(r, 4, r.nextInt(1000) - 500));
        inner.put("d", maybe(r, 4, LocalDate.ofEpochDay(r.nextInt(40_000))));
        Map<String, Object> st = new LinkedHashMap<>();
        st.put("x", maybe(r, 5, r.nextLong()));
        st.put("y", maybe(r, 6, WORDS[r.nextInt(WORDS.length)]));
        st.put("inner", maybe(r, 5, inner));
        List<Object> l = new ArrayList<>();
        for (int k = r.nextInt(4); k > 0; k--) {
            l.add(maybe(r, 5, r.nextInt()));
        }
        List<Object> ls = new ArrayList<>();
        for (int k = r.nextInt(3); k > 0; k--) {
            Map<String, Object> pair = new LinkedHashMap<>();
            pair.put("a", r.nextInt(100));
            pair.put("b", WORDS[r.nextInt(WORDS.length)]);
            ls.add(maybe(r, 4, pair));
        }
        List<Object> ll = new ArrayList<>();
        for (int k = r.nextInt(3); k > 0; k--) {
            List<Object> inside = new ArrayList<>();
            for (int j = r.nextInt(3); j > 0; j--) {
                inside.add(maybe(r, 4, r.nextLong()));
            }
            ll.add(maybe(r, 4, inside));
        }
        List<Object> req = new ArrayList<>();
        for (int k = r.nextInt(3); k > 0; k--) {
            req.add(WORDS[r.nextInt(WORDS.length)]);
        }
        return new Object[] {id, maybe(r, 7, st), maybe(r, 6, l), maybe(r, 6, ls), maybe(r, 5, ll),
                maybe(r, 6, Arrays.asList(r.nextDouble(), maybe(r, 3, -r.nextDouble()))), req};
    }

    @Test
    public void nestedColumnsRoundTrip() throws Exception {
        Path dir = Files.createTempDirectory("vortex4j-nested-write");
        Path file = dir.resolve("n.vortex");
        Random r = new Random(7);
        List<Object[]> written = new ArrayList<>();
        int[] batches = {500, 0, 1, 900};
        try (VortexWriter w = VortexWriter.create(file, SCHEMA)) {
            for (int n : batches) {
                List<Object[]> rows = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    rows.add(row(r, written.size() + rows.size()));
                }
                Batch b = new Batch(SCHEMA, n);
                long[] ids = new long[n];
                for (int i = 0; i < n; i++) {
                    ids[i] = (Long) rows.get(i)[0];
                }
                b.set("id", ids);
                for (int c = 1; c < SCHEMA.size(); c++) {
                    Object[] column = new Object[n];
                    for (int i = 0; i < n; i++) {
                        column[i] = rows.get(i)[c];
                    }
                    b.set(SCHEMA.field(c).name(), c % 2 == 0 ? column : Arrays.asList(column));
                }
                w.write(b);
                written.addAll(rows);
            }
            w.finish();
        }
        List<Object[]> read = new ArrayList<>();
        boolean sawNullStruct = false;
        boolean sawEmptyList = false;
        boolean sawNullInnerList = false;
        try (VortexFile f = VortexFile.open(file); Scan s = f.scan()) {
            assertEquals(SCHEMA, f.schema());
            for (Chunk c : s) {
                try (c) {
                    for (int i = 0; i < c.length(); i++) {
                        Object[] row = new Object[SCHEMA.size()];
                        for (int k = 0; k < row.length; k++) {
                            row[k] = Values.valueAt(c.column(k), i);
                        }
                        read.add(row);
                    }
                }
            }
        }
        assertEquals(written.size(), read.size());
        for (int i = 0; i < written.size(); i++) {
            for (int k = 0; k < SCHEMA.size(); k++) {
                assertEquals("row " + i + " column " + SCHEMA.field(k).name(), written.get(i)[k], read.get(i)[k]);
            }
            Object[] w = written.get(i);
            sawNullStruct |= w[1] == null;
            sawEmptyList |= w[2] != null && ((List<?>) w[2]).isEmpty();
            sawNullInnerList |= w[4] != null && ((List<?>) w[4]).contains(null);
        }
        assertTrue(sawNullStruct && sawEmptyList && sawNullInnerList);
    }

    @Test
    public void valuesThatDoNotFitTheTypeAreRejected() throws Exception {
        Path dir = Files.createTempDirectory("vortex4j-nested-bad");
        Schema fixed = Schema.of(new Field("fl", DataType.fixedSizeList(DataType.INT32, false, 2), true));
        try {
            new Batch(fixed, 1).set("fl", new Object[] {List.of(1, 2, 3)});
            fail("a list of 3 elements in a fixed-size list of 2");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("lists of 2 elements, not 3"));
        }
        Schema st = Schema.of(new Field("st", PAIR, true));
        try {
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("nope", 1);
            new Batch(st, 1).set("st", new Object[] {extra});
            fail("an unknown field");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("has no field 'nope'"));
        }
        // A null in a non-nullable field of a struct that is not null itself: Arrow rejects it.
        Map<String, Object> half = new LinkedHashMap<>();
        half.put("a", 1);
        Path file = dir.resolve("bad.vortex");
        try (VortexWriter w = VortexWriter.create(file, st)) {
            w.write(new Batch(st, 2).set("st", new Object[] {half, null}));
            fail("a null in the non-nullable field 'b'");
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("st"));
        }
        assertFalse("the partial file is removed", Files.exists(file));
    }
}
