package io.vortex4j.cli;

import io.vortex4j.reader.convert.ConvertOptions;
import io.vortex4j.reader.convert.Converter;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code convert IN... OUT}: Parquet, CSV and Arrow IPC files (or folders of them) into a Vortex
 * file, or a folder of files ({@code --max-rows-per-file}, {@code --partition-by}).
 */
@Command(name = "convert", description = {
    "Convert Parquet, CSV and Arrow IPC files or folders into Vortex.",
    "OUT is a .vortex file, or a folder with --max-rows-per-file or --partition-by (Hive-style col=value/ folders)."})
final class ConvertCommand implements Callable<Integer> {
    @Parameters(arity = "2..*", paramLabel = "IN... OUT", description = "input files or folders, then the output (local paths or object store locations)")
    List<String> paths;

    @Option(names = "--format", description = "input format for every input: parquet, csv or arrow (default: by extension)")
    String format;

    @Option(names = "--max-rows-per-file", paramLabel = "N", description = "start a new file after N rows")
    Long maxRowsPerFile;

    @Option(names = "--partition-by", split = ",", paramLabel = "COL", description = "Hive-style partition columns, outermost first")
    List<String> partitionBy;

    @Option(names = "--no-header", description = "CSV: the first record is data (columns are named column_1, ...)")
    boolean noHeader;

    @Option(names = "--delimiter", paramLabel = "C", description = "CSV field delimiter (default ,; \\t for tab)")
    String delimiter;

    @Option(names = "--quote", paramLabel = "C", description = "CSV quote character (default \")")
    String quote;

    @Option(names = "--escape", paramLabel = "C", description = "CSV escape character in quoted fields (default: quotes are doubled)")
    String escape;

    @Option(names = "--null", paramLabel = "TEXT", description = "CSV text of a NULL field (default: an empty field is NULL)")
    String nullToken;

    @Option(names = "--infer-rows", paramLabel = "N", description = "CSV records sampled to infer column types (default 10000)")
    Integer inferRows;

    @Option(names = "--schema", paramLabel = "COL:TYPE,...", description = {
        "CSV column types overriding inference: bool, int8..int64, uint8..uint64, float32, float64, utf8,"
            + " date, time(s|ms|us|ns), timestamp(s|ms|us|ns[, zone]), decimal(p, s)"})
    String schema;

    @Option(names = "--skip-bad-rows", description = "CSV: skip (and count) malformed records instead of failing")
    boolean skipBadRows;

    @Option(names = "--timing", description = {
        "print the conversion's own time on standard error: wall-clock seconds from opening the inputs"
            + " to the closed output, and the CPU seconds of the whole process (every thread) meanwhile"})
    boolean timing;

    @Override
    public Integer call() {
        List<String> inputs = paths.subList(0, paths.size() - 1);
        String out = paths.get(paths.size() - 1);
        ConvertOptions options = ConvertOptions.defaults();
        if (format != null) {
            options.format(format);
        }
        if (maxRowsPerFile != null) {
            options.maxRowsPerFile(maxRowsPerFile);
        }
        if (partitionBy != null) {
            options.partitionBy(partitionBy);
        }
        if (noHeader) {
            options.header(false);
        }
        if (delimiter != null) {
            options.delimiter(character("--delimiter", delimiter));
        }
        if (quote != null) {
            options.quote(character("--quote", quote));
        }
        if (escape != null) {
            options.escape(character("--escape", escape));
        }
        if (nullToken != null) {
            options.nullToken(nullToken);
        }
        if (inferRows != null) {
            options.inferRows(inferRows);
        }
        if (schema != null) {
            options.schema(schema);
        }
        if (skipBadRows) {
            options.skipBadRows(true);
        }
        Converter.Summary summary;
        ProcessClock clock = timing ? new ProcessClock() : null;
        try (Converter c = Converter.open(inputs, out, options)) {
            Progress progress = new Progress("converting into " + out, c.progress().bytesTotal(), "bytes read");
            while (c.step()) {
                progress.update(c.progress().bytesDone());
            }
            summary = c.finish();
            long bytes = summary.files().stream().mapToLong(Converter.WrittenFile::bytes).sum();
            progress.finish(String.format("%,d rows into %,d file%s (%,d bytes)%s", summary.rows(),
                    summary.files().size(), summary.files().size() == 1 ? "" : "s", bytes,
                    summary.badRows() == 0 ? "" : String.format(", %,d bad rows skipped", summary.badRows())));
        }
        if (clock != null) {
            System.err.println(clock.report());
        }
        return 0;
    }

    /** Wall-clock and process CPU time since it was made (JVM start-up excluded). */
    private static final class ProcessClock {
        private final com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        private final long wall = System.nanoTime();
        private final long cpu = os.getProcessCpuTime();

        /** {@code timing: wall_s=… cpu_s=…}, for people and for bench/convert/run.sh. */
        String report() {
            return String.format(java.util.Locale.ROOT, "timing: wall_s=%.3f cpu_s=%.3f (open to closed output, in process)",
                    (System.nanoTime() - wall) / 1e9, (os.getProcessCpuTime() - cpu) / 1e9);
        }
    }

    /** One character; {@code \t} is the tab. */
    private static char character(String option, String value) {
        if (value.equals("\\t")) {
            return '\t';
        }
        if (value.length() != 1) {
            throw new IllegalArgumentException(option + " takes one character, not '" + value + "'");
        }
        return value.charAt(0);
    }
}
