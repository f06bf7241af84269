package io.vortex4j.trino.local;

import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import java.io.PrintStream;
import java.util.List;

/** Results as CSV (RFC 4180): a header of column names, then one line per row; null is empty. */
final class Csv {
    private Csv() {}

    static void print(MaterializedResult result, PrintStream out) {
        List<String> names = result.getColumnNames();
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            line.append(i == 0 ? "" : ",").append(field(names.get(i)));
        }
        out.println(line);
        for (MaterializedRow row : result.getMaterializedRows()) {
            line.setLength(0);
            for (int i = 0; i < row.getFieldCount(); i++) {
                Object v = row.getField(i);
                line.append(i == 0 ? "" : ",").append(v == null ? "" : field(text(v)));
            }
            out.println(line);
        }
    }

    private static String text(Object v) {
        if (v instanceof byte[] b) {
            StringBuilder sb = new StringBuilder("\\x");
            for (byte x : b) {
                sb.append(String.format("%02x", x));
            }
            return sb.toString();
        }
        return v.toString();
    }

    private static String field(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
