package io.vortex4j.calcite;

import io.vortex4j.VortexException;
import io.vortex4j.reader.dataset.Listing;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.exec.SplitExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * A directory of Vortex files as a schema: each file {@code NAME.vortex} is the table {@code
 * NAME}, named exactly as the file (case kept), and each sub-folder {@code NAME/} holding {@code
 * .vortex} files (at any depth, Hive-style {@code key=value/} folders included) is the table
 * {@code NAME} over all of them ({@link io.vortex4j.reader.dataset.VortexDataset}, partition columns
 * last). A name taken by a file and a folder is a table whose queries fail naming both. Folders
 * and files whose names start with {@code .} or {@code _} are skipped. Column names are the
 * files' column names.
 *
 * <p>Names are matched the way the connection says: with Calcite's defaults (unquoted
 * identifiers upper-cased, case-sensitive matching) a file {@code trades.vortex} must be
 * written {@code "trades"}; connections from {@link VortexSql#connect} and models used with the
 * properties {@code caseSensitive=false;unquotedCasing=UNCHANGED} let {@code trades}, {@code
 * TRADES} and {@code Trades} all work.
 *
 * <p>The directory is listed, and its files opened, the first time the schema's tables are
 * asked for. A file that cannot be opened still appears as a table, and queries using it fail
 * with the reason; the other tables work.
 */
public final class VortexSchema extends AbstractSchema {
    /** The file suffix of Vortex tables. */
    public static final String SUFFIX = ".vortex";

    private final Path directory;
    /** The store location the tables come from (null for a local directory). */
    private final String remote;
    private final boolean pushdown;
    private final PathTables paths;
    private final int threads;
    private Map<String, Table> tables;

    /**
     * A schema over {@code directory}; {@code pushdown} chooses tables with filter, projection
     * and aggregate push-down ({@link VortexPushdownTable}) or plain scannable tables.
     */
    public VortexSchema(Path directory, boolean pushdown) {
        this(directory, pushdown, PathAccess.NONE);
    }

    /** A schema over {@code directory} whose tables include files named by path, as {@code paths} allows ({@link PathAccess}). */
    public VortexSchema(Path directory, boolean pushdown, PathAccess paths) {
        this(directory, pushdown, paths, SplitExecutor.defaultThreads());
    }

    /**
     * A schema over {@code directory} whose tables run the splits of pushed aggregates on up to
     * {@code threads} threads ({@link SplitExecutor}).
     */
    public VortexSchema(Path directory, boolean pushdown, PathAccess paths, int threads) {
        if (threads <= 0) {
            throw new IllegalArgumentException("threads must be positive, not " + threads);
        }
        this.directory = directory.toAbsolutePath();
        this.remote = null;
        this.pushdown = pushdown;
        this.threads = threads;
        this.paths = new PathTables(this.directory, null, paths, pushdown, threads);
    }

    /**
     * A schema over the store location {@code location} ({@code s3://bucket/prefix}, see {@link
     * io.vortex4j.reader.Stores}): its {@code NAME.vortex} objects and the prefixes holding
     * {@code .vortex} objects are the tables, as a local directory's files and folders are.
     */
    public VortexSchema(String location, boolean pushdown, PathAccess paths, int threads) {
        if (threads <= 0) {
            throw new IllegalArgumentException("threads must be positive, not " + threads);
        }
        this.remote = location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
        this.directory = null;
        this.pushdown = pushdown;
        this.threads = threads;
        this.paths = new PathTables(null, this.remote, paths, pushdown, threads);
    }

    /** The files by path this schema's connection may query. */
    PathTables pathTables() {
        return paths;
    }

    /** The directory the tables come from; null when they come from an object store ({@link #location()}). */
    public Path directory() {
        return directory;
    }

    /** The directory or store location the tables come from. */
    public String location() {
        return remote != null ? remote : directory.toString();
    }

    /** Whether the tables push filters, projections and aggregates into the scan. */
    public boolean pushdown() {
        return pushdown;
    }

    @Override
    public boolean isMutable() {
        return false;
    }

    @Override
    protected synchronized Map<String, Table> getTableMap() {
        if (tables == null) {
            tables = Collections.unmodifiableMap(load());
        }
        return tables;
    }

    private Map<String, Table> load() {
        if (remote != null) {
            return loadRemote();
        }
        if (!Files.isDirectory(directory)) {
            throw new VortexException("Vortex schema directory " + directory + " does not exist or is not a directory");
        }
        Map<String, String> files = new TreeMap<>();
        Map<String, String> folders = new TreeMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(directory)) {
            for (Path p : ds) {
                String entry = p.getFileName().toString();
                if (entry.startsWith(".") || entry.startsWith("_")) {
                    continue;
                }
                if (Files.isRegularFile(p) && entry.endsWith(SUFFIX) && entry.length() > SUFFIX.length()) {
                    files.put(entry.substring(0, entry.length() - SUFFIX.length()), p.toString());
                } else if (Files.isDirectory(p) && holdsVortexFiles(p)) {
                    folders.put(entry, p.toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + directory, e);
        }
        return tablesOf(files, folders, "folder", (name, location) -> VortexTable.open(name, location, pushdown, threads));
    }

    /**
     * The tables of {@code files} (by table name, a file's location) and {@code folders} (a
     * dataset's location); a name taken by both (a {@code folderWord}) is a table that fails
     * saying so, a file or folder that cannot be opened ({@code open}: name, location) one that
     * fails with the reason.
     */
    private Map<String, Table> tablesOf(Map<String, String> files, Map<String, String> folders, String folderWord,
            BiFunction<String, String, VortexTable> open) {
        Map<String, Table> map = new LinkedHashMap<>();
        Map<String, String> all = new TreeMap<>(files);
        all.putAll(folders);
        for (Map.Entry<String, String> e : all.entrySet()) {
            String name = e.getKey();
            Table table;
            if (files.containsKey(name) && folders.containsKey(name)) {
                table = new UnreadableTable(e.getValue(), new VortexException("the table name '" + name + "' is taken by both "
                        + files.get(name) + " and the " + folderWord + " " + folders.get(name) + "; rename one"));
            } else {
                try {
                    table = open.apply(name, e.getValue());
                } catch (RuntimeException ex) {
                    table = new UnreadableTable(e.getValue(), ex);
                }
            }
            map.put(name, table);
        }
        return map;
    }

    /**
     * The tables of a store location: each {@code NAME.vortex} object right under it, and each
     * prefix one level down holding {@code .vortex} objects (a table as a folder is).
     */
    private Map<String, Table> loadRemote() {
        Listing.Result all = Listing.list(remote + "/");
        Listing.Tables tables = Listing.tables(all, remote);
        return tablesOf(tables.files(), tables.folders(), "prefix", (name, location) ->
                VortexTable.of(name, VortexDataset.open(location, Listing.within(all, location)), pushdown, threads));
    }

    /** Whether {@code folder} holds a {@code .vortex} file at some depth (skipping {@code .} and {@code _} names). */
    private static boolean holdsVortexFiles(Path folder) {
        try (Stream<Path> walk = Files.walk(folder)) {
            return walk.anyMatch(p -> {
                for (Path part : folder.relativize(p)) {
                    String s = part.toString();
                    if (s.startsWith(".") || s.startsWith("_")) {
                        return false;
                    }
                }
                return p.getFileName().toString().endsWith(SUFFIX) && Files.isRegularFile(p);
            });
        } catch (IOException | UncheckedIOException e) {
            return true; // a folder that cannot be walked is a table that reports why
        }
    }

    @Override
    public String toString() {
        return "VortexSchema[" + location() + (pushdown ? "" : ", no push-down") + "]";
    }
}
