package io.vortex4j.trino;

import io.trino.spi.TrinoException;
import io.vortex4j.reader.dataset.ListedFile;
import io.vortex4j.reader.dataset.Listing;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static io.vortex4j.trino.Errors.VORTEX_READ_ERROR;

/**
 * The tables of an object store prefix ({@code s3://bucket/warehouse}): each object {@code
 * NAME.vortex} right under it, and each prefix {@code NAME/} one level down holding {@code
 * .vortex} objects at some depth. One recursive listing of the prefix finds both; objects and
 * prefixes whose names start with {@code .} or {@code _} are skipped, as in a local folder.
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
    public List<Entry> list() {
        String prefix = location + "/";
        List<ListedFile> objects;
        try {
            objects = Listing.list(prefix).files();
        } catch (RuntimeException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new TrinoException(VORTEX_READ_ERROR, "cannot list the catalog location " + location + ": " + message, e);
        }
        List<Entry> entries = new ArrayList<>();
        Set<String> folders = new LinkedHashSet<>();
        for (ListedFile f : objects) {
            String relative = f.path().substring(prefix.length());
            int slash = relative.indexOf('/');
            if (slash < 0) {
                if (relative.endsWith(Catalog.SUFFIX) && relative.length() > Catalog.SUFFIX.length()) {
                    entries.add(new Entry(relative.substring(0, relative.length() - Catalog.SUFFIX.length()), f.path()));
                }
            } else if (f.path().endsWith(Catalog.SUFFIX)) {
                folders.add(relative.substring(0, slash));
            }
        }
        for (String folder : folders) {
            entries.add(new Entry(folder, prefix + folder + "/"));
        }
        return entries;
    }
}
