package io.vortex4j.cli;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How {@code sql} prints a result. Every format but {@code table} streams its rows and prints
 * nothing but the rows (and a header where the format has one). How each shows NULL and the
 * empty string:
 *
 * <ul>
 *   <li>{@code table}: an aligned box; NULL is {@code NULL}, the empty string an empty cell;
 *       numbers right-aligned;</li>
 *   <li>{@code csv}: RFC 4180; NULL is an empty field, the empty string {@code ""};</li>
 *   <li>{@code tsv}: tab-separated, tab/newline/carriage return/backslash escaped as {@code \t
 *       \n \r \\}; NULL is {@code \N} (as PostgreSQL's text format and DuckDB read it), the empty
 *       string an empty field;</li>
 *   <li>{@code json}: JSON lines, one object per row; NULL is {@code null}, numbers are JSON
 *       numbers (NaN and infinities, which JSON lacks, are strings);</li>
 *   <li>{@code markdown}: a GitHub table; NULL is {@code NULL}, {@code |} escaped.</li>
 * </ul>
 */
enum OutputFormat {
    TABLE, CSV, TSV, JSON, MARKDOWN;

    /** The format named {@code name} (case-insensitive), or an error listing the formats. */
    static OutputFormat of(String name) {
        for (OutputFormat f : values()) {
            if (f.name().equalsIgnoreCase(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("--format must be table, csv, tsv, json or markdown, not '" + name + "'");
    }

    /** The name the shell and {@code --format} use. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Prints {@code rs} to {@code out}; returns the number of rows. The header is printed once
     * the first row is computed, so a query failing on its first row prints nothing.
     */
    long write(Rows rs, PrintWriter out) throws SQLException {
        String[] names = rs.names();
        int n = names.length;
        if (this == TABLE) {
            return table(rs, names, out);
        }
        boolean more = rs.next();
        header(names, out);
        long rows = 0;
        Object[] values = new Object[n];
        for (; more; more = rs.next()) {
            for (int i = 0; i < n; i++) {
                values[i] = rs.get(i);
            }
            row(names, values, out);
            rows++;
        }
        out.flush();
        return rows;
    }

    private void header(String[] names, PrintWriter out) {
        StringBuilder b = new StringBuilder();
        switch (this) {
            case CSV:
                for (int i = 0; i < names.length; i++) {
                    b.append(i > 0 ? "," : "").append(csv(names[i]));
                }
                break;
            case TSV:
                for (int i = 0; i < names.length; i++) {
                    b.append(i > 0 ? "\t" : "").append(tsv(names[i]));
                }
                break;
            case MARKDOWN:
                b.append('|');
                for (String name : names) {
                    b.append(' ').append(markdown(name)).append(" |");
                }
                b.append("\n|");
                for (int i = 0; i < names.length; i++) {
                    b.append("---|");
                }
                break;
            default:
                return; // JSON lines have no header
        }
        out.println(b);
    }

    private void row(String[] names, Object[] values, PrintWriter out) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            Object v = values[i];
            String text = Cells.text(v);
            switch (this) {
                case CSV:
                    b.append(i > 0 ? "," : "").append(text == null ? "" : text.isEmpty() ? "\"\"" : csv(text));
                    break;
                case TSV:
                    b.append(i > 0 ? "\t" : "").append(text == null ? "\\N" : tsv(text));
                    break;
                case MARKDOWN:
                    b.append(i == 0 ? "|" : "").append(' ').append(text == null ? "NULL" : markdown(text)).append(" |");
                    break;
                case JSON:
                    b.append(i == 0 ? "{" : ",").append(Json.string(names[i])).append(':');
                    b.append(text == null ? "null" : v instanceof Boolean || jsonNumber(v) ? text : Json.string(text));
                    break;
                default:
                    throw new AssertionError(this);
            }
        }
        if (this == JSON) {
            b.append(values.length == 0 ? "{}" : "}");
        }
        out.println(b);
    }

    /** Numbers JSON can write: all but NaN and the infinities. */
    private static boolean jsonNumber(Object v) {
        if (v instanceof Double || v instanceof Float) {
            return Double.isFinite(((Number) v).doubleValue());
        }
        return Cells.numeric(v);
    }

    /** The table format keeps every row to align the columns. */
    private static long table(Rows rs, String[] names, PrintWriter out) throws SQLException {
        int n = names.length;
        List<String[]> rows = new ArrayList<>();
        boolean[] right = new boolean[n];
        int[] width = new int[n];
        for (int i = 0; i < n; i++) {
            width[i] = Cells.width(names[i]);
        }
        while (rs.next()) {
            String[] row = new String[n];
            for (int i = 0; i < n; i++) {
                Object v = rs.get(i);
                String text = Cells.text(v);
                row[i] = text == null ? "NULL" : printable(text);
                right[i] |= Cells.numeric(v);
                width[i] = Math.max(width[i], Cells.width(row[i]));
            }
            rows.add(row);
        }
        StringBuilder sep = new StringBuilder("+");
        for (int w : width) {
            sep.append("-".repeat(w + 2)).append('+');
        }
        out.println(sep);
        out.println(line(names, width, new boolean[n]));
        out.println(sep);
        for (String[] r : rows) {
            out.println(line(r, width, right));
        }
        out.println(sep);
        out.flush();
        return rows.size();
    }

    private static String line(String[] cells, int[] width, boolean[] right) {
        StringBuilder b = new StringBuilder("|");
        for (int i = 0; i < cells.length; i++) {
            String pad = " ".repeat(width[i] - Cells.width(cells[i]));
            b.append(' ').append(right[i] ? pad + cells[i] : cells[i] + pad).append(" |");
        }
        return b.toString();
    }

    /** Control characters would break the table's lines: shown escaped. */
    private static String printable(String s) {
        if (s.chars().noneMatch(c -> c < 0x20)) {
            return s;
        }
        return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
    }

    private static String csv(String s) {
        if (s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")) {
            return "\"" + s.replace("\"", "\"\"") + "\"";
        }
        return s;
    }

    private static String tsv(String s) {
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }

    private static String markdown(String s) {
        return s.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", "<br>").replace("\n", "<br>");
    }
}
