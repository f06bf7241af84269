package io.vortex4j.reader.dataset;

import static io.vortex4j.reader.dataset.DatasetTest.expected;
import static io.vortex4j.reader.dataset.DatasetTest.s;
import static io.vortex4j.reader.dataset.DatasetTest.selectedIds;
import static io.vortex4j.reader.dataset.DatasetTest.v;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vortex4j.VortexException;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.predicate.Predicate;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Files served over HTTP (a web server in this JVM answering HEAD, ranged GET and {@code
 * If-Match}, as static file servers and CDNs do) read as the same files on disk; a missing file
 * and a file replaced under a scan are errors naming the URL.
 */
public class HttpStoreTest {
    private static final Predicate FILTER = Predicate.and(Predicate.eq("s", "cat"), Predicate.gt("v", 40L));
    private static final LongPredicate KEEP = i -> s(i).equals("cat") && v(i) != null && v(i) > 40;
    private static HttpServer server;
    private static Path root;
    private static String base;

    @BeforeClass
    public static void start() throws IOException {
        root = Files.createDirectories(Fixtures.tempDir().resolve("http"));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", HttpStoreTest::serve);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        Stores.configure(base, Map.of("http.allow_http", "true"));
    }

    @AfterClass
    public static void stop() {
        server.stop(0);
    }

    /** A static file server: HEAD, GET of a byte range, ETag and If-Match, Last-Modified. */
    private static void serve(HttpExchange x) throws IOException {
        try (x) {
            Path file = root.resolve(x.getRequestURI().getPath().substring(1)).normalize();
            if (!file.startsWith(root) || !Files.isRegularFile(file)) {
                x.sendResponseHeaders(404, -1);
                return;
            }
            byte[] bytes = Files.readAllBytes(file);
            Instant modified = Files.getLastModifiedTime(file).toInstant();
            String etag = "\"" + bytes.length + "-" + modified.toEpochMilli() + "\"";
            x.getResponseHeaders().set("ETag", etag);
            x.getResponseHeaders().set("Last-Modified",
                    DateTimeFormatter.RFC_1123_DATE_TIME.format(modified.atOffset(ZoneOffset.UTC)));
            x.getResponseHeaders().set("Accept-Ranges", "bytes");
            String ifMatch = x.getRequestHeaders().getFirst("If-Match");
            if (ifMatch != null && !ifMatch.equals(etag)) {
                x.sendResponseHeaders(412, -1);
                return;
            }
            if (x.getRequestMethod().equals("HEAD")) {
                x.getResponseHeaders().set("Content-Length", String.valueOf(bytes.length));
                x.sendResponseHeaders(200, -1);
                return;
            }
            if (!x.getRequestMethod().equals("GET")) {
                x.sendResponseHeaders(405, -1);
                return;
            }
            int from = 0;
            int to = bytes.length - 1;
            String range = x.getRequestHeaders().getFirst("Range");
            if (range != null) {
                String[] r = range.substring("bytes=".length()).split("-", -1);
                if (r[0].isEmpty()) {
                    from = Math.max(0, bytes.length - Integer.parseInt(r[1]));
                } else {
                    from = Integer.parseInt(r[0]);
                    to = r[1].isEmpty() ? to : Math.min(to, Integer.parseInt(r[1]));
                }
                x.getResponseHeaders().set("Content-Range", "bytes " + from + "-" + to + "/" + bytes.length);
            }
            x.sendResponseHeaders(range != null ? 206 : 200, to - from + 1);
            try (OutputStream out = x.getResponseBody()) {
                out.write(bytes, from, to - from + 1);
            }
        }
    }

    private static Path file(String name, long rows) throws Exception {
        Path p = root.resolve(name);
        DatasetTest.write(p, 0, rows, 1000);
        return p;
    }

    @Test
    public void aFileOverHttpReadsAsOnDisk() throws Exception {
        Path local = file("one.vortex", 30_000);
        try (VortexDataset remote = VortexDataset.open(base + "/one.vortex");
                VortexDataset disk = VortexDataset.open(local);
                VortexFile f = VortexFile.open(base + "/one.vortex")) {
            assertTrue(remote.isSingleFile());
            assertEquals(disk.schema(), remote.schema());
            assertEquals(30_000, f.rowCount());
            assertEquals(expected(30_000, i -> true), selectedIds(remote, null, 7000));
            assertEquals(expected(30_000, KEEP), selectedIds(remote, FILTER, 7000));
            assertEquals(disk.count(disk.splits(FILTER), List.of(), FILTER), remote.count(remote.splits(FILTER), List.of(), FILTER));
        }
    }

    @Test
    public void aMissingOrReplacedFileIsAnErrorNamingTheUrl() throws Exception {
        try {
            VortexFile.open(base + "/nope.vortex").close();
            fail("opened a missing file");
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(base + "/nope.vortex"));
        }
        Path changing = file("changing.vortex", 5000);
        try (VortexFile f = VortexFile.open(base + "/changing.vortex")) {
            DatasetTest.write(changing, 0, 6000, 1000);
            Files.setLastModifiedTime(changing, java.nio.file.attribute.FileTime.from(Instant.now().plusSeconds(5)));
            try (Scan scan = f.scan("id", "s")) {
                for (Chunk c : scan) {
                    c.close();
                }
                fail("the scan read a file that changed after it was opened");
            } catch (VortexException e) {
                assertTrue(e.getMessage(), e.getMessage().contains(base + "/changing.vortex"));
                assertTrue(e.getMessage(), e.getMessage().contains("changed"));
            }
        }
    }
}
