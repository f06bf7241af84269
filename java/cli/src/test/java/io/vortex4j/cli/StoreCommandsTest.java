package io.vortex4j.cli;

import static io.vortex4j.cli.ConvertExportTest.rows;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.vortex4j.reader.Stores;
import io.vortex4j.reader.dataset.Listing;
import io.vortex4j.reader.dataset.ListedFile;
import io.vortex4j.reader.stores.S3Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The file commands on locations in an S3 API server (S3Proxy, started here): {@code schema},
 * {@code stats} and {@code inspect} print what they print for the same local file, {@code
 * export} writes to the store what it writes locally, and {@code convert} reads its input from
 * the store and writes its output there, read back equal to a local conversion.
 */
public class StoreCommandsTest {
    private static final int ROWS = 5_000;
    private static S3Server server;
    private static Path dir;
    private static Path csv;
    private static Path local;

    @BeforeClass
    public static void setUp() throws Exception {
        server = S3Server.start();
        server.createBucket("cli");
        Stores.configure("s3://cli", S3Server.properties(server.endpoint()));
        dir = Files.createTempDirectory("vortex4j-cli-store");
        csv = dir.resolve("trades.csv");
        StringBuilder b = new StringBuilder("id,sym,price,volume\n");
        SplittableRandom r = new SplittableRandom(7);
        String[] syms = {"AAPL", "MSFT", "NVDA", "Zürich AG"};
        for (int i = 0; i < ROWS; i++) {
            b.append(i).append(',').append(r.nextInt(15) == 0 ? "NULL" : syms[r.nextInt(syms.length)]).append(',')
                    .append(r.nextInt(100_000) / 100.0).append(',').append(r.nextInt(10_000)).append('\n');
        }
        Files.writeString(csv, b, StandardCharsets.UTF_8);
        Files.createDirectories(dir.resolve("t"));
        local = dir.resolve("t").resolve("t.vortex");
        assertOk(CliTest.run("convert", csv.toString(), local.toString(), "--null", "NULL"));
        server.put("cli", "t/t.vortex", local);
        server.put("cli", "in/trades.csv", csv);
    }

    @AfterClass
    public static void tearDown() throws Exception {
        server.close();
        ConvertExportTest.deleteTree(dir);
    }

    private static CliTest.Result assertOk(CliTest.Result r) {
        assertEquals(r.err(), 0, r.code());
        return r;
    }

    @Test
    public void schemaStatsAndInspectOfAnObjectEqualTheLocalFile() {
        for (String command : new String[] {"schema", "stats"}) {
            for (String where : new String[] {"", "/"}) {
                String remote = assertOk(CliTest.run(command, "s3://cli/t" + where, "--format", "csv")).out();
                assertEquals(command, assertOk(CliTest.run(command, dir.resolve("t").toString(), "--format", "csv")).out(), remote);
            }
            assertEquals(command, assertOk(CliTest.run(command, local.toString(), "--format", "csv")).out(),
                    assertOk(CliTest.run(command, "s3://cli/t/t.vortex", "--format", "csv")).out());
        }
        String remote = assertOk(CliTest.run("inspect", "s3://cli/t/t.vortex")).out();
        String expected = assertOk(CliTest.run("inspect", local.toString())).out();
        assertTrue(remote, remote.startsWith("file     s3://cli/t/t.vortex\n"));
        assertEquals(expected.substring(expected.indexOf('\n')), remote.substring(remote.indexOf('\n')));
    }

    @Test
    public void exportWritesToTheStoreWhatItWritesLocally() throws Exception {
        for (String format : new String[] {"csv", "parquet"}) {
            Path here = dir.resolve("aapl." + format);
            assertOk(CliTest.run("export", local.toString(), "--format", format, "--where", "sym = 'AAPL' AND volume > 100",
                    here.toString()));
            String object = "s3://cli/out/aapl." + format;
            assertOk(CliTest.run("export", "s3://cli/t/", "--format", format, "--where", "sym = 'AAPL' AND volume > 100",
                    object));
            Path back = dir.resolve("back." + format);
            Stores.download(object, back);
            assertTrue(format, Files.size(back) > 0);
            assertTrue(format, java.util.Arrays.equals(Files.readAllBytes(here), Files.readAllBytes(back)));
        }
    }

    @Test
    public void convertReadsFromAndWritesToTheStore() throws Exception {
        assertOk(CliTest.run("convert", "s3://cli/in/trades.csv", "s3://cli/conv/t.vortex", "--null", "NULL"));
        String q = "SELECT id, sym, price, volume FROM t ORDER BY id";
        try (Connection here = DriverManager.getConnection("jdbc:vortex:" + dir.resolve("t"));
             Connection there = DriverManager.getConnection("jdbc:vortex:s3://cli/conv")) {
            List<String> expected = rows(here, q, false);
            assertEquals(ROWS, expected.size());
            assertEquals(expected, rows(there, q, false));
        }
        // A prefix of inputs, into a folder of files in the store.
        server.put("cli", "in2/a.csv", csv);
        server.put("cli", "in2/b.csv", csv);
        assertOk(CliTest.run("convert", "s3://cli/in2/", "s3://cli/many", "--null", "NULL", "--max-rows-per-file", "2000"));
        List<ListedFile> written = Listing.list("s3://cli/many/").files();
        assertEquals(5, written.size()); // 10,000 rows, 2,000 per file
        String sums = "SELECT count(*), count(sym), sum(volume), min(price), max(price) FROM %s";
        try (Connection here = DriverManager.getConnection("jdbc:vortex:" + dir.resolve("t"));
             Connection there = DriverManager.getConnection("jdbc:vortex:s3://cli/")) {
            List<String> once = rows(here, String.format(sums, "t"), false);
            List<String> twice = rows(there, String.format(sums, "many"), false);
            String[] a = once.get(0).split("\\|");
            String[] b = twice.get(0).split("\\|");
            assertEquals(2 * Long.parseLong(a[0]), Long.parseLong(b[0]));
            assertEquals(2 * Long.parseLong(a[1]), Long.parseLong(b[1]));
            assertEquals(2 * Long.parseLong(a[2]), Long.parseLong(b[2]));
            assertEquals(a[3], b[3]);
            assertEquals(a[4], b[4]);
        }
    }

    @Test
    public void aStoreFailureNamesTheLocationAndLeavesNothing() throws Exception {
        // A bucket the server does not have (configured, so nothing leaves the machine).
        Stores.configure("s3://missing", S3Server.properties(server.endpoint()));
        CliTest.Result r = CliTest.run("export", local.toString(), "--format", "csv", "s3://missing/x.csv");
        assertNotEquals(0, r.code());
        assertTrue(r.err(), r.err().contains("s3://missing/x.csv"));
        assertFalse(r.err(), r.err().contains(S3Server.SECRET_KEY));
        r = CliTest.run("convert", "s3://cli/in/none.csv", "s3://cli/conv/none.vortex");
        assertNotEquals(0, r.code());
        assertTrue(r.err(), r.err().contains("s3://cli/in/none.csv"));
        assertTrue(Listing.list("s3://cli/").files().stream().noneMatch(f -> f.path().contains("none")));
    }
}
