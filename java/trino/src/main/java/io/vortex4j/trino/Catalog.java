package io.vortex4j.trino;

import io.trino.spi.TrinoException;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.dataset.VortexDataset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

import static io.trino.spi.StandardErrorCode.AMBIGUOUS_NAME;

/**
 * The catalog location, a local folder or an object store prefix: each file {@code NAME.vortex}
 * right in it is the table {@code NAME}, and each folder {@code NAME/} holding {@code .vortex}
 * files at any depth (Hive {@code key=value/} folders included) is the table {@code NAME} over
 * all of them, as in {@code jdbc:vortex:DIR}. Names starting with {@code .} or {@code _} are
 * skipped. Trino's names are lower case, so a table is found by its name in lower case; two
 * entries whose names differ only in case, or a file and a folder of the same name, are an error
 * naming both. {@link #tables()} lists the location; a transaction lists it once ({@link
 * TransactionTables}).
 */
public final class Catalog {
    /** The one schema. */
    public static final String SCHEMA = "default";
    /** The longest table name a new table may have: a folder name's bytes on common file systems. */
    public static final int MAX_NAME_BYTES = 255;
    /** The file suffix of Vortex tables. */
    public static final String SUFFIX = ".vortex";

    private final TableEntries entries;

    /** The catalog of a local folder. */
    public Catalog(Path directory) {
        this(new FolderEntries(directory));
    }

    private Catalog(TableEntries entries) {
        this.entries = entries;
    }

    /** The catalog of {@code location}: an object store location or a local folder's absolute path. */
    public static Catalog at(String location) {
        return Stores.isRemote(location) ? new Catalog(new StoreEntries(location)) : new Catalog(Path.of(location));
    }

    /** The catalog location, as messages name it. */
    public String location() {
        return entries.location();
    }

    /** Whether the tables are in an object store. */
    public boolean remote() {
        return entries.remote();
    }

    /** The tables as listed now. */
    public Tables tables() {
        TableEntries.Listed listed = entries.list();
        Map<String, List<String>> byName = new TreeMap<>();
        for (TableEntries.Entry e : listed.entries()) {
            byName.computeIfAbsent(e.name().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(e.location());
        }
        return new Tables(byName, listed.open());
    }

    /**
     * A listing's tables: per name (lower case) the locations that take it, and {@code open},
     * which opens the dataset at a table's location.
     */
    public record Tables(Map<String, List<String>> byName, Function<String, VortexDataset> open) {
        /** The tables' names (lower case), sorted. */
        public List<String> names() {
            return new ArrayList<>(byName.keySet());
        }

        /** The location of table {@code name} (a file or a folder), or empty when there is none. */
        public Optional<String> location(String name) {
            List<String> found = byName.get(name.toLowerCase(Locale.ROOT));
            if (found == null) {
                return Optional.empty();
            }
            if (found.size() > 1) {
                throw new TrinoException(AMBIGUOUS_NAME, "the table name '" + name + "' is taken by " + found + "; rename all but one");
            }
            return Optional.of(found.get(0));
        }
    }

    /** The folder (a store prefix ending in {@code /}) a new table {@code name} is written to. */
    public String newTableFolder(String name) {
        String folder = Staging.resolve(entries.location(), name.toLowerCase(Locale.ROOT));
        return remote() ? folder + "/" : folder;
    }
}
