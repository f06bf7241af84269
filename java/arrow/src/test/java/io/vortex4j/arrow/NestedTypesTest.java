package io.vortex4j.arrow;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.ListArray;
import io.vortex4j.reader.array.StructArray;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.array.VarBinDictArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.NullableStructWriter;
import org.apache.arrow.vector.complex.impl.UnionFixedSizeListWriter;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.complex.writer.BaseWriter;
import org.apache.arrow.vector.util.Text;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Nested columns written by the reference writer (Rust, from Arrow batches built here), read by
 * the Java reader and compared value by value with what Arrow held: structs two levels deep,
 * lists of ints and of structs, fixed-size lists; nulls at every level, empty lists, several
 * batches. Struct fields of few distinct strings stay dictionary-encoded.
 */
public class NestedTypesTest {
    private static final String[] WORDS = {"a", "bb", "", "ccc", "日本"};
    private static final int BATCHES = 3;
    private static final int ROWS = 700;
    private static Path file;
    /** Per row: id, st, l, ls, fl as the reader's Java values should be. */
    private static final List<Object[]> expected = new ArrayList<>();

    private static Path dir;

    /** The folder holding {@code nested.vortex} (written once per JVM). */
    static Path dir() {
        return dir;
    }

    /** Per row: id, st, l, ls, fl as Arrow held them. */
    static List<Object[]> expected() {
        return expected;
    }

    @BeforeClass
    public static synchronized void write() throws Exception {
        if (file != null) {
            return;
        }
        dir = Files.createTempDirectory("vortex4j-nested");
        dir.toFile().deleteOnExit();
        file = dir.resolve("nested.vortex");
        file.toFile().deleteOnExit();
        Random r = new Random(13);
        try (BufferAllocator allocator = new RootAllocator()) {
            VortexArrowWriter out = null;
            try {
                for (int b = 0; b < BATCHES; b++) {
                    try (IntVector id = new IntVector("id", allocator);
                         StructVector st = StructVector.empty("st", allocator);
                         ListVector l = ListVector.empty("l", allocator);
                         ListVector ls = ListVector.empty("ls", allocator);
                         FixedSizeListVector fl = FixedSizeListVector.empty("fl", 2, allocator)) {
                        fill(r, b, id, st, l, ls, fl);
                        List<FieldVector> vectors = List.of(id, st, l, ls, fl);
                        try (VectorSchemaRoot root = new VectorSchemaRoot(vectors)) {
                            root.setRowCount(ROWS);
                            if (out == null) {
                                out = VortexArrowWriter.create(file, root.getSchema(), allocator, null);
                            }
                            out.write(root);
                        }
                    }
                }
                out.finish();
            } finally {
                if (out != null) {
                    out.close();
                }
            }
        }
    }

    private static void fill(Random r, int batch, IntVector id, StructVector st, ListVector l, ListVector ls,
            FixedSizeListVector fl) {
        id.allocateNew(ROWS);
        NullableStructWriter sw = st.getWriter();
        UnionListWriter lw = l.getWriter();
        UnionListWriter lsw = ls.getWriter();
        UnionFixedSizeListWriter fw = fl.getWriter();
        for (int i = 0; i < ROWS; i++) {
            int row = batch * ROWS + i;
            id.set(i, row);
            Object[] e = new Object[5];
            e[0] = row;
            // st: struct<x: i64?, y: utf8?, inner: struct<z: i32?>?>?
            sw.setPosition(i);
            if (r.nextInt(7) == 0) {
                sw.writeNull();
            } else {
                Map<String, Object> m = new LinkedHashMap<>();
                sw.start();
                Long x = r.nextInt(5) == 0 ? null : r.nextLong();
                if (x == null) {
                    sw.bigInt("x").writeNull();
                } else {
                    sw.bigInt("x").writeBigInt(x);
                }
                String y = r.nextInt(6) == 0 ? null : WORDS[r.nextInt(WORDS.length)];
                if (y == null) {
                    sw.varChar("y").writeNull();
                } else {
                    sw.varChar("y").writeVarChar(new Text(y));
                }
                BaseWriter.StructWriter inner = sw.struct("inner");
                Map<String, Object> im = null;
                if (r.nextInt(5) == 0) {
                    inner.writeNull();
                } else {
                    inner.start();
                    Integer z = r.nextInt(4) == 0 ? null : r.nextInt(1000) - 500;
                    if (z == null) {
                        inner.integer("z").writeNull();
                    } else {
                        inner.integer("z").writeInt(z);
                    }
                    inner.end();
                    im = new LinkedHashMap<>();
                    im.put("z", z);
                }
                sw.end();
                m.put("x", x);
                m.put("y", y);
                m.put("inner", im);
                e[1] = m;
            }
            // l: list<i32?>? with empty lists
            lw.setPosition(i);
            if (r.nextInt(6) == 0) {
                lw.writeNull();
            } else {
                List<Object> items = new ArrayList<>();
                lw.startList();
                for (int k = r.nextInt(4); k > 0; k--) {
                    if (r.nextInt(5) == 0) {
                        lw.writeNull();
                        items.add(null);
                    } else {
                        int v = r.nextInt();
                        lw.writeInt(v);
                        items.add(v);
                    }
                }
                lw.endList();
                e[2] = items;
            }
            // ls: list<struct<a: i32?, b: utf8?>?>?
            lsw.setPosition(i);
            if (r.nextInt(6) == 0) {
                lsw.writeNull();
            } else {
                List<Object> items = new ArrayList<>();
                lsw.startList();
                for (int k = r.nextInt(3); k > 0; k--) {
                    BaseWriter.StructWriter s = lsw.struct();
                    s.start();
                    int a = r.nextInt(100);
                    s.integer("a").writeInt(a);
                    String w = WORDS[r.nextInt(WORDS.length)];
                    s.varChar("b").writeVarChar(new Text(w));
                    s.end();
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("a", a);
                    m.put("b", w);
                    items.add(m);
                }
                lsw.endList();
                e[3] = items;
            }
            // fl: fixed_size_list<i32?>[2]?
            fw.setPosition(i);
            if (r.nextInt(6) == 0) {
                fw.writeNull();
            } else {
                fw.startList();
                int p = r.nextInt(50);
                fw.writeInt(p);
                fw.writeInt(-p);
                fw.endList();
                e[4] = List.of(p, -p);
            }
            expected.add(e);
        }
        id.setValueCount(ROWS);
        st.setValueCount(ROWS);
        l.setValueCount(ROWS);
        ls.setValueCount(ROWS);
        fl.setValueCount(ROWS);
    }

