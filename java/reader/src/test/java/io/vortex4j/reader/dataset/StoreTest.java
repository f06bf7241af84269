package io.vortex4j.reader.dataset;

import static io.vortex4j.reader.dataset.DatasetTest.expected;
import static io.vortex4j.reader.dataset.DatasetTest.folder;
import static io.vortex4j.reader.dataset.DatasetTest.s;
import static io.vortex4j.reader.dataset.DatasetTest.selectedIds;
import static io.vortex4j.reader.dataset.DatasetTest.v;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.SegmentCache;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.stores.S3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongPredicate;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Files and datasets in an S3 store (an S3 API server in this JVM, {@link S3Server}) give the
 * answers of the same files on disk, which {@link DatasetTest} checks against the rows' generator;
 * the store's faults (503, a stalled server, a replaced object, a missing one, wrong credentials)
 * are errors naming the object, or retried.
 */
public class StoreTest {
    private static S3Server server;
    private static final Predicate FILTER = Predicate.and(Predicate.eq("s", "cat"), Predicate.gt("v", 40L));
    private static final LongPredicate KEEP = i -> s(i).equals("cat") && v(i) != null && v(i) > 40;
    /** Reads ahead of a scan land after it closes: figures are taken once none is in flight. */
    private static final java.time.Duration SETTLE = java.time.Duration.ofSeconds(10);

    @BeforeClass
    public static void start() {
        server = S3Server.start();
        for (String bucket : new String[] {"data", "flaky", "stalled", "locked", "apart", "watched", "slow"}) {
            server.createBucket(bucket);
        }
        Stores.configure("s3://data", S3Server.properties(server.endpoint()));
        Map<String, String> apart = new TreeMap<>(S3Server.properties(server.endpoint()));
        apart.put("s3.coalesce_max", "0");
        Stores.configure("s3://apart", apart);
        Map<String, String> flaky = new TreeMap<>(S3Server.properties(server.faultyEndpoint()));
        flaky.put("s3.max_retries", "4");
        Stores.configure("s3://flaky", flaky);
        Stores.configure("s3://watched", S3Server.properties(server.faultyEndpoint()));
        Map<String, String> slow = new TreeMap<>(S3Server.properties(server.faultyEndpoint()));
        slow.put("s3.coalesce_max", "0");
        Stores.configure("s3://slow", slow);
        Map<String, String> stalled = new TreeMap<>(S3Server.properties(server.faultyEndpoint()));
        stalled.put("s3.timeout", "1s");
        stalled.put("s3.max_retries", "1");
        Stores.configure("s3://stalled", stalled);
        Map<String, String> locked = new TreeMap<>(S3Server.properties(server.endpoint()));
        locked.put("s3.secret_access_key", "not-the-secret-xyzzy");
        Stores.configure("s3://locked", locked);
    }

    @AfterClass
    public static void stop() {
        server.close();
    }

    private static Path file(String name, long rows) throws Exception {
        Path p = Fixtures.tempDir().resolve(name);
        DatasetTest.write(p, 0, rows, 1000);
        return p;
    }

    @Test
    public void anObjectReadsAsItsFileOnDisk() throws Exception {
        Path local = file("one.vortex", 30_000);
        server.put("data", "one.vortex", local);
        try (VortexDataset remote = VortexDataset.open("s3://data/one.vortex");
                VortexDataset disk = VortexDataset.open(local);
                VortexFile f = VortexFile.open("s3://data/one.vortex")) {
            assertTrue(remote.isSingleFile());
            assertEquals(disk.schema(), remote.schema());
            assertEquals(30_000, remote.rowCount());
            assertEquals("s3://data/one.vortex", f.location());
            assertEquals(30_000, f.rowCount());
            assertEquals(expected(30_000, i -> true), selectedIds(remote, null, 7000));
            assertEquals(expected(30_000, KEEP), selectedIds(remote, FILTER, 7000));
            assertEquals(disk.count(disk.splits(FILTER), List.of(), FILTER), remote.count(remote.splits(FILTER), List.of(), FILTER));
        }
    }

    @Test
    public void aPrefixAndAGlobOfTenObjectsReadAsTheFolder() throws Exception {
        Path dir = folder(10, 6000);
        server.putTree("data", "ten/", dir);
        server.put("data", "ten/_SUCCESS", file("success", 1));
        for (String location : new String[] {"s3://data/ten", "s3://data/ten/", "s3://data/ten/part-*.vortex"}) {
            try (VortexDataset d = VortexDataset.open(location)) {
                assertEquals(location, 10, d.fileCount());
                assertEquals(6000, d.rowCount());
                assertEquals(expected(6000, i -> true), selectedIds(d, null, 2500));
                assertEquals(expected(6000, KEEP), selectedIds(d, FILTER, 2500));
            }
        }
        try (VortexDataset d = VortexDataset.open("s3://data/ten/part-00[0-4].vortex")) {
            assertEquals(5, d.fileCount());
            assertEquals(expected(3000, KEEP), selectedIds(d, FILTER, 2500));
        }
    }

