package io.vortex4j.reader.dataset;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.Test;

/**
 * Datasets against an independent answer: the rows are generated here (row {@code i} has {@code
 * id = i}, {@code s = WORDS[i % 7]}, {@code v = i * 3 % 101}, null every 13th row), so every
 * count, sum and row set is computed from the generator, not from the reader.
 */
public class DatasetTest {
    private static final String[] WORDS = {"ant", "bee", "cat", "dog", "eel", "fox", "gnu"};
    private static final Schema SCHEMA = Schema.of(new Field("id", DataType.INT64, false),
            new Field("s", DataType.UTF8, false), new Field("v", DataType.INT64, true));

    static String s(long i) {
        return WORDS[(int) (i % WORDS.length)];
    }

    static Long v(long i) {
        return i % 13 == 0 ? null : i * 3 % 101;
    }

    /** Writes rows {@code [from, to)} in batches of {@code batch} rows. */
    public static void write(Path path, long from, long to, int batch) throws Exception {
        Files.createDirectories(path.getParent());
        try (VortexWriter w = VortexWriter.create(path, SCHEMA)) {
            for (long b = from; b < to; b += batch) {
                int n = (int) Math.min(batch, to - b);
                long[] id = new long[n];
                String[] s = new String[n];
                long[] v = new long[n];
                boolean[] valid = new boolean[n];
                for (int i = 0; i < n; i++) {
                    id[i] = b + i;
                    s[i] = s(b + i);
                    Long x = v(b + i);
                    valid[i] = x != null;
                    v[i] = x == null ? 0 : x;
                }
                w.write(new Batch(SCHEMA, n).set("id", id).set("s", s).set("v", v, valid));
            }
            w.finish();
        }
    }

    /** A folder of {@code files} files holding rows {@code [0, rows)} in order. */
    static Path folder(int files, long rows) throws Exception {
        Path dir = Fixtures.tempDir().resolve("n" + files);
        for (int f = 0; f < files; f++) {
            write(dir.resolve(String.format("part-%03d.vortex", f)), rows * f / files, rows * (f + 1) / files, 1000);
        }
        return dir;
    }

    /** Every selected row of the dataset as {@code id}s, in split order, checking s and v on the way. */
    static List<Long> selectedIds(VortexDataset d, Predicate filter, long target) {
        List<Long> ids = new ArrayList<>();
        for (Split split : d.splits(filter, target)) {
            try (Scan scan = d.scan(split, List.of("id", "s", "v"), filter)) {
                for (Chunk c : scan) {
                    try (c) {
                        Bitmap sel = scan.chunkFilter() == null ? null : Compute.selection(c, scan.chunkFilter());
                        for (int r = 0; r < c.length(); r++) {
                            if (sel == null || sel.get(r)) {
                                long id = (Long) Values.valueAt(c.column(0), r);
                                assertEquals(s(id), Values.valueAt(c.column(1), r));
                                assertEquals(v(id), Values.valueAt(c.column(2), r));
                                ids.add(id);
                            }
                        }
                    }
                }
            }
        }
        return ids;
    }

