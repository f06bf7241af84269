package io.vortex4j.trino;

import io.vortex4j.reader.dataset.VortexDataset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The catalog as one transaction sees it: the location listed once, each table's dataset opened
 * once (over a store, from that same listing), shared by the metadata and split calls of the
 * transaction's statements, and closed when it ends. Over an object store this saves a listing
 * round trip per table lookup, column list, statistics and split planning. A write the
 * transaction commits forgets both, so its later statements see the new files.
 */
final class TransactionTables implements AutoCloseable {
    private final Catalog catalog;
    private Catalog.Tables tables;
    private final Map<String, VortexDataset> datasets = new HashMap<>();

    TransactionTables(Catalog catalog) {
        this.catalog = catalog;
    }

    /** The tables' names (lower case), sorted. */
    synchronized List<String> names() {
        return tables().names();
    }

    /** The location of table {@code name}, or empty when there is none. */
    synchronized Optional<String> location(String name) {
        return tables().location(name);
    }

    /** Runs {@code work} on the dataset at {@code location}, opened once; failures name the location. */
    synchronized <T> T with(String location, Function<VortexDataset, T> work) {
        return Errors.reading(location, () -> {
            VortexDataset dataset = datasets.get(location);
            if (dataset == null) {
                dataset = tables().open().apply(location);
                datasets.put(location, dataset);
            }
            return work.apply(dataset);
        });
    }

    /** Forgets the listing and the datasets: the transaction wrote. */
    synchronized void changed() {
        close();
        tables = null;
    }

    @Override
    public synchronized void close() {
        for (VortexDataset d : datasets.values()) {
            d.close();
        }
        datasets.clear();
    }

    private Catalog.Tables tables() {
        if (tables == null) {
            tables = catalog.tables();
        }
        return tables;
    }
}
