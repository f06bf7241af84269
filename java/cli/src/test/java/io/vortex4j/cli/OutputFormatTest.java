package io.vortex4j.cli;

import static org.junit.Assert.assertEquals;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Every output format against a hand-written golden: NULL next to the empty string and the
 * string "NULL", non-ASCII and wide characters, a quote, a comma, a tab and a pipe in one value,
 * doubles in plain and in scientific notation, the largest BIGINT.
 */
public class OutputFormatTest {
    static final Schema CELLS = Schema.of(new Field("id", DataType.INT64, false),
            new Field("s", DataType.UTF8, true), new Field("x", DataType.FLOAT64, true),
            new Field("n", DataType.INT64, true));
    static final String WIDE = "ünïcødé 日本, \"q\"|t\tab";
    static Path dir;

    @BeforeClass
    public static void write() throws Exception {
        dir = Files.createTempDirectory("vortex4j-formats");
        dir.toFile().deleteOnExit();
        Path file = dir.resolve("cells.vortex");
        file.toFile().deleteOnExit();
        try (VortexWriter w = VortexWriter.create(file, CELLS)) {
            w.write(new Batch(CELLS, 5)
                    .set("id", new long[] {1, 2, 3, 4, 5})
                    .set("s", new String[] {"plain", "", null, WIDE, "NULL"})
                    .set("x", new double[] {1.5, 1e-7, 12345678901234567.0, -0.000123, 1e21}, null)
                    .set("n", new long[] {42, 0, Long.MAX_VALUE, -1, 0}, new boolean[] {true, false, true, true, true}));
            w.finish();
        }
    }

    static String sql(String format) {
        CliTest.Result r = CliTest.run("sql", "--data", dir.toString(), "--format", format,
                "SELECT id, s, x, n FROM cells ORDER BY id");
        assertEquals(r.out(), 0, r.code());
        return r.out();
    }

    @Test
    public void csv() {
        assertEquals("id,s,x,n\n"
                + "1,plain,1.5,42\n"
                + "2,\"\",1.0E-7,\n"
                + "3,,12345678901234568.0,9223372036854775807\n"
                + "4,\"ünïcødé 日本, \"\"q\"\"|t\tab\",-0.000123,-1\n"
                + "5,NULL,1.0E21,0\n", sql("csv"));
    }

    @Test
    public void tsv() {
        assertEquals("id\ts\tx\tn\n"
                + "1\tplain\t1.5\t42\n"
                + "2\t\t1.0E-7\t\\N\n"
                + "3\t\\N\t12345678901234568.0\t9223372036854775807\n"
                + "4\tünïcødé 日本, \"q\"|t\\tab\t-0.000123\t-1\n"
                + "5\tNULL\t1.0E21\t0\n", sql("tsv"));
    }

    @Test
    public void jsonLines() {
        assertEquals("{\"id\":1,\"s\":\"plain\",\"x\":1.5,\"n\":42}\n"
                + "{\"id\":2,\"s\":\"\",\"x\":1.0E-7,\"n\":null}\n"
                + "{\"id\":3,\"s\":null,\"x\":12345678901234568.0,\"n\":9223372036854775807}\n"
                + "{\"id\":4,\"s\":\"ünïcødé 日本, \\\"q\\\"|t\\tab\",\"x\":-0.000123,\"n\":-1}\n"
                + "{\"id\":5,\"s\":\"NULL\",\"x\":1.0E21,\"n\":0}\n", sql("json"));
    }

    @Test
    public void markdown() {
        assertEquals("| id | s | x | n |\n"
                + "|---|---|---|---|\n"
                + "| 1 | plain | 1.5 | 42 |\n"
                + "| 2 |  | 1.0E-7 | NULL |\n"
                + "| 3 | NULL | 12345678901234568.0 | 9223372036854775807 |\n"
                + "| 4 | ünïcødé 日本, \"q\"\\|t\tab | -0.000123 | -1 |\n"
                + "| 5 | NULL | 1.0E21 | 0 |\n", sql("markdown"));
    }

    /** Columns aligned by display width (日本 takes four), numbers right-aligned, the tab shown as \t. */
    @Test
    public void table() {
        String sep = "+----+-------------------------+---------------------+---------------------+\n";
        assertEquals(sep
                + "| id | s                       | x                   | n                   |\n"
                + sep
                + "|  1 | plain                   |                 1.5 |                  42 |\n"
                + "|  2 |                         |              1.0E-7 |                NULL |\n"
                + "|  3 | NULL                    | 12345678901234568.0 | 9223372036854775807 |\n"
                + "|  4 | ünïcødé 日本, \"q\"|t\\tab |           -0.000123 |                  -1 |\n"
                + "|  5 | NULL                    |              1.0E21 |                   0 |\n"
                + sep, sql("table"));
    }

    /** --output writes the same bytes to the file, nothing to stdout. */
    @Test
    public void outputFile() throws Exception {
        Path out = dir.resolve("out.csv");
        out.toFile().deleteOnExit();
        CliTest.Result r = CliTest.run("sql", "--data", dir.toString(), "--format", "csv", "--output", out.toString(),
                "SELECT id, s, x, n FROM cells ORDER BY id");
        assertEquals(r.out(), 0, r.code());
        assertEquals("", r.out());
        assertEquals(sql("csv"), new String(Files.readAllBytes(out), StandardCharsets.UTF_8));
    }

    @Test
    public void plainNumbers() {
        assertEquals("0.0", Cells.text(0.0));
        assertEquals("100.0", Cells.text(100.0));
        assertEquals("0.000001", Cells.text(1e-6));
        assertEquals("123456789012345680000.0", Cells.text(1.2345678901234568E20));
        assertEquals("-1.0E22", Cells.text(-1e22));
        assertEquals("0.1", Cells.text(0.1f));
        assertEquals("NaN", Cells.text(Double.NaN));
        assertEquals("12345678901234567890.5", Cells.text(new java.math.BigDecimal("12345678901234567890.5")));
        assertEquals("1000", Cells.text(new java.math.BigDecimal("1E+3")));
    }
}
