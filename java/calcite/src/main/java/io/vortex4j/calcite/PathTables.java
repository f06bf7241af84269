package io.vortex4j.calcite;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.dataset.Listing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.schema.Table;

/**
 * Tables named by a path in FROM ({@code FROM "data/trades.vortex"}, or {@code FROM
 * 'data/trades.vortex'} rewritten by {@link PathLiterals}): a Vortex file, a folder of them, or a
 * glob ({@code 'days/*.vortex'}), each opened as a {@link io.vortex4j.reader.dataset.VortexDataset},
 * resolved against the connection's
 * folder under its {@link PathAccess}. A name is a path when it holds a {@code /} (or {@code \}),
 * a glob character, or ends with {@code .vortex}; other names are the folder's tables. A file
 * opened is kept for the connection's life, as the folder's tables are.
 */
public final class PathTables {
    private final Path folder;
    /** The connection's store location (null when its folder is local). */
    private final String remote;
    private final PathAccess access;
    private final boolean pushdown;
    private final int threads;
    private final Map<String, Table> opened = new ConcurrentHashMap<>();

    PathTables(Path folder, String remote, PathAccess access, boolean pushdown, int threads) {
        this.folder = folder == null ? null : folder.toAbsolutePath().normalize();
        this.remote = remote;
        this.access = access;
        this.pushdown = pushdown;
        this.threads = threads;
    }

    /**
     * Rewrites {@code sql}'s path literals in FROM ({@link PathLiterals}) and adds the files it
     * names by path as tables of the connection's {@value VortexSql#SCHEMA} schema, so that
     * Calcite's catalog finds them (it knows a schema's tables by listing them, which paths
     * cannot be). A file opened once stays registered; a path that failed is tried again.
     *
     * @return the statement to prepare
     */
    public static String register(CalcitePrepare.Context context, String sql) {
        Quoting quoting = context.config().quoting();
        PathLiterals.Rewritten rewritten = PathLiterals.rewrite(sql, quoting == null ? Quoting.DOUBLE_QUOTE : quoting);
        if (rewritten.paths.isEmpty()) {
            return rewritten.sql;
        }
        CalciteSchema schema = context.getMutableRootSchema().getSubSchema(VortexSql.SCHEMA, true);
        if (schema != null && schema.schema instanceof VortexSchema) {
            PathTables paths = ((VortexSchema) schema.schema).pathTables();
            for (String name : rewritten.paths) {
                if (!paths.opened.containsKey(name)) {
                    Table table = paths.table(name);
                    synchronized (schema) {
                        schema.add(name, table);
                    }
                }
            }
        }
        return rewritten.sql;
    }

    /** Whether {@code name} is read as a path rather than a table of the folder. */
    static boolean isPath(String name) {
        return name.indexOf('/') >= 0 || name.indexOf('\\') >= 0 || name.endsWith(VortexSchema.SUFFIX)
                || name.indexOf('*') >= 0 || name.indexOf('?') >= 0 || name.indexOf('[') >= 0;
    }

    /**
     * The table of the path {@code name}, null when {@code name} is not a path; a path that is
     * refused or cannot be read is a table whose queries fail with the reason.
     */
    Table table(String name) {
        if (!isPath(name)) {
            return null;
        }
        Table t = opened.get(name);
        if (t != null) {
            return t;
        }
        try {
            t = VortexTable.open(name, remote != null || Stores.isRemote(name) ? locate(name) : resolve(name).toString(),
                    pushdown, threads);
            opened.put(name, t);
            return t;
        } catch (RuntimeException e) {
            return new UnreadableTable(name, e);
        }
    }

    /**
     * The store location {@code name} names: itself when it is one, else relative to the
     * connection's store location. With {@link PathAccess#FOLDER} it must stay under that location.
     */
    private String locate(String name) {
        if (access == PathAccess.NONE) {
            throw new VortexException("paths in FROM are off on this connection (connection property paths=folder or any)");
        }
        if (!Stores.isRemote(name)) {
            if (remote == null || name.startsWith("/")) {
                throw new VortexException("a local path on a connection over " + remote);
            }
            name = remote + "/" + name;
        }
        if (access == PathAccess.FOLDER) {
            if (remote == null || !name.startsWith(remote + "/")) {
                throw new VortexException("outside the connection's location " + (remote == null ? folder : remote)
                        + " (connection property paths=any allows more)");
            }
            for (String part : name.substring(remote.length() + 1).split("/")) {
                if (part.equals("..")) {
                    throw new VortexException("'..' is refused in paths in FROM: they stay inside " + remote
                            + " (connection property paths=any allows more)");
                }
            }
        }
        return name;
    }

    /**
     * The real file or folder {@code name} names (a glob: the path with its glob, its fixed root
     * checked), or an error saying why it may not be read.
     */
    private Path resolve(String name) {
        if (access == PathAccess.NONE) {
            throw new VortexException("paths in FROM are off on this connection (connection property paths=folder or any)");
        }
        Path given;
        try {
            given = Paths.get(name);
        } catch (InvalidPathException e) {
            throw new VortexException("not a valid path: " + e.getMessage());
        }
        boolean glob = Listing.isGlob(name);
        Path path = folder.resolve(given).normalize();
        if (access == PathAccess.FOLDER) {
            for (Path part : given) {
                if (part.toString().equals("..")) {
                    throw new VortexException("'..' is refused in paths in FROM: they stay inside " + folder
                            + " (connection property paths=any allows more)");
                }
            }
            if (!path.startsWith(folder)) {
                throw new VortexException("outside the connection's folder " + folder
                        + " (connection property paths=any allows more)");
            }
        }
        Path root = glob ? Listing.globRoot(path) : path;
        if (!Files.exists(root)) {
            throw new VortexException(glob ? "no such folder " + root : "no such file");
        }
        Path real;
        try {
            real = root.toRealPath();
            if (access == PathAccess.FOLDER && !real.startsWith(folder.toRealPath())) {
                throw new VortexException("a symbolic link out of the connection's folder " + folder
                        + " (connection property paths=any allows more)");
            }
        } catch (IOException e) {
            throw new VortexException("cannot resolve: " + e.getMessage());
        }
        return glob ? real.resolve(root.relativize(path)) : real;
    }
}
