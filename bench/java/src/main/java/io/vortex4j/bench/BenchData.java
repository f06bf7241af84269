package io.vortex4j.bench;

import io.vortex4j.cli.sample.Trades;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Values;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * The benchmark's data: the trades sample as {@code trades.vortex} (the reference writer's
 * default strategy) and a Parquet copy of the same rows written by DuckDB ({@code COPY … (FORMAT
 * parquet)}), both made once per folder and row count.
 */
final class BenchData {
    final Path dir;
    final Path vortex;
    final Path parquet;

    private BenchData(Path dir) {
        this.dir = dir;
        this.vortex = dir.resolve("trades.vortex");
        this.parquet = dir.resolve("trades.parquet");
    }

    /** The files for {@code rows} rows in {@code dir}, written if missing or of another size. */
    static BenchData ensure(Path dir, long rows) throws Exception {
        Files.createDirectories(dir);
        BenchData d = new BenchData(dir);
        if (Trades.rowsIn(d.vortex) != rows) {
            System.err.printf("writing %,d rows to %s%n", rows, d.vortex);
            Files.deleteIfExists(d.parquet);
            Trades.write(d.vortex, rows, 2026, null);
        }
        if (!Files.isRegularFile(d.parquet)) {
            System.err.printf("writing the Parquet copy %s with DuckDB%n", d.parquet);
            writeParquet(d.vortex, d.parquet);
        }
        return d;
    }


    /** Every row of the Vortex file appended to a DuckDB table, then copied to Parquet by DuckDB. */
    private static void writeParquet(Path vortex, Path parquet) throws SQLException {
        Path tmp = parquet.resolveSibling(parquet.getFileName() + ".tmp");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE trades (ts BIGINT NOT NULL, sym VARCHAR, price DOUBLE NOT NULL, volume BIGINT NOT NULL)");
            try (DuckDBAppender app = ((DuckDBConnection) c).createAppender(DuckDBConnection.DEFAULT_SCHEMA, "trades");
                 VortexFile file = VortexFile.open(vortex);
                 Scan scan = file.scan("ts", "sym", "price", "volume")) {
                for (Chunk chunk : scan) {
                    try (chunk) {
                        Array ts = chunk.column(0), sym = chunk.column(1), price = chunk.column(2), volume = chunk.column(3);
                        for (int i = 0; i < chunk.length(); i++) {
                            app.beginRow();
                            app.append((Long) Values.valueAt(ts, i));
                            app.append((String) Values.valueAt(sym, i));
                            app.append((Double) Values.valueAt(price, i));
                            app.append((Long) Values.valueAt(volume, i));
                            app.endRow();
                        }
                    }
                }
            }
            s.execute("COPY trades TO '" + tmp.toString().replace("'", "''") + "' (FORMAT parquet)");
        }
        try {
            Files.move(tmp, parquet, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot move " + tmp + " to " + parquet + ": " + e, e);
        }
    }
}
