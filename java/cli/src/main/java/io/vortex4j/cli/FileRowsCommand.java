package io.vortex4j.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** A command printing rows it computes about {@code FILE|DIR} ({@code schema}, {@code stats}) in an output format. */
abstract class FileRowsCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE|DIR", description = "a .vortex file or a folder of them")
    Path path;

    @Option(names = "--format", defaultValue = "table", description = "table (default), csv, tsv, json or markdown")
    String format;

    /** The rows to print about {@code path}. */
    abstract Rows rows(Path path) throws Exception;

    @Override
    public Integer call() throws Exception {
        OutputFormat out = OutputFormat.of(format);
        PrintWriter w = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        out.write(rows(path), w);
        w.flush();
        return 0;
    }
}
