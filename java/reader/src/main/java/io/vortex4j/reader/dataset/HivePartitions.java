package io.vortex4j.reader.dataset;

import io.vortex4j.VortexException;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Hive-style partition folders ({@code key=value/}) and the typed partition columns they make.
 *
 * <p>Names and values are percent-decoded ({@code %2F} is {@code /}; {@code +} stays {@code +},
 * as Hive writes it); the value {@code __HIVE_DEFAULT_PARTITION__} is null. A column's type is
 * inferred from all its values across the dataset: {@code INT64} when every non-null value is a
 * decimal integer that fits a long, else {@code DATE} when every one is an ISO date
 * ({@code yyyy-MM-dd}), else {@code UTF8}; a column is nullable when some value is null. Every file
 * must sit under the same partition keys, in the same order. Not public API.
 */
public final class HivePartitions {
    /** Hive's folder name for a null partition value. */
    public static final String NULL_VALUE = "__HIVE_DEFAULT_PARTITION__";

    private static final Pattern INTEGER = Pattern.compile("[-+]?[0-9]{1,19}");
    private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");

    private final List<Field> fields;
    private final List<Map<String, Object>> values;

    private HivePartitions(List<Field> fields, List<Map<String, Object>> values) {
        this.fields = fields;
        this.values = values;
    }

    /** The decoded {@code {key, value}} of a folder name {@code key=value}, or null if it is not one. */
    static String[] parse(String folder) {
        int eq = folder.indexOf('=');
        if (eq <= 0) {
            return null;
        }
        String value = decode(folder.substring(eq + 1));
        return new String[] {decode(folder.substring(0, eq)), NULL_VALUE.equals(value) ? null : value};
    }

    /** Written as {@code %XX} by {@link #encode}: separators, escapes, what file systems and URLs refuse. */
    private static final String ESCAPED = "%/\\=:#?*\"'<>|[]{}^";

    /**
     * A partition key or value as a folder name spells it, read back by {@link #parse}: control
     * characters and {@code %/\=:#?*"'<>|[]{}^} percent-encoded, the rest as written.
     */
    public static String encode(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < 0x20 || ch == 0x7f || ESCAPED.indexOf(ch) >= 0) {
                out.append('%').append(Character.toUpperCase(Character.forDigit(ch >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(ch & 0xf, 16)));
            } else {
                out.append(ch);
            }
        }
        return out.toString();
    }

    /** Percent-decoding of UTF-8 bytes; a malformed escape stays as written. */
    static String decode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            int hi = i + 2 < bytes.length ? Character.digit(bytes[i + 1], 16) : -1;
            int lo = i + 2 < bytes.length ? Character.digit(bytes[i + 2], 16) : -1;
            if (bytes[i] == '%' && hi >= 0 && lo >= 0) {
                out.write(hi * 16 + lo);
                i += 2;
            } else {
                out.write(bytes[i]);
            }
        }
        return new String(out.toByteArray(), StandardCharsets.UTF_8);
    }

    /** The partition columns of {@code files} and each file's typed values. */
    public static HivePartitions of(List<ListedFile> files) {
        List<String[]> first = files.get(0).partitions();
        for (ListedFile f : files) {
            if (!sameKeys(first, f.partitions())) {
                throw new VortexException(f.path() + ": partition folders " + keys(f.partitions())
                        + " differ from " + keys(first) + " of " + files.get(0).path());
            }
        }
        List<Field> fields = new ArrayList<>();
        for (int k = 0; k < first.size(); k++) {
            boolean integers = true;
            boolean dates = true;
            boolean nullable = false;
            for (ListedFile f : files) {
                String v = f.partitions().get(k)[1];
                if (v == null) {
                    nullable = true;
                    continue;
                }
                integers &= isLong(v);
                dates &= isDate(v);
            }
            DataType type = integers ? DataType.INT64 : dates ? DataType.DATE : DataType.UTF8;
            fields.add(new Field(first.get(k)[0], type, nullable));
        }
        List<Map<String, Object>> values = new ArrayList<>();
        for (ListedFile f : files) {
            Map<String, Object> row = new LinkedHashMap<>();
            for (int k = 0; k < fields.size(); k++) {
                row.put(fields.get(k).name(), typed(fields.get(k).type(), f.partitions().get(k)[1]));
            }
            values.add(row);
        }
        return new HivePartitions(fields, values);
    }

    /** The partition columns, in folder order. */
    public List<Field> fields() {
        return fields;
    }

    /** The partition values of file {@code i} of the listing. */
    public Map<String, Object> values(int i) {
        return values.get(i);
    }

    private static Object typed(DataType type, String v) {
        if (v == null) {
            return null;
        }
        if (type == DataType.INT64) {
            return Long.parseLong(v.startsWith("+") ? v.substring(1) : v);
        }
        return type == DataType.DATE ? LocalDate.parse(v) : v;
    }

    private static boolean isLong(String v) {
        if (!INTEGER.matcher(v).matches()) {
            return false;
        }
        try {
            Long.parseLong(v.startsWith("+") ? v.substring(1) : v);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean isDate(String v) {
        if (!DATE.matcher(v).matches()) {
            return false;
        }
        try {
            LocalDate.parse(v);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean sameKeys(List<String[]> a, List<String[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i)[0].equals(b.get(i)[0])) {
                return false;
            }
        }
        return true;
    }

    private static List<String> keys(List<String[]> partitions) {
        List<String> keys = new ArrayList<>();
        partitions.forEach(p -> keys.add(p[0]));
        return keys;
    }
}
