package io.vortex4j.calcite;

import io.vortex4j.VortexException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * A directory of Vortex files as a schema: each file {@code NAME.vortex} is the table {@code
 * NAME}, named exactly as the file (case kept). Column names are the files' column names.
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
    private final boolean pushdown;
    private final PathTables paths;
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
        this.directory = directory.toAbsolutePath();
        this.pushdown = pushdown;
        this.paths = new PathTables(this.directory, paths, pushdown);
    }

    /** The files by path this schema's connection may query. */
    PathTables pathTables() {
        return paths;
    }

    /** The directory the tables come from. */
    public Path directory() {
        return directory;
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
        if (!Files.isDirectory(directory)) {
            throw new VortexException("Vortex schema directory " + directory + " does not exist or is not a directory");
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path p : ds) {
                if (Files.isRegularFile(p)) {
                    files.add(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + directory, e);
        }
        Collections.sort(files);
        Map<String, Table> map = new LinkedHashMap<>();
        for (Path p : files) {
            String file = p.getFileName().toString();
            String name = file.substring(0, file.length() - SUFFIX.length());
            if (!name.isEmpty()) {
                Table table;
                try {
                    table = VortexTable.open(name, p, pushdown);
                } catch (RuntimeException e) {
                    table = new UnreadableTable(p, e);
                }
                map.put(name, table);
            }
        }
        return map;
    }

    @Override
    public String toString() {
        return "VortexSchema[" + directory + (pushdown ? "" : ", no push-down") + "]";
    }
}
