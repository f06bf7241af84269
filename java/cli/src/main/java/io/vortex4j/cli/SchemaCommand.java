package io.vortex4j.cli;

import io.vortex4j.reader.Field;
import io.vortex4j.reader.VortexFile;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.util.List;
import picocli.CommandLine.Command;

/**
 * {@code schema FILE|DIR}: per column its SQL type (as the {@code sql} command types it),
 * whether it may be NULL, and its Vortex dtype, as DuckDB's {@code DESCRIBE} does.
 */
@Command(name = "schema", description = "Show the columns of Vortex files: SQL type, nullability, dtype.")
final class SchemaCommand extends FileRowsCommand {
    /** The rows: table, column, sql_type, nullable, vortex_type. */
    @Override
    Rows rows(String path) throws Exception {
        return of(path);
    }

    static Rows of(String path) throws Exception {
        return perFile(path, List.of("table", "column", "sql_type", "nullable", "vortex_type"), (c, file, table, rows) -> {
            List<Field> fields;
            try (VortexFile f = VortexFile.open(file.path())) {
                fields = f.schema().fields();
            }
            // The SQL types as queries see them: the statement's columns, planned, never run.
            try (PreparedStatement s = c.prepareStatement("SELECT * FROM " + TableFiles.quoted(file.path()))) {
                ResultSetMetaData md = s.getMetaData();
                for (int i = 0; i < md.getColumnCount(); i++) {
                    rows.add(new Object[] {table, md.getColumnLabel(i + 1), md.getColumnTypeName(i + 1),
                        md.isNullable(i + 1) == ResultSetMetaData.columnNoNulls ? "NO" : "YES",
                        fields.get(i).type().toString()});
                }
            }
        });
    }
}
