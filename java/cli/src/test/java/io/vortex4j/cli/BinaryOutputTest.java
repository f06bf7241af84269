package io.vortex4j.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.BeforeClass;
import org.junit.Test;

/** VARBINARY values print as {@code \x} + hex in table and CSV output, NULL as NULL / empty. */
public class BinaryOutputTest {
    private static final byte[][] BIN = {{0x0a, 0x0b}, null, {}, {(byte) 0xff, 0x00, 0x7f}};
    private static Path dir;

    @BeforeClass
    public static void write() throws Exception {
        dir = Files.createTempDirectory("vortex4j-bin");
        dir.toFile().deleteOnExit();
        Path file = dir.resolve("t.vortex");
        file.toFile().deleteOnExit();
        Schema schema = Schema.of(new Field("id", DataType.INT32, false), new Field("bin", DataType.BINARY, true));
        try (VortexWriter w = VortexWriter.create(file, schema)) {
            w.write(new Batch(schema, BIN.length).set("id", new int[] {0, 1, 2, 3}, null).set("bin", BIN, null));
            w.finish();
        }
    }

    @Test
    public void csvShowsHex() {
        CliTest.Result r = CliTest.run("sql", "--data", dir.toString(), "--format", "csv",
                "SELECT id, bin FROM t ORDER BY id");
        assertEquals(r.out(), 0, r.code());
        assertEquals("id,bin\n0,\\x0a0b\n1,\n2,\\x\n3,\\xff007f\n", r.out());
    }

    @Test
    public void tableShowsHexAndNull() {
        CliTest.Result r = CliTest.run("sql", "--data", dir.toString(), "SELECT id, bin FROM t ORDER BY id");
        assertEquals(r.out(), 0, r.code());
        assertTrue(r.out(), r.out().contains("|  0 | \\x0a0b   |"));
        assertTrue(r.out(), r.out().contains("|  1 | NULL     |"));
        assertTrue(r.out(), r.out().contains("|  3 | \\xff007f |"));
    }

    @Test
    public void aBinaryLiteralFilters() {
        CliTest.Result r = CliTest.run("sql", "--data", dir.toString(), "--format", "csv",
                "SELECT id FROM t WHERE bin = X'FF007F'");
        assertEquals(r.out(), "id\n3\n", r.out());
    }
}
