package io.vortex4j.trino;

import io.trino.spi.TrinoException;
import io.vortex4j.reader.dataset.Listing;
import io.vortex4j.reader.dataset.VortexDataset;
import java.util.ArrayList;
import java.util.List;

import static io.vortex4j.trino.Errors.VORTEX_READ_ERROR;

/**
 * The tables of an object store prefix ({@code s3://bucket/warehouse}): each object {@code
 * NAME.vortex} right under it, and each prefix {@code NAME/} one level down holding {@code
 * .vortex} objects at some depth. One recursive listing of the prefix finds both; objects and
 * prefixes whose names start with {@code .} or {@code _} are skipped, as in a local folder. A
 * table's dataset is opened from the same listing.
 */
final class StoreEntries implements TableEntries {
    private final String location;

    /** {@code location}: a store location; a trailing {@code /} is dropped. */
    StoreEntries(String location) {
        this.location = location.replaceAll("/+$", "");
    }

    @Override
    public String location() {
        return location;
    }

    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public Listed list() {
        Listing.Result all;
        try {
            all = Listing.list(location + "/");
        } catch (RuntimeException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new TrinoException(VORTEX_READ_ERROR, "cannot list the catalog location " + location + ": " + message, e);
        }
        Listing.Tables tables = Listing.tables(all, location);
        List<Entry> entries = new ArrayList<>();
        tables.files().forEach((name, object) -> entries.add(new Entry(name, object)));
        tables.folders().forEach((name, folder) -> entries.add(new Entry(name, folder)));
        return new Listed(entries, table -> VortexDataset.open(table, Listing.within(all, table)));
    }
}