    @Test
    public void theSchemaHasTheNestedTypes() {
        try (VortexFile f = VortexFile.open(file)) {
            DataType st = f.schema().field("st").type();
            assertEquals(DataType.Kind.STRUCT, st.kind());
            assertEquals(List.of("x", "y", "inner"), new io.vortex4j.reader.Schema(st.children()).names());
            assertEquals(DataType.Kind.STRUCT, st.children().get(2).type().kind());
            assertEquals(DataType.Kind.LIST, f.schema().field("l").type().kind());
            assertEquals(DataType.Kind.INT32, f.schema().field("l").type().element().type().kind());
            assertEquals(DataType.Kind.STRUCT, f.schema().field("ls").type().element().type().kind());
            DataType fl = f.schema().field("fl").type();
            assertEquals(DataType.Kind.FIXED_SIZE_LIST, fl.kind());
            assertEquals(2, fl.listSize());
        }
    }

    @Test
    public void everyValueIsWhatArrowWrote() {
        List<Object[]> actual = new ArrayList<>();
        boolean dictionaryField = false;
        int chunks = 0;
        try (VortexFile f = VortexFile.open(file); Scan s = f.scan("id", "st", "l", "ls", "fl")) {
            for (Chunk c : s) {
                try (c) {
                    chunks++;
                    dictionaryField |= ((StructArray) c.column("st")).field("y") instanceof VarBinDictArray;
                    assertTrue(c.column("l") instanceof ListArray);
                    for (int i = 0; i < c.length(); i++) {
                        Object[] row = new Object[5];
                        for (int k = 0; k < 5; k++) {
                            Array a = c.column(k);
                            row[k] = Values.valueAt(a, i);
                        }
                        actual.add(row);
                    }
                }
            }
        }
        assertTrue("several chunks, got " + chunks, chunks >= 1);
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            for (int k = 0; k < 5; k++) {
                assertEquals("row " + i + " column " + k, expected.get(i)[k], actual.get(i)[k]);
            }
        }
        assertTrue("the struct's string field stays dictionary-encoded", dictionaryField);
    }

    /**
     * The same rows written by Java's {@link io.vortex4j.reader.write.VortexWriter} from their Java
     * values (in the batches Arrow wrote) read back exactly as the reference writer's file.
     */
    @Test
    public void theJavaWriterWritesWhatArrowWrote() throws Exception {
        Path copy = Files.createTempDirectory("vortex4j-nested-java").resolve("java-written.vortex");
        io.vortex4j.reader.Schema schema;
        try (VortexFile f = VortexFile.open(file)) {
            schema = f.schema();
        }
        try (io.vortex4j.reader.write.VortexWriter w = io.vortex4j.reader.write.VortexWriter.create(copy, schema)) {
            for (int b = 0; b < BATCHES; b++) {
                io.vortex4j.reader.write.Batch batch = new io.vortex4j.reader.write.Batch(schema, ROWS);
                for (int k = 0; k < schema.size(); k++) {
                    Object[] column = new Object[ROWS];
                    for (int i = 0; i < ROWS; i++) {
                        column[i] = expected.get(b * ROWS + i)[k];
                    }
                    batch.set(schema.field(k).name(), k == 0 ? java.util.Arrays.stream(column).mapToInt(v -> (Integer) v)
                            .toArray() : column);
                }
                w.write(batch);
            }
            w.finish();
        }
        List<List<Object>> arrow = rows(file);
        List<List<Object>> java = rows(copy);
        assertEquals(expected.size(), java.size());
        assertEquals(arrow, java);
        try (VortexFile f = VortexFile.open(copy)) {
            assertEquals(schema, f.schema());
        }
    }

    private static List<List<Object>> rows(Path path) {
        List<List<Object>> out = new ArrayList<>();
        try (VortexFile f = VortexFile.open(path); Scan s = f.scan()) {
            for (Chunk c : s) {
                try (c) {
                    for (int i = 0; i < c.length(); i++) {
                        List<Object> row = new ArrayList<>();
                        for (int k = 0; k < c.schema().size(); k++) {
                            row.add(Values.valueAt(c.column(k), i));
                        }
                        out.add(row);
                    }
                }
            }
        }
        return out;
    }
}
