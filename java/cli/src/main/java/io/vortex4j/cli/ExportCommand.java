package io.vortex4j.cli;

import io.vortex4j.calcite.PredicateParser;
import io.vortex4j.reader.Predicate;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.convert.Exporter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code export FILE|DIR --format csv|parquet|arrow [--columns ...] [--where SQL] OUT}: rows of
 * a Vortex file (or of every {@code .vortex} file under a folder, in path order) into one CSV,
 * Parquet or Arrow IPC file, streaming; {@code --where} selects rows exactly as SQL would.
 */
@Command(name = "export", description = {
    "Export a Vortex file (or the .vortex files under a folder) to CSV, Parquet or Arrow IPC.",
    "--where takes a SQL condition; it is translated exactly into the reader's filter (or refused)."})
final class ExportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE|DIR", description = "a .vortex file, or a folder of them")
    Path input;

    @Parameters(index = "1", paramLabel = "OUT", description = "the file to write")
    Path out;

    @Option(names = "--format", required = true, description = "csv, parquet or arrow")
    String format;

    @Option(names = "--columns", split = ",", paramLabel = "COL", description = "columns to export, in order (default: all)")
    List<String> columns;

    @Option(names = "--where", paramLabel = "SQL", description = "a SQL condition on the file's columns, e.g. \"sym = 'AAPL' AND price > 100\"")
    String where;

    @Option(names = "--no-header", description = "CSV: no header line")
    boolean noHeader;

    @Option(names = "--delimiter", paramLabel = "C", description = "CSV field delimiter (default ,)")
    String delimiter;

    @Option(names = "--null", paramLabel = "TEXT", description = "CSV text written for NULL (default: empty)")
    String nullToken;

    @Override
    public Integer call() {
        List<Path> files = files(input);
        List<String> options = new ArrayList<>();
        if (noHeader) {
            options.add("header=false");
        }
        if (delimiter != null) {
            options.add("delimiter=" + delimiter);
        }
        if (nullToken != null) {
            options.add("null=" + nullToken);
        }
        Progress progress = new Progress("exporting " + input, total(files));
        long rows;
        long done = 0;
        try (VortexFile first = VortexFile.open(files.get(0))) {
            List<String> names = columns == null ? first.schema().names() : columns;
            if (where != null) {
                PredicateParser.parse(where, first.schema()); // fail before creating anything
            }
            try (Exporter e = Exporter.create(first, names, out, format, options)) {
                for (Path p : files) {
                    try (VortexFile file = p.equals(files.get(0)) ? null : VortexFile.open(p)) {
                        VortexFile f = file == null ? first : file;
                        if (!f.schema().equals(first.schema())) {
                            throw new IllegalArgumentException(p + ": its columns " + f.schema() + " differ from "
                                    + files.get(0) + "'s " + first.schema());
                        }
                        Predicate filter = where == null ? null : PredicateParser.parse(where, f.schema());
                        e.append(f, names, filter, progress::update);
                    }
                }
                rows = e.finish();
            }
        }
        progress.finish(String.format("%,d rows into %s", rows, out));
        return 0;
    }

    private static long total(List<Path> files) {
        long n = 0;
        for (Path p : files) {
            try (VortexFile f = VortexFile.open(p)) {
                n += f.rowCount();
            }
        }
        return n;
    }

    /** The file, or the {@code .vortex} files under the folder in path order. */
    private static List<Path> files(Path input) {
        if (!Files.isDirectory(input)) {
            return List.of(input);
        }
        try (Stream<Path> s = Files.walk(input)) {
            List<Path> files = s.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".vortex"))
                    .sorted().collect(Collectors.toList());
            if (files.isEmpty()) {
                throw new IllegalArgumentException(input + " holds no .vortex files");
            }
            if (files.stream().anyMatch(p -> input.relativize(p).toString().contains("="))) {
                System.err.println("vortex4j: note: the values of Hive partition folders (col=value/) are not exported as columns");
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + input, e);
        }
    }
}