    /**
     * A dataset's objects open with what their listing said (no HEAD each) and count, several
     * scans opened side by side, as the folder on disk does; an object opened by location alone
     * asks for its HEAD.
     */
    @Test
    public void listedObjectsOpenWithoutAHeadAndCountAsTheFolder() throws Exception {
        Path dir = folder(10, 6000);
        server.putTree("watched", "ten/", dir);
        int heads = server.faults().heads.get();
        try (VortexDataset remote = VortexDataset.open("s3://watched/ten/"); VortexDataset disk = VortexDataset.open(dir)) {
            for (int threads : new int[] {1, 2, 3}) {
                long expected = disk.count(disk.splits(FILTER), List.of("s", "v"), FILTER);
                long counted = 0;
                for (List<Split> batch : VortexDataset.countBatches(remote.splits(FILTER), threads)) {
                    counted += remote.count(batch, List.of("s", "v"), FILTER);
                }
                assertEquals("threads " + threads, expected, counted);
            }
            assertEquals(expected(6000, KEEP).size(), remote.count(remote.splits(FILTER), List.of("s", "v"), FILTER));
            assertEquals(10, remote.openedFiles().size());
        }
        assertEquals("HEAD requests", heads, server.faults().heads.get());
        try (VortexFile f = VortexFile.open("s3://watched/ten/part-003.vortex")) {
            assertEquals(600, f.rowCount());
        }
        assertEquals("HEAD requests", heads + 1, server.faults().heads.get());
    }

    @Test
    public void hivePrefixesArePartitionsAndPruneBeforeOpening() throws Exception {
        Path root = Fixtures.tempDir().resolve("hive");
        int f = 0;
        for (String day : new String[] {"2024-01-01", "2024-01-02"}) {
            for (int part = 0; part < 3; part++) {
                DatasetTest.write(root.resolve("dt=" + day).resolve("part=" + part).resolve("x.vortex"), f * 100L, f * 100L + 100, 100);
                f++;
            }
        }
        server.putTree("data", "hive/", root);
        try (VortexDataset d = VortexDataset.open("s3://data/hive/")) {
            assertEquals(List.of("id", "s", "v", "dt", "part"), d.schema().names());
            Predicate filter = Predicate.and(Predicate.eq("part", 2L), Predicate.eq("dt", java.time.LocalDate.parse("2024-01-02")));
            List<Split> splits = d.splits(filter);
            assertEquals(1, splits.size());
            assertEquals("s3://data/hive/dt=2024-01-02/part=2/x.vortex", splits.get(0).path());
            assertEquals(2, d.openedFiles().size()); // the schema's object and the one kept
            assertEquals(expected(600, i -> i >= 500), selectedIds(d, filter, 1000));
        }
    }

    @Test
    public void aRepeatedQueryFetchesNothing() throws Exception {
        Path local = file("again.vortex", 20_000);
        server.put("data", "again.vortex", local);
        try (VortexDataset d = VortexDataset.open("s3://data/again.vortex")) {
            Stores.Fetched start = Stores.settled(SETTLE);
            assertEquals(expected(20_000, KEEP), selectedIds(d, FILTER, 5000));
            Stores.Fetched first = Stores.settled(SETTLE).since(start);
            assertTrue(first.toString(), first.requests() > 0 && first.bytes() > 0);
            assertTrue(first.toString(), first.bytes() <= Files.size(local));
            Stores.Fetched before = Stores.settled(SETTLE);
            assertEquals(expected(20_000, KEEP), selectedIds(d, FILTER, 5000));
            Stores.Fetched second = Stores.settled(SETTLE).since(before);
            assertEquals(second.toString(), 0, second.requests());
            assertEquals(second.toString(), 0, second.bytes());
        }
    }

    /**
     * A scan closed before its end stops the reads ahead it started: with every request taking
     * 400 ms, the requests in flight when it closes (before any arrived) are aborted at once, and
     * no more start.
     */
    @Test
    public void aScanClosedEarlyStopsItsReadsAhead() throws Exception {
        // Reads ahead wait in the segment cache: give it its default size whatever other tests set.
        SegmentCache.setCapacity((long) SegmentCache.DEFAULT_MIB << 20);
        server.put("slow", "ahead.vortex", file("ahead.vortex", 200_000));
        try (VortexFile f = VortexFile.open("s3://slow/ahead.vortex")) {
            server.faults().delay(400);
            try (Scan scan = f.scan("id", "s", "v")) {
                // The scan starts fetching its segments ahead; it is closed before any arrives.
                assertTrue("reads ahead are running", Stores.fetched().inFlight() > 0);
            }
            Stores.Fetched stopped = Stores.settled(java.time.Duration.ofMillis(200));
            Thread.sleep(600);
            assertEquals("no request started after the scan closed", stopped.requests(), Stores.fetched().requests());
        } finally {
            server.faults().delay(0);
        }
        // A later scan of the object reads it whole and right.
        try (VortexDataset d = VortexDataset.open("s3://slow/ahead.vortex")) {
            assertEquals(expected(200_000, KEEP), selectedIds(d, FILTER, 50_000));
        }
    }

