package io.vortex4j.trino;

import java.util.List;

/**
 * Where a catalog's tables are listed from: a local folder ({@link FolderEntries}) or an object
 * store prefix ({@link StoreEntries}). {@link Catalog} names the entries and finds clashes.
 */
interface TableEntries {
    /** A table's entry: its name as the file or folder spells it (without {@code .vortex}) and its location. */
    record Entry(String name, String location) {}

    /** The entries that are tables, listed now. */
    List<Entry> list();

    /** The catalog location, as messages name it. */
    String location();

    /** Whether the location is in an object store. */
    boolean remote();
}
