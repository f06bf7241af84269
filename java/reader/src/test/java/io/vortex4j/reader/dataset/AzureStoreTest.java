package io.vortex4j.reader.dataset;

import static io.vortex4j.reader.dataset.DatasetTest.expected;
import static io.vortex4j.reader.dataset.DatasetTest.folder;
import static io.vortex4j.reader.dataset.DatasetTest.s;
import static io.vortex4j.reader.dataset.DatasetTest.selectedIds;
import static io.vortex4j.reader.dataset.DatasetTest.v;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.predicate.Predicate;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Files and datasets in Azure Blob Storage ({@code az://}) as served by Azurite, Microsoft's
 * storage emulator (npm {@code azurite}, started by this test on 127.0.0.1 with its data in
 * memory; {@code .ci/run} installs it, {@code -Dvortex4j.test.azurite} names its {@code
 * azurite-blob}): uploaded with {@link Stores#upload}, they read and count as the same files on
 * disk, and a missing blob is an error naming it.
 */
public class AzureStoreTest {
    /** Azurite's well-known development account and key. */
    private static final String ACCOUNT = "devstoreaccount1";
    private static final String KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private static final Predicate FILTER = Predicate.and(Predicate.eq("s", "cat"), Predicate.gt("v", 40L));
    private static final LongPredicate KEEP = i -> s(i).equals("cat") && v(i) != null && v(i) > 40;
    private static Process azurite;
    private static String endpoint;

    @BeforeClass
    public static void start() throws Exception {
        String blob = System.getProperty("vortex4j.test.azurite");
        Assume.assumeTrue("Azurite is not installed (npm azurite; .ci/run installs it)",
                blob != null && Files.isExecutable(Path.of(blob)));
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        // `timeout`: the emulator stops by itself should this JVM die without stopping it.
        azurite = new ProcessBuilder("timeout", "1800", blob, "--blobHost", "127.0.0.1", "--blobPort",
                String.valueOf(port), "--inMemoryPersistence", "--silent", "--skipApiVersionCheck")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!listening(port)) {
            if (!azurite.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("Azurite did not start on port " + port);
            }
            Thread.sleep(100);
        }
        endpoint = "http://127.0.0.1:" + port + "/" + ACCOUNT;
        createContainer("data");
        Stores.configure("az://data", Map.of("az.account_name", ACCOUNT, "az.access_key", KEY,
                "az.endpoint", endpoint, "az.allow_http", "true"));
    }

    @AfterClass
    public static void stop() {
        if (azurite != null) {
            azurite.destroy();
        }
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Creates a container with a request signed by the account's key (Azure's Shared Key). */
    private static void createContainer(String name) throws Exception {
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
        String version = "2021-08-06";
        String type = "application/octet-stream";
        String toSign = "PUT\n\n\n\n\n" + type + "\n\n\n\n\n\n\n" + "x-ms-date:" + date + "\nx-ms-version:" + version
                + "\n/" + ACCOUNT + "/" + ACCOUNT + "/" + name + "\nrestype:container";
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(KEY), "HmacSHA256"));
        String signature = Base64.getEncoder().encodeToString(mac.doFinal(toSign.getBytes(StandardCharsets.UTF_8)));
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint + "/" + name + "?restype=container"))
                .PUT(HttpRequest.BodyPublishers.noBody()).header("Content-Type", type).header("x-ms-date", date)
                .header("x-ms-version", version).header("Authorization", "SharedKey " + ACCOUNT + ":" + signature)
                .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(response.body(), 201, response.statusCode());
    }

    @Test
    public void filesAndFoldersInAzureReadAsOnDisk() throws Exception {
        Path dir = folder(10, 6000);
        for (int f = 0; f < 10; f++) {
            String name = String.format("part-%03d.vortex", f);
            Stores.upload(dir.resolve(name), "az://data/ten/" + name);
        }
        try (VortexDataset remote = VortexDataset.open("az://data/ten/"); VortexDataset disk = VortexDataset.open(dir)) {
            assertEquals(10, remote.fileCount());
            assertEquals(disk.schema(), remote.schema());
            assertEquals(expected(6000, i -> true), selectedIds(remote, null, 2500));
            assertEquals(expected(6000, KEEP), selectedIds(remote, FILTER, 2500));
            assertEquals(disk.count(disk.splits(FILTER), List.of("s", "v"), FILTER),
                    remote.count(remote.splits(FILTER), List.of("s", "v"), FILTER));
        }
        try (VortexFile f = VortexFile.open("az://data/ten/part-004.vortex")) {
            assertEquals(600, f.rowCount());
        }
    }

    @Test
    public void aMissingBlobIsAnErrorNamingIt() {
        try {
            VortexFile.open("az://data/nope.vortex").close();
            fail("opened a missing blob");
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("az://data/nope.vortex"));
            assertTrue(e.getMessage(), e.getMessage().contains("no such object"));
        }
    }
}
