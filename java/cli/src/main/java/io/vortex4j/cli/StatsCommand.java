package io.vortex4j.cli;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.VarBinDictArray;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import picocli.CommandLine.Command;

/**
 * {@code stats FILE|DIR}: per column the file's rows and bytes, the null count, min and max (the
 * pushed-down SQL aggregates) and, for dictionary-encoded columns, the dictionary's size as the
 * distinct estimate, as DuckDB's {@code SUMMARIZE} does.
 */
@Command(name = "stats", description = {"Show the statistics of each column of Vortex files.",
    "Rows, bytes, nulls, min, max, and the distinct estimate of dictionary-encoded columns"
        + " (the largest dictionary of its chunks)."})
final class StatsCommand extends FileRowsCommand {
    /** The rows: table, column, type, rows, bytes, nulls, min, max, distinct (null: not known). */
    @Override
    Rows rows(String path) throws Exception {
        return of(path);
    }

    static Rows of(String path) throws Exception {
        List<String> header = List.of("table", "column", "type", "rows", "bytes", "nulls", "min", "max", "distinct");
        return perFile(path, header, (c, file, table, rows) -> {
            long bytes = file.size();
            try (VortexFile f = VortexFile.open(file.path())) {
                for (Field field : f.schema().fields()) {
                    Object[] agg = aggregates(c, file.path(), field.name());
                    rows.add(new Object[] {table, field.name(), field.type().toString(), f.rowCount(), bytes,
                        agg[0] == null ? null : f.rowCount() - ((Number) agg[0]).longValue(), agg[1], agg[2],
                        dictionarySize(f, field.name())});
                }
            }
        });
    }

    /** COUNT, MIN and MAX of the column through SQL; nulls where the type has no order (MIN/MAX refused). */
    private static Object[] aggregates(Connection c, String file, String column) throws SQLException {
        String col = "\"" + column.replace("\"", "\"\"") + "\"";
        String from = " FROM " + TableFiles.quoted(file);
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(" + col + "), MIN(" + col + "), MAX(" + col + ")" + from)) {
            rs.next();
            return new Object[] {rs.getObject(1), rs.getObject(2), rs.getObject(3)};
        } catch (SQLException unordered) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(" + col + ")" + from)) {
                rs.next();
                return new Object[] {rs.getObject(1), null, null};
            }
        }
    }

    /**
     * The largest dictionary among the column's chunks (its non-null entries), or null when the column is not
     * dictionary-encoded (its first chunk is not): the number of distinct values when one
     * dictionary serves every chunk, as the reference writer does, a lower bound otherwise.
     */
    private static Long dictionarySize(VortexFile f, String column) {
        long max = -1;
        try (Scan scan = f.scan(column)) {
            for (Chunk chunk : scan) {
                try (chunk) {
                    if (!(chunk.column(0) instanceof VarBinDictArray)) {
                        return max < 0 ? null : max;
                    }
                    max = Math.max(max, values(((VarBinDictArray) chunk.column(0)).dictionary()));
                }
            }
        }
        return max < 0 ? null : max;
    }

    /** The dictionary's entries but null (a nullable column's dictionary may hold one). */
    private static long values(io.vortex4j.reader.array.VarBinArray dictionary) {
        long n = 0;
        for (int i = 0; i < dictionary.length(); i++) {
            n += dictionary.isNull(i) ? 0 : 1;
        }
        return n;
    }
}
