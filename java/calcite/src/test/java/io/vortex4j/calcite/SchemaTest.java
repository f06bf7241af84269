package io.vortex4j.calcite;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.junit.Test;

/** Tables from a directory: names and their case, models, the push-down switch, bad files. */
public class SchemaTest {
    private static final long TYPES_ROWS = (long) TestData.TYPES_BATCHES * TestData.TYPES_BATCH_ROWS;

    private static Set<String> tables(Connection c) throws SQLException {
        Set<String> out = new TreeSet<>();
        try (ResultSet rs = c.getMetaData().getTables(null, VortexSql.SCHEMA, null, null)) {
            while (rs.next()) {
                out.add(rs.getString("TABLE_NAME"));
            }
        }
        return out;
    }

    @Test
    public void eachVortexFileIsATableNamedAsTheFile() throws SQLException {
        try (Connection c = VortexSql.connect(TestData.dir(), true)) {
            assertEquals(Set.of("MixedCase", "trades", "types", "zones", "words", "sums", "keywords"), tables(c));
            assertEquals(TestData.TRADES_ROWS, Sql.scalar(c, "SELECT count(*) FROM trades"));
        }
    }

    @Test
    public void namesAreCaseInsensitiveThroughVortexSql() throws SQLException {
        try (Connection c = VortexSql.connect(TestData.dir(), true)) {
            for (String table : new String[] {"trades", "TRADES", "Trades", "\"trades\"", "vortex.trades", "VORTEX.Trades"}) {
                assertEquals(table, TestData.TRADES_ROWS, Sql.scalar(c, "SELECT count(*) FROM " + table));
            }
            for (String table : new String[] {"MixedCase", "mixedcase", "MIXEDCASE", "\"MixedCase\""}) {
                assertEquals(table, (long) TestData.TYPES_BATCH_ROWS, Sql.scalar(c, "SELECT count(*) FROM " + table));
            }
            assertEquals(Sql.answer(c, "SELECT sym, count(*) FROM trades WHERE sym = 'V' GROUP BY sym"),
                    Sql.answer(c, "SELECT SYM, COUNT(*) FROM TRADES WHERE Sym = 'V' GROUP BY SYM"));
            // Result columns keep the case they were written with.
            try (java.sql.Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT sym, Volume FROM trades WHERE ts < 0")) {
                assertEquals("sym", rs.getMetaData().getColumnLabel(1));
                assertEquals("Volume", rs.getMetaData().getColumnLabel(2));
            }
        }
    }

    private static Path writeModel(Path dir, String directory, String extraOperand) throws IOException {
        String json = "{\"version\": \"1.0\", \"defaultSchema\": \"vortex\", \"schemas\": [{\"name\": \"vortex\","
                + " \"type\": \"custom\", \"factory\": \"" + VortexSchemaFactory.class.getName() + "\","
                + " \"operand\": {\"directory\": \"" + directory.replace("\\", "\\\\") + "\"" + extraOperand + "}}]}";
        Path model = dir.resolve("model.json");
        Files.writeString(model, json, StandardCharsets.UTF_8);
        model.toFile().deleteOnExit();
        return model;
    }

    @Test
    public void modelFileWithARelativeDirectory() throws Exception {
        Path modelDir = Files.createTempDirectory("vortex4j-model");
        modelDir.toFile().deleteOnExit();
        String relative = modelDir.relativize(TestData.dir()).toString();
        Path model = writeModel(modelDir, relative, "");
        Properties props = VortexSql.connectionProperties();
        try (Connection c = DriverManager.getConnection("jdbc:calcite:model=" + model, props)) {
            assertEquals(TestData.TRADES_ROWS, Sql.scalar(c, "SELECT count(*) FROM trades"));
            assertTrue(Sql.explain(c, "SELECT count(*) FROM trades WHERE sym = 'V'").contains("VortexAggregateScan"));
        }
    }

    @Test
    public void inlineModelWithThePushdownOperand() throws Exception {
        String dir = TestData.dir().toString().replace("\\", "\\\\");
        for (boolean pushdown : new boolean[] {true, false}) {
            String url = "jdbc:calcite:model=inline:{version: '1.0', defaultSchema: 'vortex', schemas: [{name: 'vortex',"
                    + " type: 'custom', factory: '" + VortexSchemaFactory.class.getName() + "',"
                    + " operand: {directory: '" + dir + "', pushdown: " + pushdown + "}}]}";
            try (Connection c = DriverManager.getConnection(url, VortexSql.connectionProperties())) {
                String sql = "SELECT count(*) FROM trades WHERE sym = 'V'";
                assertEquals(pushdown, Sql.explain(c, sql).contains("Vortex"));
                try (Connection ref = VortexSql.connect(TestData.dir(), true)) {
                    assertEquals(Sql.scalar(ref, sql), Sql.scalar(c, sql));
                }
            }
        }
    }

