package io.vortex4j.calcite;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.predicate.Predicate;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/**
 * VARBINARY through JDBC: {@code getBytes} returns the file's bytes (compared with the reader's
 * values), and a binary literal filters the dictionary-encoded column in the scan with the count
 * vortex's own filtered scan gives.
 */
public class BinaryValuesTest extends WithConnections {
    @Test
    public void getBytesReturnsTheFilesBytes() throws SQLException {
        List<byte[]> expected = new ArrayList<>();
        boolean dictionary = false;
        try (VortexFile f = VortexFile.open(TestData.dir().resolve("types.vortex")); Scan s = f.scan("id", "bin")) {
            for (Chunk c : s) {
                try (c) {
                    Array bin = c.column("bin");
                    dictionary |= bin instanceof VarBinDictArray;
                    for (int r = 0; r < bin.length(); r++) {
                        expected.add((byte[]) Values.valueAt(bin, r));
                    }
                }
            }
        }
        assertTrue("the writer dictionary-encodes bin", dictionary);
        List<byte[]> actual = new ArrayList<>();
        try (Statement st = push.createStatement(); ResultSet rs = st.executeQuery("SELECT bin FROM types")) {
            while (rs.next()) {
                byte[] b = rs.getBytes(1);
                assertEquals(b == null, rs.wasNull());
                actual.add(b);
            }
        }
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals("row " + i, expected.get(i), actual.get(i));
        }
    }

    @Test
    public void aBinaryLiteralFiltersInTheScan() throws SQLException {
        try (VortexFile f = VortexFile.open(TestData.dir().resolve("types.vortex"))) {
            for (byte[] literal : TestData.BINARIES) {
                String sql = "SELECT count(*) FROM types WHERE bin = " + Sql.canonical(literal);
                long reference = f.referenceFilteredCount(Predicate.eq("bin", literal), false, "bin");
                assertEquals(sql, List.of("[" + reference + "]"), Sql.answer(push, sql));
                assertEquals(sql, Sql.answer(plain, sql), Sql.answer(push, sql));
                String plan = Sql.explain(push, sql);
                assertTrue(plan, plan.contains("filter=["));
            }
        }
    }
}
