package io.vortex4j.cli;

import io.vortex4j.reader.Stores;
import io.vortex4j.reader.dataset.ListedFile;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** A command printing rows it computes about {@code FILE|DIR} ({@code schema}, {@code stats}) in an output format. */
abstract class FileRowsCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE|DIR", description = "a .vortex file or a folder of them (or an object store location)")
    String path;

    @Option(names = "--format", defaultValue = "table", description = "table (default), csv, tsv, json or markdown")
    String format;

    /** The rows to print about {@code path}. */
    abstract Rows rows(String path) throws Exception;

    /** The rows one file of a table contributes. */
    @FunctionalInterface
    interface PerFile {
        /**
         * Adds the rows of {@code file} (its location and size), the table {@code table}, to
         * {@code rows}; {@code sql} plans over its folder.
         */
        void add(Connection sql, ListedFile file, String table, List<Object[]> rows) throws Exception;
    }

    /**
     * The rows {@code perFile} computes for each file {@code path} names (one file, or a folder's
     * files), with one SQL connection over their folder, under {@code header}.
     */
    static Rows perFile(String path, List<String> header, PerFile perFile) throws Exception {
        List<ListedFile> files = TableFiles.of(path);
        List<Object[]> rows = new ArrayList<>();
        // Files are named by absolute location in FROM: the connection's folder only has to exist.
        Path folder = Stores.isRemote(path) ? Path.of("").toAbsolutePath() : Path.of(files.get(0).path()).getParent();
        try (Connection c = SqlCommand.connect(folder, List.of(), true)) {
            for (ListedFile file : files) {
                perFile.add(c, file, TableFiles.tableName(file.path()), rows);
            }
        }
        return Rows.of(header, rows);
    }

    @Override
    public Integer call() throws Exception {
        OutputFormat out = OutputFormat.of(format);
        PrintWriter w = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        out.write(rows(path), w);
        w.flush();
        return 0;
    }
}
