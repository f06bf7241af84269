package io.vortex4j.cli;

import static io.vortex4j.cli.ConvertExportTest.quote;
import static io.vortex4j.cli.ConvertExportTest.rows;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.Field;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.dataset.VortexDataset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * {@code export} of a Hive-partitioned folder ({@code convert --partition-by region,bucket,dt}
 * of a CSV): the partition columns come out as typed columns (utf8, int64, date) in every
 * format, {@code --columns} may name them anywhere, and {@code --where} on them keeps exactly the
 * rows DuckDB's WHERE keeps over the flat CSV, without reading the files it rules out.
 */
public class ExportPartitionsTest {
    private static final int ROWS = 3_000;
    private static final String[] REGIONS = {"north", "Zürich", "a/b=c", "", "東京", "say \"hi\", ok"};
    private static final String DUCK_COLUMNS = "{'id': 'BIGINT', 'v': 'DOUBLE', 'note': 'VARCHAR', "
            + "'region': 'VARCHAR', 'bucket': 'BIGINT', 'dt': 'DATE'}";

    private static Path dir;
    private static Path csv;
    private static Path parts;
    private static Connection duck;

    @BeforeClass
    public static void setUp() throws Exception {
        dir = Files.createTempDirectory("vortex4j-export-parts");
        csv = dir.resolve("flat.csv");
        StringBuilder b = new StringBuilder("id,v,note,region,bucket,dt\n");
        SplittableRandom r = new SplittableRandom(12);
        for (int i = 0; i < ROWS; i++) {
            String region = r.nextInt(12) == 0 ? "NULL" : quote(REGIONS[r.nextInt(REGIONS.length)]);
            int k = r.nextInt(4);
            String bucket = k == 3 ? "NULL" : new String[] {"-1", "0", "7"}[k];
            String v = r.nextInt(10) == 0 ? "NULL" : Double.toString(r.nextInt(100_000) / 100.0);
            b.append(i).append(',').append(v).append(',').append(quote("n" + r.nextInt(100) + (r.nextBoolean() ? ",x" : "")))
                    .append(',').append(region).append(',').append(bucket).append(",2024-01-0").append(1 + r.nextInt(3))
                    .append('\n');
        }
        Files.writeString(csv, b, StandardCharsets.UTF_8);
        parts = dir.resolve("parts");
        CliTest.Result c = CliTest.run("convert", csv.toString(), parts.toString(), "--null", "NULL",
                "--partition-by", "region,bucket,dt");
        assertEquals(c.err(), 0, c.code());
        Class.forName("org.duckdb.DuckDBDriver");
        duck = DriverManager.getConnection("jdbc:duckdb:");
    }

    @AfterClass
    public static void tearDown() throws Exception {
        duck.close();
        ConvertExportTest.deleteTree(dir);
    }

    private static String flat() {
        return "read_csv('" + csv + "', header = true, nullstr = 'NULL', columns = " + DUCK_COLUMNS + ")";
    }

    private static CliTest.Result export(Path in, Path out, String... args) {
        List<String> all = new ArrayList<>(List.of("export", in.toString()));
        all.addAll(List.of(args));
        all.add(out.toString());
        return CliTest.run(all.toArray(new String[0]));
    }

    /** {@code column:type} of a file DuckDB reads, in column order. */
    private static List<String> duckTypes(String source) throws Exception {
        return rows(duck, "SELECT column_name || ':' || column_type FROM (DESCRIBE SELECT * FROM " + source + ")", false);
    }

    @Test
    public void everyColumnWithItsTypeInParquet() throws Exception {
        Path out = dir.resolve("all.parquet");
        CliTest.Result r = export(parts, out, "--format", "parquet");
        assertEquals(r.err(), 0, r.code());
        String parquet = "read_parquet('" + out + "')";
        // The dataset's columns: the file columns, then the partition columns in folder order.
        assertEquals(List.of("id:BIGINT", "v:DOUBLE", "note:VARCHAR", "region:VARCHAR", "bucket:BIGINT", "dt:DATE"),
                duckTypes(parquet));
        String all = "SELECT id, v, note, region, bucket, dt FROM %s ORDER BY id";
        List<String> expected = rows(duck, String.format(all, flat()), false);
        assertEquals(ROWS, expected.size());
        assertEquals(expected, rows(duck, String.format(all, parquet), false));
        Files.delete(out);
    }

