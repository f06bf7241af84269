package io.vortex4j.trino;

import io.vortex4j.reader.dataset.VortexDataset;
import java.util.List;
import java.util.function.Function;

/**
 * Where a catalog's tables are listed from: a local folder ({@link FolderEntries}) or an object
 * store prefix ({@link StoreEntries}). {@link Catalog} names the entries and finds clashes.
 */
interface TableEntries {
    /** A table's entry: its name as the file or folder spells it (without {@code .vortex}) and its location. */
    record Entry(String name, String location) {}

    /** The entries that are tables, listed now, and how to open a table's dataset from that listing. */
    Listed list();

    /**
     * A listing: its table {@code entries}, and {@code open}, which opens the dataset at an entry's
     * location (a store's from the same listing, without listing its prefix again).
     */
    record Listed(List<Entry> entries, Function<String, VortexDataset> open) {}

    /** The catalog location, as messages name it. */
    String location();

    /** Whether the location is in an object store. */
    boolean remote();
}
