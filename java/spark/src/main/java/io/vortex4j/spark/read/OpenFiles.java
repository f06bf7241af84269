package io.vortex4j.spark.read;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The files one JVM (an executor, or the driver for statistics) keeps open across the tasks of
 * its queries, so that the splits of a file do not each reopen it: an open file keeps its footer
 * and, natively, its layout reader with the decoded dictionaries and zone maps.
 *
 * <p>An entry is keyed by the file's path, size, modification time and file key (the inode where
 * the file system has one), read from the file system each time a split asks for it: a file
 * replaced or rewritten since it was opened has another key, so it is opened again, never served
 * stale, and the old entry is dropped. A split whose file no longer has the size and time it was
 * planned with fails naming the file, as {@code VortexDataset.scanSplit} does.
 *
 * <p>Bounded: at most {@link #CAPACITY} files, least recently used dropped first. A dropped
 * entry's file is closed once no task holds it ({@link Lease}); a lease is held only while a
 * task starts its scan or aggregate, and a scan keeps working after its file is closed. Safe for
 * concurrent tasks.
 */
final class OpenFiles {
    /** Files kept open per JVM. */
    static final int CAPACITY = 64;

    /** The JVM's files. */
    static final OpenFiles SHARED = new OpenFiles(CAPACITY);

    private record Key(String path, long size, long modifiedMillis, Object fileKey) {}

    private static final class Entry {
        final VortexFile file;
        int leases;
        boolean dropped;
        boolean closed;

        Entry(VortexFile file) {
            this.file = file;
        }
    }

    /** A file held open for a task; closing the lease lets the cache close a dropped file. */
    final class Lease implements AutoCloseable {
        private final Entry entry;
        private boolean released;

        private Lease(Entry entry) {
            this.entry = entry;
        }

        VortexFile file() {
            if (released) {
                throw new IllegalStateException("the lease of " + entry.file.path() + " is released");
            }
            return entry.file;
        }

        @Override
        public void close() {
            synchronized (OpenFiles.this) {
                if (released) {
                    return;
                }
                released = true;
                entry.leases--;
            }
            closeIfUnused(entry);
        }
    }

    private final int capacity;
    /** In access order: the eldest is the least recently used. */
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

    OpenFiles(int capacity) {
        this.capacity = capacity;
    }

    /** The open file of {@code split}, checked to be the file the split was planned on. */
    Lease lease(Split split) {
        Key key = key(split);
        synchronized (this) {
            Entry e = entries.get(key);
            if (e != null) {
                e.leases++;
                return new Lease(e);
            }
        }
        VortexFile opened = VortexFile.openListed(split.path(), split.fileSize(), split.modifiedMillis());
        if (Stores.isRemote(split.path())) {
            try {
                opened.checkUnchanged(split.fileSize(), split.modifiedMillis()); // as listed, or its HEAD
            } catch (RuntimeException e) {
                opened.close();
                throw e;
            }
        } else if (!key.equals(attributes(split.path()))) {
            opened.close(); // replaced while it was being opened
            throw changed(split, "while it was being opened");
        }
        List<Entry> dropped = new ArrayList<>();
        Entry e;
        synchronized (this) {
            e = entries.get(key);
            if (e == null) {
                e = new Entry(opened);
                for (Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator(); it.hasNext();) {
                    Map.Entry<Key, Entry> old = it.next();
                    if (old.getKey().path().equals(key.path())) { // an older version of the file
                        drop(old.getValue(), dropped);
                        it.remove();
                    }
                }
                entries.put(key, e);
                while (entries.size() > capacity) {
                    Iterator<Entry> eldest = entries.values().iterator();
                    drop(eldest.next(), dropped);
                    eldest.remove();
                }
            } else {
                drop(new Entry(opened), dropped); // another task opened it first: keep one
            }
            e.leases++;
        }
        dropped.forEach(this::closeIfUnused);
        return new Lease(e);
    }

    /**
     * Scans {@code columns} of the split's rows as {@code VortexDataset.scanSplit} does, with the
     * file kept open here rather than reopened.
     */
    Scan scan(Split split, List<String> columns, Predicate filter) {
        try (Lease lease = lease(split)) {
            return VortexDataset.scanSplit(lease.file(), split, columns, filter); // outlives the lease
        }
    }

    /** Closes every file no task holds and forgets all entries (the others close when released). */
    void clear() {
        List<Entry> dropped = new ArrayList<>();
        synchronized (this) {
            entries.values().forEach(e -> drop(e, dropped));
            entries.clear();
        }
        dropped.forEach(this::closeIfUnused);
    }

    /** The number of files open in the cache. */
    synchronized int size() {
        return entries.size();
    }

    private static void drop(Entry e, List<Entry> dropped) {
        e.dropped = true;
        dropped.add(e);
    }

    private void closeIfUnused(Entry e) {
        synchronized (this) {
            if (e.leases > 0 || !e.dropped || e.closed) {
                return;
            }
            e.closed = true; // a dropped entry is never leased again
        }
        e.file.close();
    }

    /** The key of the file the split names, failing when it is not the file that was planned. */
    private static Key key(Split split) {
        if (Stores.isRemote(split.path())) {
            // An object is checked when opened, and every read is pinned to its ETag then.
            return new Key(split.path(), split.fileSize(), split.modifiedMillis(), "");
        }
        Key now = attributes(split.path());
        if (now == null) {
            throw new VortexException(split.path() + ": no such file (it disappeared after the split was planned)");
        }
        if (now.size() != split.fileSize() || now.modifiedMillis() != split.modifiedMillis()) {
            throw changed(split, "(size " + split.fileSize() + " -> " + now.size() + ", modified "
                    + split.modifiedMillis() + " -> " + now.modifiedMillis() + " ms)");
        }
        return now;
    }

    private static VortexException changed(Split split, String how) {
        return new VortexException(split.path() + ": the file changed after the split was planned " + how);
    }

    /** The file's key now, or null when there is no such file. */
    private static Key attributes(String path) {
        Path p = Paths.get(path);
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            return new Key(path, a.size(), a.lastModifiedTime().toMillis(), Objects.requireNonNullElse(a.fileKey(), ""));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new VortexException(path + ": cannot read its attributes: " + e.getMessage());
        }
    }
}
