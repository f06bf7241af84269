package io.vortex4j.reader.dataset;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.predicate.Predicate;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reading splits over their open files, which needs no dataset: a split's scan and count (the
 * filter's partition part decided by the split's partition values, the rest given to the file),
 * the checks that a file is the one the split was planned on, and the batching of counts.
 */
final class SplitReads {
    private SplitReads() {}

    /** Files in one {@link #countBatches} batch at most: bounds the arrays one native call takes. */
    static final int MAX_BATCH_FILES = 64;

    /**
     * {@code splits} in order, cut into batches for {@link VortexDataset#count(List, List, Predicate)} on
     * {@code threads} threads: runs of consecutive splits of at most {@link VortexDataset#DEFAULT_TARGET_ROWS}
     * rows in all, and at most a quarter of a thread's share of the rows, so that each thread
     * gets several batches to balance the load (a bigger split is a batch of its own). Splits of
     * objects in a store are cut into one batch per thread: a batch opens the scans of its objects
     * side by side, so their round trips overlap.
     */
    static List<List<Split>> countBatches(List<Split> splits, int threads) {
        long total = 0;
        boolean remote = false;
        for (Split s : splits) {
            total += s.rowCount();
            remote |= Stores.isRemote(s.path());
        }
        int t = Math.max(1, threads);
        long most = Math.max(1, remote ? (total + t - 1) / t : Math.min(VortexDataset.DEFAULT_TARGET_ROWS, total / (4L * t)));
        List<List<Split>> batches = new ArrayList<>();
        List<Split> batch = new ArrayList<>();
        long rows = 0;
        for (Split s : splits) {
            long r = s.rowCount();
            if (!batch.isEmpty() && (rows + r > most || batch.size() == MAX_BATCH_FILES)) {
                batches.add(batch);
                batch = new ArrayList<>();
                rows = 0;
            }
            batch.add(s);
            rows += r;
        }
        if (!batch.isEmpty()) {
            batches.add(batch);
        }
        return batches;
    }

    /**
     * Counts a split with its file already open, as {@link VortexDataset#count(Split, List,
     * Predicate)} does: {@code filter}'s partition part decided by
     * the split's values, the rest counted in one native call for a small file. The file is
     * checked to be the one the split was planned on (size and modification time).
     */
    static long count(VortexFile file, Split split, List<String> columns, Predicate filter) {
        checkFileOf(file, split);
        return countOpen(List.of(file), List.of(split), columns, filter);
    }

    /**
     * The count of splits whose files ({@code open.get(i)} of {@code batch.get(i)}) are open:
     * each split's partition values decided, the rest in native calls.
     */
    static long countOpen(List<VortexFile> open, List<Split> batch, List<String> columns, Predicate filter) {
        List<VortexFile> files = new ArrayList<>(batch.size());
        List<Split> counted = new ArrayList<>(batch.size());
        Predicate residual = null;
        long n = 0;
        for (int i = 0; i < batch.size(); i++) {
            Split split = batch.get(i);
            VortexFile file = open.get(i);
            checkNotPartitionColumns(split, columns);
            PartitionFilter pf = PartitionFilter.of(filter, split.partitionValues());
            if (pf.excludesFile() || pf.residual() == null) {
                // Decided without a scan: by the partition values, or every row. A changed file still fails.
                file.checkUnchanged(split.fileSize(), split.modifiedMillis());
                n += pf.excludesFile() ? 0 : split.rowCount();
                continue;
            }
            if (!counted.isEmpty() && !Objects.equals(pf.residual(), residual)) {
                n += VortexFile.countSplits(files, counted, columns, residual);
                files.clear();
                counted.clear();
            }
            residual = pf.residual();
            files.add(file);
            counted.add(split);
        }
        if (!counted.isEmpty()) {
            n += VortexFile.countSplits(files, counted, columns, residual);
        }
        return n;
    }

    /** Scans a split without its dataset: reopens the file by path, checks it is unchanged, and scans it. */
    static Scan scan(Split split, List<String> columns, Predicate filter) {
        checkUnchanged(split);
        try (VortexFile file = VortexFile.openListed(split.path(), split.fileSize(), split.modifiedMillis())) {
            if (Stores.isRemote(split.path())) {
                file.checkUnchanged(split.fileSize(), split.modifiedMillis());
            }
            return scan(file, split, columns, filter); // the scan outlives the file handle
        }
    }

    /**
     * Scans a split with its file already open: the rows of the split, {@code filter}'s partition
     * part decided by the split's values and the rest given to the scan. A file at another path
     * than the split's is refused.
     */
    static Scan scan(VortexFile file, Split split, List<String> columns, Predicate filter) {
        checkFileOf(file, split);
        checkNotPartitionColumns(split, columns);
        PartitionFilter pf = PartitionFilter.of(filter, split.partitionValues());
        long end = pf.excludesFile() ? split.firstRow() : split.endRow();
        return file.scanRows(columns, pf.residual(), split.firstRow(), end, split, pf.residual());
    }

    /** Refuses a file at another path than the split's. */
    private static void checkFileOf(VortexFile file, Split split) {
        if (!file.location().equals(absolute(split.path()))) {
            throw new IllegalArgumentException("the split is of " + split.path() + ", not of " + file.location());
        }
    }

    private static void checkNotPartitionColumns(Split split, List<String> columns) {
        for (String c : columns) {
            if (split.partitionValues().containsKey(c)) {
                throw new VortexException("'" + c + "' is a partition column of " + split.path()
                        + ": its value is in Split.partitionValues(), not in the chunks");
            }
        }
    }

    /** A local path made absolute; an object's location as it is. */
    private static String absolute(String location) {
        return Stores.isRemote(location) ? location : Paths.get(location).toAbsolutePath().toString();
    }

    /**
     * Refuses a split whose file is gone, or changed since the split was planned. An object's is
     * checked when it is opened (its HEAD against the split's size and modification time).
     */
    private static void checkUnchanged(Split split) {
        if (Stores.isRemote(split.path())) {
            return;
        }
        BasicFileAttributes a = Listing.attributes(Paths.get(split.path()));
        if (a == null) {
            throw new VortexException(split.path() + ": no such file (it disappeared after the split was planned)");
        }
        if (a.size() != split.fileSize() || a.lastModifiedTime().toMillis() != split.modifiedMillis()) {
            throw new VortexException(split.path() + ": the file changed after the split was planned (size "
                    + split.fileSize() + " -> " + a.size() + ", modified " + split.modifiedMillis() + " -> "
                    + a.lastModifiedTime().toMillis() + " ms)");
        }
    }
}