    @Test
    public void calciteDefaultsNeedQuotedLowerCaseNames() throws Exception {
        // Without VortexSql's properties Calcite upper-cases unquoted names and matches case-sensitively.
        String dir = TestData.dir().toString().replace("\\", "\\\\");
        String url = "jdbc:calcite:model=inline:{version: '1.0', defaultSchema: 'vortex', schemas: [{name: 'vortex',"
                + " type: 'custom', factory: '" + VortexSchemaFactory.class.getName() + "',"
                + " operand: {directory: '" + dir + "'}}]}";
        try (Connection c = DriverManager.getConnection(url)) {
            assertEquals(TestData.TRADES_ROWS, Sql.scalar(c, "SELECT count(\"sym\") + count(*) - count(\"sym\") FROM \"trades\""));
            try {
                Sql.scalar(c, "SELECT count(*) FROM trades");
                fail("unquoted trades is TRADES under Calcite's default lexical policy");
            } catch (SQLException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("not found"));
            }
        }
    }

    @Test
    public void systemPropertyChoosesTheDefault() {
        String before = System.getProperty("vortex4j.pushdown");
        try {
            System.clearProperty("vortex4j.pushdown");
            assertTrue(VortexSchemaFactory.defaultPushdown());
            System.setProperty("vortex4j.pushdown", "false");
            assertFalse(VortexSchemaFactory.defaultPushdown());
            VortexSchema s = (VortexSchema) new VortexSchemaFactory().create(null, "x",
                    java.util.Map.of("directory", TestData.dir().toString()));
            assertFalse(s.pushdown());
            System.setProperty("vortex4j.pushdown", "true");
            assertTrue(VortexSchemaFactory.defaultPushdown());
        } finally {
            if (before == null) {
                System.clearProperty("vortex4j.pushdown");
            } else {
                System.setProperty("vortex4j.pushdown", before);
            }
        }
    }

    @Test
    public void anUnreadableFileFailsOnlyItsOwnQueries() throws Exception {
        Path dir = Files.createTempDirectory("vortex4j-bad");
        dir.toFile().deleteOnExit();
        Path good = dir.resolve("good.vortex");
        Files.copy(TestData.dir().resolve("MixedCase.vortex"), good);
        good.toFile().deleteOnExit();
        Path bad = dir.resolve("bad.vortex");
        Files.writeString(bad, "not a vortex file");
        bad.toFile().deleteOnExit();
        Path other = dir.resolve("notes.txt");
        Files.writeString(other, "ignored: not a .vortex file");
        other.toFile().deleteOnExit();
        try (Connection c = VortexSql.connect(dir, true)) {
            assertEquals(Set.of("bad", "good"), tables(c));
            assertEquals((long) TestData.TYPES_BATCH_ROWS, Sql.scalar(c, "SELECT count(*) FROM good"));
            try {
                Sql.scalar(c, "SELECT count(*) FROM bad");
                fail("bad.vortex is not a Vortex file");
            } catch (SQLException e) {
                assertTrue(e.getMessage(), PushdownEquivalenceTest.rootCause(e).getMessage().contains("bad.vortex"));
            }
        }
    }

    @Test
    public void aMissingDirectoryIsReported() throws Exception {
        Path missing = TestData.dir().resolve("no-such-dir");
        try (Connection c = VortexSql.connect(missing, true)) {
            Sql.scalar(c, "SELECT count(*) FROM trades");
            fail("the directory does not exist");
        } catch (SQLException | RuntimeException e) {
            assertTrue(String.valueOf(e.getMessage()) + " / " + PushdownEquivalenceTest.rootCause(e).getMessage(),
                    String.valueOf(PushdownEquivalenceTest.rootCause(e).getMessage()).contains("no-such-dir"));
        }
    }

    @Test
    public void typesTableHasAllRows() throws SQLException {
        try (Connection c = VortexSql.connect(TestData.dir(), false)) {
            assertEquals(TYPES_ROWS, Sql.scalar(c, "SELECT count(*) FROM types"));
        }
    }
}
