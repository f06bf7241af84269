package io.vortex4j.cli;

import io.vortex4j.calcite.PredicateParser;
import io.vortex4j.reader.convert.Exporter;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code export FILE|DIR|GLOB --format csv|parquet|arrow [--columns ...] [--where SQL] OUT}: rows
 * of a Vortex file or dataset (every file under a folder or matching a glob, in path order, with
 * the columns of its Hive partition folders) into one CSV, Parquet or Arrow IPC file, streaming;
 * {@code --where} selects rows exactly as SQL would, and files whose partition values it rules out
 * are not read.
 */
@Command(name = "export", description = {
    "Export Vortex files to CSV, Parquet or Arrow IPC.",
    "The input is a Vortex file or dataset: a folder or glob of files, with its key=value/ partition columns.",
    "--where takes a SQL condition; it is translated exactly into the reader's filter (or refused)."})
final class ExportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE|DIR|GLOB", description = "a .vortex file, a folder of them, or a glob (local or in an object store)")
    String input;

    @Parameters(index = "1", paramLabel = "OUT", description = "the file to write (local, or an object store location)")
    String out;

    @Option(names = "--format", required = true, description = "csv, parquet or arrow")
    String format;

    @Option(names = "--columns", split = ",", paramLabel = "COL", description = "columns to export, in order, partition columns included (default: all)")
    List<String> columns;

    @Option(names = "--where", paramLabel = "SQL", description = "a SQL condition on the columns (partition columns included), e.g. \"sym = 'AAPL' AND price > 100\"")
    String where;

    @Option(names = "--no-header", description = "CSV: no header line")
    boolean noHeader;

    @Option(names = "--delimiter", paramLabel = "C", description = "CSV field delimiter (default ,)")
    String delimiter;

    @Option(names = "--null", paramLabel = "TEXT", description = "CSV text written for NULL (default: empty)")
    String nullToken;

    @Override
    public Integer call() {
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
        long rows;
        try (VortexDataset dataset = VortexDataset.open(input)) {
            List<String> names = columns == null ? dataset.schema().names() : columns;
            // Fails before anything is created on a condition that cannot be translated exactly.
            Predicate filter = where == null ? null : PredicateParser.parse(where, dataset.schema());
            Progress progress = new Progress("exporting " + input, dataset.estimatedRowCount());
            try (Exporter e = Exporter.create(dataset, names, out, format, options)) {
                e.append(dataset, names, filter, progress::update);
                rows = e.finish();
            }
            progress.finish(String.format("%,d rows into %s", rows, out));
        }
        return 0;
    }
}
