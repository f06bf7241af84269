package io.vortex4j.cli;

import io.vortex4j.cli.sample.Trades;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code generate trades DIR --rows N}: writes the sample table to {@code DIR/trades.vortex}. */
@Command(name = "generate", description = "Write a sample table: generate trades DIR [--rows N].")
final class GenerateCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "the table to generate (trades)")
    String table;

    @Parameters(index = "1", description = "the folder to write TABLE.vortex into")
    Path dir;

    @Option(names = "--rows", description = "rows to write (default ${DEFAULT-VALUE})", defaultValue = "1000000")
    long rows;

    @Option(names = "--seed", description = "random seed (default ${DEFAULT-VALUE})", defaultValue = "2026")
    long seed;

    @Override
    public Integer call() throws Exception {
        if (!"trades".equals(table)) {
            throw new IllegalArgumentException("unknown table '" + table + "'; the sample table is 'trades'");
        }
        if (rows < 0) {
            throw new IllegalArgumentException("--rows must not be negative");
        }
        Files.createDirectories(dir);
        Path file = dir.resolve("trades.vortex");
        generate(file, rows, seed);
        return 0;
    }

    /** Writes the trades sample with a progress line; shared with {@code demo}. */
    static void generate(Path file, long rows, long seed) {
        Progress progress = new Progress("generating " + file, rows);
        long size = Trades.write(file, rows, seed, progress::update);
        progress.finish(String.format("%,d rows, %,d bytes", rows, size));
    }
}
