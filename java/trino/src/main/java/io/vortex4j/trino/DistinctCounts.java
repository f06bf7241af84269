package io.vortex4j.trino;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.VarBinArray;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.dataset.Split;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Distinct counts of dictionary-encoded string columns for the cost-based optimizer: the
 * non-null entries of every chunk's dictionary, united over the files a table's splits read
 * (whole files: a split of part of a file counts the file's entries, an upper bound). A column is
 * known only when every chunk of every file holds it dictionary-encoded and the union stays
 * within {@link #MAX} values; a column found otherwise is given up at its first such chunk, so a
 * string column of long distinct texts costs one chunk. A file's entries are kept while it keeps
 * its size and modification time (the first statistics of a file read its dictionaries, later
 * ones do not).
 */
final class DistinctCounts {
    /** The most distinct values counted: beyond, a column is not a dictionary column to Trino. */
    static final int MAX = 1 << 14;
    /** Files' columns whose entries are kept. */
    private static final int CACHED = 64;

    private record Key(String path, long size, long modifiedMillis, String column) {}

    /** Per file and column, its entries; empty when the column is not (entirely) dictionary-encoded. */
    private static final Map<Key, Optional<Set<ByteBuffer>>> ENTRIES = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Optional<Set<ByteBuffer>>> eldest) {
            return size() > CACHED;
        }
    };

    private DistinctCounts() {}

    /** The distinct non-null values of string column {@code column} over the files of {@code splits}. */
    static OptionalLong of(Collection<Split> splits, String column) {
        Map<String, Split> files = new LinkedHashMap<>();
        for (Split s : splits) {
            files.putIfAbsent(s.path(), s);
        }
        Set<ByteBuffer> all = new HashSet<>();
        for (Split s : files.values()) {
            Optional<Set<ByteBuffer>> entries = entries(s, column);
            if (entries.isEmpty()) {
                return OptionalLong.empty();
            }
            all.addAll(entries.get());
            if (all.size() > MAX) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(all.size());
    }

    private static Optional<Set<ByteBuffer>> entries(Split file, String column) {
        Key key = new Key(file.path(), file.fileSize(), file.modifiedMillis(), column);
        synchronized (ENTRIES) {
            Optional<Set<ByteBuffer>> cached = ENTRIES.get(key);
            if (cached != null) {
                return cached;
            }
        }
        Optional<Set<ByteBuffer>> read = read(file, column);
        synchronized (ENTRIES) {
            ENTRIES.put(key, read);
        }
        return read;
    }

    /** The file's entries of {@code column}, reading each dictionary once (chunks may share one). */
    private static Optional<Set<ByteBuffer>> read(Split split, String column) {
        try (VortexFile file = VortexFile.openListed(split.path(), split.fileSize(), split.modifiedMillis());
                Scan scan = file.scan(List.of(column))) {
            file.checkUnchanged(split.fileSize(), split.modifiedMillis());
            Set<ByteBuffer> values = new HashSet<>();
            Set<Long> seen = new HashSet<>();
            for (Chunk chunk : scan) {
                try (chunk) {
                    VarBinDictArray.Dictionary d = chunk.dictionary(0);
                    if (d == null) {
                        return Optional.empty();
                    }
                    if (!seen.add(d.strings().id())) {
                        continue;
                    }
                    VarBinArray entries = d.entries();
                    for (int i = 0; i < entries.length(); i++) {
                        if (!entries.isNull(i)) {
                            values.add(ByteBuffer.wrap(entries.getBytes(i)));
                        }
                    }
                    if (values.size() > MAX) {
                        return Optional.empty();
                    }
                }
            }
            return Optional.of(values);
        }
    }
}