    @Test
    public void partitionColumnsAmongChosenColumnsInCsvAndArrow() throws Exception {
        String cols = "dt,id,region,v,bucket";
        String query = "SELECT dt, id, region, v, bucket FROM %s ORDER BY id";
        List<String> expected = rows(duck, String.format(query, flat()), false);

        Path outCsv = dir.resolve("chosen.csv");
        CliTest.Result r = export(parts, outCsv, "--format", "csv", "--columns", cols, "--null", "NULL");
        assertEquals(r.err(), 0, r.code());
        assertEquals("dt,id,region,v,bucket", Files.readAllLines(outCsv, StandardCharsets.UTF_8).get(0));
        String back = "read_csv('" + outCsv + "', header = true, nullstr = 'NULL', columns = "
                + "{'dt': 'DATE', 'id': 'BIGINT', 'region': 'VARCHAR', 'v': 'DOUBLE', 'bucket': 'BIGINT'})";
        assertEquals(expected, rows(duck, String.format(query, back), false));

        // Arrow IPC: DuckDB cannot read it here, so it is converted back and read through the
        // reader; the answers still come from DuckDB over the flat CSV.
        Path outArrow = dir.resolve("chosen.arrow");
        r = export(parts, outArrow, "--format", "arrow", "--columns", cols);
        assertEquals(r.err(), 0, r.code());
        Path again = dir.resolve("again");
        Files.createDirectories(again);
        assertEquals(0, CliTest.run("convert", outArrow.toString(), again.resolve("t.vortex").toString()).code());
        try (VortexFile f = VortexFile.open(again.resolve("t.vortex"))) {
            List<String> types = new ArrayList<>();
            for (Field field : f.schema().fields()) {
                types.add(field.name() + ":" + field.type().kind());
            }
            assertEquals(List.of("dt:DATE", "id:INT64", "region:UTF8", "v:FLOAT64", "bucket:INT64"), types);
        }
        try (Connection c = io.vortex4j.calcite.VortexSql.connect(again, true)) {
            assertEquals(expected, rows(c, String.format(query, "t"), false));
        }
    }

    @Test
    public void whereOnPartitionColumnsKeepsWhatSqlKeeps() throws Exception {
        String[] conditions = {
            "region = 'Zürich'",
            "bucket >= 0 AND v > 500",
            "dt = DATE '2024-01-02' OR region IS NULL",
            "bucket IS NULL AND region IN ('', 'a/b=c', '東京')",
            "NOT (bucket = 7) AND dt <> DATE '2024-01-03'",
        };
        for (String where : conditions) {
            Path out = dir.resolve("where.parquet");
            CliTest.Result r = export(parts, out, "--format", "parquet", "--columns", "id,region,bucket,dt", "--where", where);
            assertEquals(where + ": " + r.err(), 0, r.code());
            List<String> expected = rows(duck, "SELECT id, region, bucket, dt FROM " + flat() + " WHERE " + where + " ORDER BY id", false);
            assertTrue(where, !expected.isEmpty() && expected.size() < ROWS);
            assertEquals(where, expected, rows(duck, "SELECT * FROM read_parquet('" + out + "') ORDER BY id", false));
            Files.delete(out);
        }
    }

    @Test
    public void filesRuledOutByTheirFoldersAreNotRead() throws Exception {
        Path copy = dir.resolve("copy");
        assertEquals(0, CliTest.run("convert", csv.toString(), copy.toString(), "--null", "NULL",
                "--partition-by", "region,bucket,dt").code());
        // Break every file of bucket 7 that is not the dataset's first file (whose footer gives the schema).
        String first;
        List<Path> broken = new ArrayList<>();
        try (VortexDataset d = VortexDataset.open(copy)) {
            first = d.openedFiles().iterator().next();
            for (var f : d.files()) {
                if (Long.valueOf(7).equals(f.partitionValues().get("bucket")) && !f.path().equals(first)) {
                    broken.add(Path.of(f.path()));
                }
            }
        }
        assertTrue(broken.size() > 5);
        for (Path p : broken) {
            Files.write(p, "not a vortex file".getBytes(StandardCharsets.UTF_8));
        }
        Path out = dir.resolve("pruned.csv");
        String where = "bucket <> 7 AND region = 'north'";
        CliTest.Result r = export(copy, out, "--format", "csv", "--columns", "id,bucket", "--null", "NULL", "--where", where);
        assertEquals(r.err(), 0, r.code());
        String back = "read_csv('" + out + "', header = true, nullstr = 'NULL', columns = {'id': 'BIGINT', 'bucket': 'BIGINT'})";
        assertEquals(rows(duck, "SELECT id, bucket FROM " + flat() + " WHERE " + where + " ORDER BY id", false),
                rows(duck, "SELECT * FROM " + back + " ORDER BY id", false));
        // Without the condition the broken files are read, and the export fails naming one of them.
        CliTest.Result failed = export(copy, dir.resolve("all.csv"), "--format", "csv");
        assertTrue(failed.code() != 0);
        assertTrue(failed.err(), failed.err().contains("bucket=7"));
        assertTrue(!Files.exists(dir.resolve("all.csv")));
    }
}