    @Test
    public void anObjectReplacedUnderAScanIsAnErrorNamingIt() throws Exception {
        server.put("data", "changing.vortex", file("a.vortex", 5000));
        try (VortexFile f = VortexFile.open("s3://data/changing.vortex")) {
            server.put("data", "changing.vortex", file("b.vortex", 6000));
            try (Scan scan = f.scan("id", "s")) {
                for (Chunk c : scan) {
                    c.close();
                }
                fail("the scan read an object that changed after it was opened");
            } catch (VortexException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("s3://data/changing.vortex"));
                assertTrue(e.getMessage(), e.getMessage().contains("changed"));
            }
        }
    }

    @Test
    public void aMissingObjectAndWrongCredentialsAreErrorsNamingTheLocationNotTheSecret() throws Exception {
        try {
            VortexFile.open("s3://data/nope.vortex").close();
            fail("opened a missing object");
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("s3://data/nope.vortex"));
            assertTrue(e.getMessage(), e.getMessage().contains("no such object"));
        }
        server.put("locked", "x.vortex", file("locked.vortex", 100));
        try {
            VortexFile.open("s3://locked/x.vortex").close();
            fail("opened an object with the wrong secret");
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("s3://locked/x.vortex"));
            assertFalse(e.getMessage(), e.getMessage().contains("xyzzy"));
            assertFalse(e.getMessage(), e.getMessage().contains(S3Server.SECRET_KEY));
        }
        try {
            Stores.configure("s3://data", Map.of("s3.secret_acess_key", "hunter2"));
            fail("took an unknown property");
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("s3.secret_acess_key"));
            assertFalse(e.getMessage(), e.getMessage().contains("hunter2"));
        }
    }

    @Test
    public void unavailableAnswersAreRetried() throws Exception {
        server.put("flaky", "x.vortex", file("flaky.vortex", 8000));
        int before = server.faults().connections.get();
        server.faults().unavailable(3);
        try (VortexDataset d = VortexDataset.open("s3://flaky/x.vortex")) {
            assertEquals(expected(8000, KEEP), selectedIds(d, FILTER, 8000));
        }
        assertTrue(server.faults().connections.get() - before >= 4);
    }

    @Test
    public void aStalledStoreTimesOutWithAnErrorNamingTheObject() throws Exception {
        server.put("stalled", "x.vortex", file("stalled.vortex", 100));
        server.faults().stalled(true);
        long start = System.nanoTime();
        try {
            VortexFile.open("s3://stalled/x.vortex").close();
            fail("a stalled store answered");
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("s3://stalled/x.vortex"));
        } finally {
            server.faults().stalled(false);
        }
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        assertTrue("took " + seconds + " s", seconds < 20);
    }

    @Test
    public void wholeObjectsGoUpAndComeBackByteForByte() throws Exception {
        java.util.SplittableRandom r = new java.util.SplittableRandom(3);
        // One request, and a multipart upload of three parts (the last a short one).
        for (int size : new int[] {1000, 40 << 20}) {
            byte[] bytes = new byte[size];
            for (int i = 0; i < size; i += 8) {
                long x = r.nextLong();
                for (int k = 0; k < 8 && i + k < size; k++) {
                    bytes[i + k] = (byte) (x >>> (8 * k));
                }
            }
            Path up = Fixtures.tempDir().resolve("up-" + size + ".bin");
            Files.write(up, bytes);
            assertEquals(size, Stores.upload(up, "s3://data/whole/" + size + ".bin"));
            Path down = Fixtures.tempDir().resolve("down-" + size + ".bin");
            assertEquals(size, Stores.download("s3://data/whole/" + size + ".bin", down));
            assertTrue(java.util.Arrays.equals(bytes, Files.readAllBytes(down)));
        }
        try {
            Stores.download("s3://data/whole/none.bin", Fixtures.tempDir().resolve("none.bin"));
            fail("downloaded an object that is not there");
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("s3://data/whole/none.bin"));
            assertFalse(Files.exists(Fixtures.tempDir().resolve("none.bin")));
            assertFalse(Files.exists(Fixtures.tempDir().resolve(".none.bin.partial")));
        }
    }

    @Test
    public void nearbySegmentsShareARequest() throws Exception {
        Path local = file("merged.vortex", 40_000);
        server.put("data", "merged.vortex", local);
        server.put("apart", "merged.vortex", local);
        long[] requests = new long[2];
        String[] buckets = {"data", "apart"};
        for (int i = 0; i < 2; i++) {
            try (VortexDataset d = VortexDataset.open("s3://" + buckets[i] + "/merged.vortex")) {
                Stores.Fetched before = Stores.settled(SETTLE);
                assertEquals(expected(40_000, KEEP), selectedIds(d, FILTER, 40_000));
                requests[i] = Stores.settled(SETTLE).since(before).requests();
            }
        }
        assertTrue("coalesced " + requests[0] + " requests, one per segment " + requests[1], requests[0] < requests[1]);
    }
}
