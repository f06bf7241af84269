package io.vortex4j.reader.dataset;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.predicate.Predicate;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A table made of Vortex files: one file, every file under a folder (recursively), or the files
 * matching a glob ({@code /data/*.vortex}, {@code dir/**}{@code /x=*}{@code /*.vortex}). Files and
 * folders whose names start with {@code .} or {@code _} are skipped ({@code _SUCCESS}, {@code
 * .crc}). Files are ordered by absolute path.
 *
 * <p><b>Schema.</b> The file columns come from the first file's footer, then the partition columns
 * of Hive-style folders ({@code key=value/}, see {@link #partitionColumns()}). Every other file is
 * checked against the first when its footer is first read (planning or scanning it): a missing or
 * extra column, or another type, is a {@link VortexException} naming the file and the column.
 * Nullability may differ: in a dataset of several files every file column is nullable (as Spark's
 * file sources do), so the schema never depends on which files were opened. A dataset of one file
 * has exactly that file's schema.
 *
 * <p><b>Work.</b> {@link #splits} prunes files by their partition values before opening them, then
 * by zone maps, and cuts what is left into {@link Split}s; {@link #scan} reads one split. Footers
 * are read lazily and at most once per dataset ({@link #openedFiles()}).
 *
 * <p>Thread-safe: splits may be planned and scanned from several threads at once. Closing the
 * dataset releases its files; scans already started keep working.
 */
public final class VortexDataset implements AutoCloseable {
    /**
     * The default {@link #splits(Predicate, long)} target: about a million rows, enough work per
     * split to hide the per-split overhead (a file open, a scan start), small enough that 10M rows
     * make 10 splits for a small pool to balance.
     */
    public static final long DEFAULT_TARGET_ROWS = 1L << 20;

    private final String location;
    private final List<ListedFile> listed;
    private final HivePartitions partitions;
    private final boolean singleFile;
    /** The first file's own schema: what every other file must match (up to nullability). */
    private final Schema reference;
    private final Schema fileSchema;
    private final Schema schema;
    private final Map<String, VortexFile> open = new ConcurrentHashMap<>();
    private final Map<String, Integer> index = new ConcurrentHashMap<>();
    private volatile boolean closed;
    /** Split plans by (filter, target rows), most recently used last. */
    private final Map<List<Object>, List<Split>> planned = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<List<Object>, List<Split>> eldest) {
            return size() > PLANS_REMEMBERED;
        }
    };
    private static final int PLANS_REMEMBERED = 64;

    private VortexDataset(String location, Listing.Result listing) {
        this.location = location;
        this.listed = listing.files();
        this.singleFile = listing.singleFile();
        this.partitions = HivePartitions.of(listed);
        for (int i = 0; i < listed.size(); i++) {
            index.put(listed.get(i).path(), i);
        }
        VortexFile first = openListed(listed.get(0));
        open.put(first.location(), first);
        this.reference = first.schema();
        try {
            this.fileSchema = fileSchema(reference, singleFile);
            this.schema = withPartitions(location, fileSchema, partitions.fields(), listed.get(0).path());
        } catch (RuntimeException e) {
            first.close();
            throw e;
        }
    }

    private static Schema fileSchema(Schema reference, boolean singleFile) {
        List<Field> fields = new ArrayList<>();
        for (Field f : reference.fields()) {
            fields.add(singleFile ? f : new Field(f.name(), f.type(), true));
        }
        return new Schema(fields);
    }

    private static Schema withPartitions(String location, Schema files, List<Field> partitions, String first) {
        List<Field> fields = new ArrayList<>(files.fields());
        for (Field p : partitions) {
            if (files.indexOf(p.name()) >= 0) {
                throw new VortexException(location + ": the partition column '" + p.name()
                        + "' (from its folders) is also a column of " + first);
            }
            fields.add(p);
        }
        return new Schema(fields);
    }

    /**
     * Opens the dataset at {@code location}: a Vortex file, a folder, or a glob. Lists the files
     * and reads the first one's footer. Throws {@link VortexException} when nothing is there, no
     * file is found, or the first file is not a readable Vortex file.
     */
    public static VortexDataset open(Path location) {
        return new VortexDataset(location.toString(), Listing.list(location));
    }

    /**
     * Opens the dataset at {@code location}: a local path (see {@link #open(Path)}) or an object
     * store location ({@code s3://bucket/table/}, {@code s3://bucket/t/*.vortex}; see {@link
     * io.vortex4j.reader.Stores}), listed over the store's list API with the same rules as a local
     * folder.
     */
    public static VortexDataset open(String location) {
        return new VortexDataset(location, Listing.list(location));
    }

    /**
     * Opens the dataset at {@code location} as {@link #open(String)} does, with its files as
     * {@code listed} found them (e.g. {@link Listing#within} a listing of its parent) rather than
     * listed again.
     */
    public static VortexDataset open(String location, Listing.Result listed) {
        return new VortexDataset(location, listed);
    }

    /** The path or location the dataset was opened with. */
    public String location() {
        return location;
    }

    /** The columns: the file columns, then the partition columns. */
    public Schema schema() {
        checkOpen();
        return schema;
    }

    /** The columns the files hold (the schema without the partition columns). */
    public Schema fileSchema() {
        checkOpen();
        return fileSchema;
    }

    /**
     * The partition columns, from Hive-style folders between the dataset's root and its files
     * ({@code dt=2024-01-01/part=3/}), in folder order. Values are percent-decoded; {@code
     * __HIVE_DEFAULT_PARTITION__} is null. A column is {@code INT64} when all its values are
     * integers that fit a long, else {@code DATE} when all are ISO dates ({@code yyyy-MM-dd}),
     * else {@code UTF8}; nullable when one of its values is null. Every file must sit under the
     * same keys in the same order.
     */
    public List<Field> partitionColumns() {
        checkOpen();
        return partitions.fields();
    }

    /** The files with their row counts; reads every footer not read yet (and checks its schema). */
    public List<DatasetFile> files() {
        List<DatasetFile> files = new ArrayList<>();
        for (int i = 0; i < listed.size(); i++) {
            ListedFile f = listed.get(i);
            files.add(new DatasetFile(f.path(), f.size(), f.modifiedMillis(), file(f.path()).rowCount(),
                    partitions.values(i)));
        }
        return files;
    }

    /** The rows of all files (reads every footer not read yet). */
    public long rowCount() {
        long rows = 0;
        for (ListedFile f : listed) {
            rows += file(f.path()).rowCount();
        }
        return rows;
    }

    /** Whether the dataset was opened on one file (not a folder or glob). */
    public boolean isSingleFile() {
        return singleFile;
    }

        /** How many files were listed (none is opened to count them). */
    public int fileCount() {
        return listed.size();
    }

    /**
     * An estimate of {@link #rowCount()} that reads no other footer: the first file's rows per
     * byte times the bytes of all listed files (exact for a dataset of one file). For planners.
     */
    public long estimatedRowCount() {
        ListedFile first = listed.get(0);
        long rows = file(first.path()).rowCount();
        if (listed.size() == 1) {
            return rows;
        }
        long bytes = 0;
        for (ListedFile f : listed) {
            bytes += f.size();
        }
        return first.size() <= 0 ? rows * listed.size() : (long) ((double) rows * bytes / first.size());
    }

    /** The paths of the files whose footers this dataset has read so far, in path order. */
    public Set<String> openedFiles() {
        Set<String> opened = new LinkedHashSet<>();
        for (ListedFile f : listed) {
            if (open.containsKey(f.path())) {
                opened.add(f.path());
            }
        }
        return Collections.unmodifiableSet(opened);
    }

    /** {@link #splits(Predicate, long)} with {@link #DEFAULT_TARGET_ROWS}. */
    public List<Split> splits(Predicate filter) {
        return splits(filter, DEFAULT_TARGET_ROWS);
    }

    /**
     * The work for {@code filter} (null for every row), in a stable order: by path, then row.
     * Files whose partition values rule the filter out are skipped unopened; in the others, the
     * chunk ranges zone maps rule out are skipped too (a file left with none is dropped). A file
     * of at most {@code targetRows} rows is one whole-file split; a bigger one is cut at chunk
     * boundaries into splits of at least {@code targetRows} rows (the last may be smaller). The
     * splits never overlap and cover every row the pruning kept exactly once; a split's range may
     * still hold pruned chunks, which its scan skips again.
     *
     * <p>The plan is remembered per filter and target (the dataset's files are listed once and
     * must not change: scanning a split checks its file's size and modification time), so a query
     * repeated over the dataset plans no split again. The list is unmodifiable.
     */
    public List<Split> splits(Predicate filter, long targetRows) {
        if (targetRows <= 0) {
            throw new IllegalArgumentException("targetRows must be positive, not " + targetRows);
        }
        checkColumns(filter);
        List<Object> key = Arrays.asList(filter, targetRows);
        synchronized (planned) {
            List<Split> cached = planned.get(key);
            if (cached != null) {
                return cached;
            }
        }
        List<Split> splits = plan(filter, targetRows);
        synchronized (planned) {
            planned.put(key, splits);
        }
        return splits;
    }

    private List<Split> plan(Predicate filter, long targetRows) {
        openObjectsAtOnce(filter);
        List<Split> splits = new ArrayList<>();
        for (int i = 0; i < listed.size(); i++) {
            ListedFile f = listed.get(i);
            Map<String, Object> values = partitions.values(i);
            PartitionFilter pf = PartitionFilter.of(filter, values);
            if (pf.excludesFile()) {
                continue;
            }
            VortexFile file = file(f.path());
            long[] kept = file.naturalSplits(pf.residual());
            if (kept.length == 0) {
                continue;
            }
            long rows = file.rowCount();
            if (rows <= targetRows) {
                splits.add(new Split(f.path(), 0, rows, rows, f.size(), f.modifiedMillis(), values));
                continue;
            }
            long start = kept[0];
            for (int r = 0; r < kept.length; r += 2) {
                boolean last = r + 2 == kept.length;
                if (last || kept[r + 1] - start >= targetRows) {
                    splits.add(new Split(f.path(), start, kept[r + 1], rows, f.size(), f.modifiedMillis(), values));
                    if (!last) {
                        start = kept[r + 2];
                    }
                }
            }
        }
        return List.copyOf(splits);
    }

    /**
     * Scans {@code columns} (file columns, in that order; empty for all of them) of the split's
     * rows. {@code filter} (may be null) is over the dataset's columns: its partition part is
     * decided by the split's values (a split they rule out scans no chunk), and what is left
     * prunes chunks by zone maps as {@link VortexFile#scan(List, Predicate)} does. The chunks
     * still hold every row of their range: select with {@code Compute.selection(chunk,
     * scan.chunkFilter())} (every row when it is null). Partition columns are not chunk columns:
     * their values are {@code scan.split().partitionValues()}.
     *
     * <p>Throws {@link VortexException} when the file changed (size or modification time) since
     * the split was planned, disappeared, or no longer matches the dataset's schema.
     */
    public Scan scan(Split split, List<String> columns, Predicate filter) {
        checkColumns(filter);
        return SplitReads.scan(file(split), split, columns, filter);
    }

    /**
     * How many rows of the split {@code filter} (over the dataset's columns; null: every row)
     * selects, scanning {@code columns} (file columns, as {@link #scan}): what counting {@code
     * scan(split, columns, filter)}'s chunks with its {@link Scan#chunkFilter()} gives, in one
     * native call for a small file ({@link VortexFile#countSplits}). Throws as {@link #scan} does.
     */
    public long count(Split split, List<String> columns, Predicate filter) {
        return count(List.of(split), columns, filter);
    }

    /**
     * How many rows {@code filter} selects in all of {@code splits} (of this dataset): the sum of
     * {@link #count(Split, List, Predicate)} over them, with splits of small files counted
     * several per native call. To count on several threads, give each a batch of {@link
     * #countBatches}.
     */
    public long count(List<Split> splits, List<String> columns, Predicate filter) {
        checkColumns(filter);
        return countBatch(splits, columns, filter);
    }

    /**
     * {@code splits} in order, cut into batches for {@link #count(List, List, Predicate)} on
     * {@code threads} threads (see {@link SplitReads#countBatches}).
     */
    public static List<List<Split>> countBatches(List<Split> splits, int threads) {
        return SplitReads.countBatches(splits, threads);
    }

    /**
     * Counts a split with its file already open, as {@link #count(Split, List, Predicate)} does,
     * for callers that keep files open across splits without the dataset (see {@link
     * SplitReads#count}).
     */
    public static long countSplit(VortexFile file, Split split, List<String> columns, Predicate filter) {
        return SplitReads.count(file, split, columns, filter);
    }

    /**
     * Scans a split without its dataset (e.g. in another JVM): reopens the file by path, checks
     * it is unchanged, and scans as {@link #scan} does (without the check against the dataset's
     * schema, which only the dataset knows).
     */
    public static Scan scanSplit(Split split, List<String> columns, Predicate filter) {
        return SplitReads.scan(split, columns, filter);
    }

    /**
     * Scans a split with its file already open, as {@link #scanSplit(Split, List, Predicate)}
     * does after reopening it: for callers that keep files open across splits. The caller checks
     * that {@code file} is the file the split was planned on (same path, size and modification
     * time); a file at another path is refused.
     */
    public static Scan scanSplit(VortexFile file, Split split, List<String> columns, Predicate filter) {
        return SplitReads.scan(file, split, columns, filter);
    }

    /** The count of a batch: the splits' files opened, then {@link SplitReads#countOpen}. */
    private long countBatch(List<Split> batch, List<String> columns, Predicate filter) {
        List<VortexFile> files = new ArrayList<>(batch.size());
        for (Split split : batch) {
            files.add(fileOf(split));
        }
        return SplitReads.countOpen(files, batch, columns, filter);
    }

    /**
     * The open file of {@code split}, checking it is the file the split was planned on: still
     * linked, same size and modification time. The open file is asked (an {@code fstat}), which
     * costs ~1 µs less per split than looking the path up.
     */
    private VortexFile file(Split split) {
        VortexFile f = fileOf(split);
        f.checkUnchanged(split.fileSize(), split.modifiedMillis());
        return f;
    }

    /** Objects opened at once, at most: each open is a HEAD and a footer read, mostly waiting. */
    private static final int OBJECT_OPENS = 16;

    /**
     * Opens the objects {@code filter}'s partition values keep and no one opened yet side by side
     * (a store's round trips overlap), rather than one after the other as planning reaches them.
     */
    private void openObjectsAtOnce(Predicate filter) {
        List<String> closed = new ArrayList<>();
        for (int i = 0; i < listed.size(); i++) {
            String path = listed.get(i).path();
            if (Stores.isRemote(path) && !open.containsKey(path) && !PartitionFilter.of(filter, partitions.values(i)).excludesFile()) {
                closed.add(path);
            }
        }
        if (closed.size() < 2) {
            return;
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.min(OBJECT_OPENS, closed.size()), r -> {
                    Thread t = new Thread(r, "vortex4j-open");
                    t.setDaemon(true);
                    return t;
                });
        try {
            List<java.util.concurrent.Future<VortexFile>> opening = new ArrayList<>();
            for (String path : closed) {
                opening.add(pool.submit(() -> file(path)));
            }
            for (java.util.concurrent.Future<VortexFile> f : opening) {
                f.get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new VortexException(location + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new io.vortex4j.CancelledException("interrupted while opening the objects of " + location, false);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The open file of {@code split}, not yet checked against it. */
    private VortexFile fileOf(Split split) {
        if (!index.containsKey(split.path())) {
            throw new VortexException(split.path() + ": not a file of the dataset " + location);
        }
        return file(split.path());
    }

    /** The open file at {@code path} (a listed file), opening and checking it on first use. */
    private VortexFile file(String path) {
        checkOpen();
        VortexFile f = open.computeIfAbsent(path, p -> {
            VortexFile opened = openListed(listed.get(index.get(p)));
            try {
                checkSchema(opened);
                return opened;
            } catch (RuntimeException e) {
                opened.close();
                throw e;
            }
        });
        if (closed) {
            close(); // raced with close(): release what this call may have opened
            checkOpen();
        }
        return f;
    }

    /** Opens a listed file, checking it is still the file that was listed. */
    private VortexFile openListed(ListedFile f) {
        if (Stores.isRemote(f.path())) {
            VortexFile opened = VortexFile.openListed(f.path(), f.size(), f.modifiedMillis());
            try {
                opened.checkUnchanged(f.size(), f.modifiedMillis());
            } catch (RuntimeException e) {
                opened.close();
                throw new VortexException(f.path() + ": the object changed after the dataset was listed", e);
            }
            return opened;
        }
        BasicFileAttributes a = Listing.attributes(Paths.get(f.path()));
        if (a == null) {
            throw new VortexException(f.path() + ": no such file (it disappeared after the dataset was listed)");
        }
        if (a.size() != f.size() || a.lastModifiedTime().toMillis() != f.modifiedMillis()) {
            throw new VortexException(f.path() + ": the file changed after the dataset was listed");
        }
        return VortexFile.open(Paths.get(f.path()));
    }

    private void checkSchema(VortexFile file) {
        String first = listed.get(0).path();
        Schema s = file.schema();
        for (Field want : reference.fields()) {
            int i = s.indexOf(want.name());
            if (i < 0) {
                throw new VortexException(file.location() + ": has no column '" + want.name() + "' (" + want.type()
                        + "), which " + first + " has; all files of a dataset must have the same columns");
            }
            if (!s.field(i).type().equals(want.type())) {
                throw new VortexException(file.location() + ": column '" + want.name() + "' is " + s.field(i).type()
                        + ", but " + want.type() + " in " + first + "; all files of a dataset must agree");
            }
        }
        for (Field have : s.fields()) {
            if (reference.indexOf(have.name()) < 0) {
                throw new VortexException(file.location() + ": has a column '" + have.name() + "' that " + first
                        + " does not have; all files of a dataset must have the same columns");
            }
        }
    }

    private void checkColumns(Predicate filter) {
        if (filter == null || filter == checkedFilter) {
            return; // a query's splits check the same filter object
        }
        for (String c : filter.columns()) {
            if (schema().indexOf(c) < 0) {
                if (c.indexOf('.') < 0) {
                    throw new VortexException(location + ": unknown column '" + c + "'; columns are " + schema.names());
                }
                try {
                    fileSchema.resolve(c); // a struct field by path
                } catch (VortexException e) {
                    throw new VortexException(location + ": " + e.getMessage());
                }
            }
        }
        checkedFilter = filter;
    }

    /** The last filter {@link #checkColumns} found valid (predicates are immutable). */
    private volatile Predicate checkedFilter;

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the dataset " + location + " is closed");
        }
    }

    /** Releases the dataset's files. Scans already started keep working. Idempotent. */
    @Override
    public void close() {
        closed = true;
        for (String path : new ArrayList<>(open.keySet())) {
            VortexFile f = open.remove(path);
            if (f != null) {
                f.close();
            }
        }
    }

    @Override
    public String toString() {
        return "VortexDataset[" + location + ", " + listed.size() + " files]";
    }
}