    static List<Long> expected(long rows, LongPredicate keep) {
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < rows; i++) {
            if (keep.test(i)) {
                ids.add(i);
            }
        }
        return ids;
    }

    /** A key or value encoded for a folder name parses back to itself, whatever characters it holds. */
    @Test
    public void partitionFolderNamesRoundTrip() {
        for (String v : List.of("plain", "a/b", "50%", "k=v", "x:y?z#", "tab\tend", "ünï cödé", "[{\"q'}]", "", "%2F")) {
            String folder = HivePartitions.encode("key " + v) + "=" + HivePartitions.encode(v);
            assertFalse(folder, folder.contains("/"));
            assertEquals(folder, folder.indexOf('='), folder.lastIndexOf('='));
            String[] parsed = HivePartitions.parse(folder);
            assertEquals("key " + v, parsed[0]);
            assertEquals(v, parsed[1]);
        }
    }

    @Test
    public void folderOfNFilesEqualsOneFile() throws Exception {
        long rows = 6000;
        Predicate filter = Predicate.and(Predicate.eq("s", "cat"), Predicate.gt("v", 40L));
        LongPredicate keep = i -> s(i).equals("cat") && v(i) != null && v(i) > 40;
        for (int n : new int[] {1, 10, 100}) {
            try (VortexDataset d = VortexDataset.open(folder(n, rows))) {
                assertEquals(n, d.files().size());
                assertEquals(rows, d.rowCount());
                assertEquals(SCHEMA.names(), d.schema().names());
                assertEquals(expected(rows, i -> true), selectedIds(d, null, 2500));
                assertEquals(expected(rows, keep), selectedIds(d, filter, 2500));
                assertEquals(expected(rows, keep), selectedIds(d, filter, VortexDataset.DEFAULT_TARGET_ROWS));
            }
        }
    }

    @Test
    public void singleFileDatasetIsTheFile() throws Exception {
        Path p = Fixtures.tempDir().resolve("one.vortex");
        write(p, 0, 3000, 700);
        try (VortexDataset d = VortexDataset.open(p); VortexFile f = VortexFile.open(p)) {
            assertEquals(f.schema(), d.schema());
            assertEquals(f.rowCount(), d.rowCount());
            assertTrue(d.partitionColumns().isEmpty());
            List<Split> splits = d.splits(null);
            assertEquals(1, splits.size());
            assertTrue(splits.get(0).isWholeFile());
            assertEquals(expected(3000, i -> true), selectedIds(d, null, 1));
        }
    }

    @Test
    public void hivePartitionsAreTypedAndPruneBeforeOpening() throws Exception {
        Path root = Fixtures.tempDir().resolve("hive");
        String[] days = {"2024-01-01", "2024-01-02", "2024-01-03"};
        String[] cities = {"New%20York", "Paris", "__HIVE_DEFAULT_PARTITION__"};
        int f = 0;
        for (String day : days) {
            for (int part = 0; part < 2; part++) {
                for (String city : cities) {
                    write(root.resolve("dt=" + day).resolve("part=" + part).resolve("city=" + city).resolve("x.vortex"),
                            f * 100L, f * 100L + 100, 100);
                    f++;
                }
            }
        }
        Files.writeString(root.resolve("_SUCCESS"), "");
        Files.writeString(root.resolve("dt=2024-01-01").resolve(".x.vortex.crc"), "junk");
        try (VortexDataset d = VortexDataset.open(root)) {
            assertEquals(List.of("id", "s", "v", "dt", "part", "city"), d.schema().names());
            assertEquals(DataType.DATE, d.schema().field("dt").type());
            assertEquals(DataType.INT64, d.schema().field("part").type());
            assertEquals(DataType.UTF8, d.schema().field("city").type());
            assertTrue(d.schema().field("city").nullable());
            assertFalse(d.schema().field("part").nullable());
            assertEquals(1, d.openedFiles().size()); // the schema's file only

            Predicate filter = Predicate.and(Predicate.eq("part", 1L), Predicate.eq("dt", LocalDate.parse("2024-01-02")),
                    Predicate.isNull("city"));
            List<Split> splits = d.splits(filter);
            assertEquals(1, splits.size());
            Split only = splits.get(0);
            assertTrue(only.path().endsWith("dt=2024-01-02/part=1/city=__HIVE_DEFAULT_PARTITION__/x.vortex"));
            assertNull(only.partitionValues().get("city"));
            assertEquals(1L, only.partitionValues().get("part"));
            // Pruned files were never opened: the schema's file and the one kept.
            Set<String> opened = d.openedFiles();
            assertEquals(new HashSet<>(Arrays.asList(d.files().get(0).path(), only.path())).size(), opened.size());
            assertTrue(opened.contains(only.path()));
            // File 3*2*... index: day 1, part 1, city null -> the 11th file (0-based), ids 1100..1199.
            assertEquals(expected(1200, i -> i >= 1100), selectedIds(d, filter, 1000));

            Predicate city = Predicate.eq("city", "New York");
            assertEquals(6, d.splits(city).size());
            // A mixed filter: partition OR file column keeps every file, rows decided per file.
            Predicate mixed = Predicate.or(Predicate.eq("city", "Paris"), Predicate.eq("s", "ant"));
            LongPredicate keep = i -> (i / 100) % 3 == 1 || s(i).equals("ant");
            assertEquals(expected(1800, keep), selectedIds(d, mixed, 1000));
            try (Scan scan = d.scan(only, List.of("id"), null)) {
                assertEquals(only, scan.split());
            }
            try {
                d.scan(only, List.of("part"), null);
                fail("a partition column is not a chunk column");
            } catch (VortexException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("'part' is a partition column"));
            }
        }
    }

    @Test
    public void globsSelectFiles() throws Exception {
        Path root = Fixtures.tempDir().resolve("glob");
        write(root.resolve("a/x=1/f.vortex"), 0, 10, 10);
        write(root.resolve("a/x=2/f.vortex"), 10, 20, 10);
        write(root.resolve("b/x=3/f.vortex"), 20, 30, 10);
        Files.writeString(root.resolve("a/x=1/notes.txt"), "not vortex");
        try (VortexDataset d = VortexDataset.open(root.resolve("*/x=*/*.vortex"))) {
            assertEquals(3, d.files().size());
            assertEquals(List.of("id", "s", "v", "x"), d.schema().names());
            assertEquals(expected(30, i -> i >= 20), selectedIds(d, Predicate.ge("x", 3L), 100));
        }
        try (VortexDataset d = VortexDataset.open(root.resolve("a/**.vortex"))) {
            assertEquals(2, d.files().size());
        }
    }

    private static void expectError(String fragment, Runnable r) {
        try {
            r.run();
            fail("expected an error containing " + fragment);
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(fragment));
        }
    }

    @Test
    public void errorsNameTheFileAndProblem() throws Exception {
        Path empty = Files.createDirectories(Fixtures.tempDir().resolve("empty"));
        Files.writeString(empty.resolve("_SUCCESS"), "");
        expectError("no files in the folder", () -> VortexDataset.open(empty));
        expectError("no such file or folder", () -> VortexDataset.open(empty.resolve("nope")));
        expectError("no files match", () -> VortexDataset.open(empty.resolve("*.vortex")));

        Path mixed = Fixtures.tempDir().resolve("mixed");
        write(mixed.resolve("a.vortex"), 0, 10, 10);
        Files.writeString(mixed.resolve("b.txt"), "hello, I am not a Vortex file at all........");
        try (VortexDataset d = VortexDataset.open(mixed)) {
            expectError("b.txt", d::rowCount);
        }

        Path other = Fixtures.tempDir().resolve("other");
        write(other.resolve("a.vortex"), 0, 10, 10);
        Schema missing = Schema.of(new Field("id", DataType.INT64, false), new Field("s", DataType.UTF8, false));
        try (VortexWriter w = VortexWriter.create(other.resolve("b.vortex"), missing)) {
            w.write(new Batch(missing, 1).set("id", new long[] {1}).set("s", new String[] {"x"}));
            w.finish();
        }
        Schema retyped = Schema.of(new Field("id", DataType.INT64, false), new Field("s", DataType.UTF8, false),
                new Field("v", DataType.INT32, true));
        try (VortexWriter w = VortexWriter.create(other.resolve("c.vortex"), retyped)) {
            w.write(new Batch(retyped, 1).set("id", new long[] {1}).set("s", new String[] {"x"}).set("v", new int[] {1}));
            w.finish();
        }
        try (VortexDataset d = VortexDataset.open(other)) {
            expectError("b.vortex: has no column 'v'", () -> d.splits(null));
        }
        try (VortexDataset d = VortexDataset.open(other.resolve("{a,c}.vortex"))) {
            expectError("c.vortex: column 'v' is i32, but i64", () -> d.splits(null));
            expectError("unknown column 'w'", () -> d.splits(Predicate.eq("w", 1L)));
        }

        Path gone = Fixtures.tempDir().resolve("gone");
        write(gone.resolve("a.vortex"), 0, 10, 10);
        write(gone.resolve("b.vortex"), 10, 20, 10);
        try (VortexDataset d = VortexDataset.open(gone)) {
            Files.delete(gone.resolve("b.vortex"));
            expectError("b.vortex: no such file (it disappeared", d::rowCount);
        }
        write(gone.resolve("b.vortex"), 10, 20, 10);
        try (VortexDataset d = VortexDataset.open(gone)) {
            Split split = d.splits(null).get(1);
            Files.setLastModifiedTime(gone.resolve("b.vortex"), FileTime.fromMillis(split.modifiedMillis() + 5000));
            expectError("b.vortex: the file changed after the split was planned", () -> d.scan(split, List.of(), null));
            expectError("changed after the split was planned", () -> VortexDataset.scanSplit(split, List.of(), null));
        }

        // The dataset checks the file it opened (fstat): a file moved over it, even of the same size
        // and modification time, or deleted after planning opened it, is refused.
        Path replaced = Fixtures.tempDir().resolve("replaced");
        write(replaced.resolve("a.vortex"), 0, 10, 10);
        write(replaced.resolve("b.vortex"), 10, 20, 10);
        try (VortexDataset d = VortexDataset.open(replaced)) {
            Split split = d.splits(null).get(1);
            assertEquals(LongStream.range(10, 20).boxed().collect(Collectors.toList()), ids(d.scan(split, List.of("id"), null)));
            write(replaced.resolve("new.tmp"), 10, 20, 10);
            Files.setLastModifiedTime(replaced.resolve("new.tmp"), FileTime.fromMillis(split.modifiedMillis()));
            assertEquals(split.fileSize(), Files.size(replaced.resolve("new.tmp")));
            Files.move(replaced.resolve("new.tmp"), replaced.resolve("b.vortex"), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            expectError("b.vortex: no such file (it was deleted or replaced after the split was planned)",
                    () -> d.scan(split, List.of("id"), null));
            Files.delete(replaced.resolve("a.vortex"));
            expectError("a.vortex: no such file (it was deleted or replaced", () -> d.scan(d.splits(null).get(0), List.of("id"), null));
        }
    }

    /** Random layouts: splits tile every file's rows exactly once, in order, chunks inside their split. */
    @Test
    public void splitsCoverEveryRowOnce() throws Exception {
        Random random = new Random(20261201);
        for (int round = 0; round < 4; round++) {
            Path dir = Fixtures.tempDir().resolve("layout" + round);
            int files = 1 + random.nextInt(5);
            long next = 0;
            for (int f = 0; f < files; f++) {
                long rows = random.nextInt(9000);
                write(dir.resolve("f" + f + ".vortex"), next, next + rows, 1 + random.nextInt(3000));
                next += rows;
            }
            long total = next;
            try (VortexDataset d = VortexDataset.open(dir)) {
                long target = 1 + random.nextInt(5000);
                List<Split> splits = d.splits(null, target);
                String path = null;
                long end = 0;
                long covered = 0;
                for (Split split : splits) {
                    if (!split.path().equals(path)) {
                        if (path != null) {
                            assertEquals(split.toString(), split.fileRows() == 0 ? 0 : end, end);
                        }
                        assertTrue(path == null || path.compareTo(split.path()) < 0);
                        path = split.path();
                        end = 0;
                    }
                    assertEquals("splits follow each other: " + splits, end, split.firstRow());
                    end = split.endRow();
                    covered += split.rowCount();
                    long rows = 0;
                    try (Scan scan = d.scan(split, List.of("id"), null)) {
                        for (Chunk c : scan) {
                            try (c) {
                                assertTrue(c.firstRow() >= split.firstRow());
                                assertTrue(c.firstRow() + c.length() <= split.endRow());
                                rows += c.length();
                            }
                        }
                    }
                    assertEquals(split.rowCount(), rows);
                }
                assertEquals(total, covered);
                assertEquals(expected(total, i -> true), selectedIds(d, null, target));
                Predicate filter = Predicate.between("id", total / 3, total / 2);
                assertEquals(expected(total, i -> i >= total / 3 && i <= total / 2), selectedIds(d, filter, target));
            }
        }
    }

    @Test
    public void serializedSplitScansTheSameRows() throws Exception {
        Path dir = folder(3, 5000);
        try (VortexDataset d = VortexDataset.open(dir)) {
            for (Split split : d.splits(null, 1000)) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                    out.writeObject(split);
                }
                Split copy;
                try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                    copy = (Split) in.readObject();
                }
                assertEquals(split, copy);
                assertEquals(ids(d.scan(split, List.of("id"), null)), ids(VortexDataset.scanSplit(copy, List.of("id"), null)));
            }
        }
    }

    private static List<Long> ids(Scan scan) {
        List<Long> ids = new ArrayList<>();
        try (scan) {
            for (Chunk c : scan) {
                try (c) {
                    for (int r = 0; r < c.length(); r++) {
                        ids.add((Long) Values.valueAt(c.column(0), r));
                    }
                }
            }
        }
        return ids;
    }
}
