package io.vortex4j.arrow;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.calcite.VortexSql;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.impl.UnionMapWriter;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A column of a dtype vortex4j does not read (a map, written by the reference writer from Arrow)
 * is never silently dropped: the schema and the SQL table list it, queries that do not read it
 * run, and reading it fails with an error naming the column and its dtype.
 */
public class UnreadableColumnTest {
    private static Path dir;

    @BeforeClass
    public static void write() throws Exception {
        dir = Files.createTempDirectory("vortex4j-unreadable");
        dir.toFile().deleteOnExit();
        Path file = dir.resolve("t.vortex");
        file.toFile().deleteOnExit();
        try (BufferAllocator allocator = new RootAllocator();
             IntVector id = new IntVector("id", allocator);
             MapVector m = MapVector.empty("m", allocator, false)) {
            int rows = 3;
            id.allocateNew(rows);
            UnionMapWriter w = m.getWriter();
            for (int r = 0; r < rows; r++) {
                id.set(r, r);
                w.setPosition(r);
                w.startMap();
                w.startEntry();
                w.key().integer().writeInt(r);
                w.value().integer().writeInt(10 * r);
                w.endEntry();
                w.endMap();
            }
            id.setValueCount(rows);
            m.setValueCount(rows);
            try (VectorSchemaRoot root = VectorSchemaRoot.of(id, m);
                 VortexArrowWriter out = VortexArrowWriter.create(file, root.getSchema(), allocator, null)) {
                root.setRowCount(rows);
                out.write(root);
                out.finish();
            }
        }
    }

    @Test
    public void theReaderListsItAndNamesItWhenRead() {
        try (VortexFile f = VortexFile.open(dir.resolve("t.vortex"))) {
            assertEquals(List.of("id", "m"), f.schema().names());
            DataType t = f.schema().field("m").type();
            assertEquals(DataType.Kind.UNSUPPORTED, t.kind());
            assertTrue(t.toString(), t.toString().startsWith("map"));
            try (Scan s = f.scan("id", "m"); Chunk c = s.next()) {
                assertEquals(3, c.column("id").length());
                try {
                    c.column("m");
                    fail("a map column read");
                } catch (UnsupportedOperationException e) {
                    assertEquals("column 'm' has dtype " + t + ", which vortex4j does not read", e.getMessage());
                }
            }
        }
    }

    @Test
    public void sqlListsItAndFailsOnlyWhenItIsRead() throws SQLException {
        try (Connection c = VortexSql.connect(dir, true); Statement st = c.createStatement()) {
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getColumns(null, null, "t", null)) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME"));
                }
            }
            assertEquals(List.of("id", "m"), columns);
            List<Integer> ids = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT id FROM t WHERE id > 0 ORDER BY id")) {
                while (rs.next()) {
                    ids.add(rs.getInt(1));
                }
            }
            assertEquals(List.of(1, 2), ids);
            // IS [NOT] NULL needs only the validity, which vortex evaluates for any dtype in the scan.
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM t WHERE m IS NOT NULL")) {
                assertTrue(rs.next());
                assertEquals(3, rs.getLong(1));
            }
            for (String sql : new String[] {"SELECT * FROM t", "SELECT m FROM t"}) {
                try (ResultSet rs = st.executeQuery(sql)) {
                    rs.next();
                    fail(sql + " read the map column");
                } catch (SQLException e) {
                    assertTrue(sql + ": " + e.getMessage(), e.getMessage().contains("column 'm' has dtype map"));
                }
            }
        }
    }
}
