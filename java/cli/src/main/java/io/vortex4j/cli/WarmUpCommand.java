package io.vortex4j.cli;

import io.vortex4j.cli.sample.Trades;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code warm-up} (hidden): the training run {@code bin/vortex4j} records its class-data-sharing
 * archive from ({@code -XX:ArchiveClassesAtExit}): the classes a typical command loads — the
 * reader, Calcite planning pushed and not pushed queries, Janino, every output format, {@code sql}'s
 * argument parsing ({@link QuickArgs}) and start-up set-up ({@link StartupPreload}) — so later runs
 * map them instead of loading and verifying them again. Prints nothing.
 */
@Command(name = "warm-up", hidden = true, description = "the training run of the class-data archive")
final class WarmUpCommand implements Callable<Integer> {
    static final List<String> QUERIES = List.of(
            "SELECT 1",
            "SELECT COUNT(*) FROM trades WHERE sym = 'AAPL'",
            "SELECT sym, COUNT(*), SUM(volume), AVG(price) FROM trades WHERE sym IN ('AAPL', 'IBM') GROUP BY sym",
            "SELECT * FROM trades WHERE volume > 10 ORDER BY ts LIMIT 5",
            "SELECT COUNT(*) FROM 'trades.vortex' WHERE sym LIKE 'A%'");

    @Override
    public Integer call() throws Exception {
        Path dir = Files.createTempDirectory("vortex4j-warm-up");
        Path file = dir.resolve("trades.vortex");
        try {
            Trades.write(file, 10_000, 1, n -> {});
            PrintWriter sink = new PrintWriter(new StringWriter());
            // A one-shot sql command line is parsed by QuickArgs, not picocli: its classes too.
            QuickArgs.parse(new SqlCommand(), List.of("--data", dir.toString(), "--format", "csv", QUERIES.get(0)));
            StartupPreload.start();
            StartupPreload.statements(QUERIES);
            StartupPreload.await();
            try (Connection c = SqlCommand.connect(dir, List.of(), true); Statement s = c.createStatement()) {
                for (String q : QUERIES) {
                    for (OutputFormat f : OutputFormat.values()) {
                        try (ResultSet rs = s.executeQuery(q)) {
                            f.write(Rows.of(rs), sink);
                        }
                    }
                }
            }
            OutputFormat.TABLE.write(SchemaCommand.of(file.toString()), sink);
            OutputFormat.TABLE.write(StatsCommand.of(file.toString()), sink);
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
        return 0;
    }
}
