package io.vortex4j.reader.convert;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@link Converter} is asked to do besides inputs and output: the input format (by
 * extension unless set), the CSV dialect and typing, and the output layout. Unset options take
 * the defaults documented on each setter (and in {@code docs/convert.md}).
 */
public final class ConvertOptions {
    private final Map<String, String> values = new LinkedHashMap<>();

    /** Defaults everywhere. */
    public static ConvertOptions defaults() {
        return new ConvertOptions();
    }

    private ConvertOptions set(String key, Object value) {
        values.put(key, String.valueOf(value));
        return this;
    }

    /** The input format for every input: {@code parquet}, {@code csv} or {@code arrow} (default: by extension). */
    public ConvertOptions format(String format) {
        return set("format", format);
    }

    /** Whether the first CSV record names the columns (default true; else {@code column_1}, ...). */
    public ConvertOptions header(boolean header) {
        return set("header", header);
    }

    /** The CSV field delimiter (default {@code ,}). */
    public ConvertOptions delimiter(char delimiter) {
        return set("delimiter", delimiter);
    }

    /** The CSV quote character (default {@code "}). */
    public ConvertOptions quote(char quote) {
        return set("quote", quote);
    }

    /** An escape character inside quoted CSV fields (default none: quotes are doubled). */
    public ConvertOptions escape(char escape) {
        return set("escape", escape);
    }

    /** The text of a NULL CSV field (default: an empty field is NULL). */
    public ConvertOptions nullToken(String token) {
        return set("null", token);
    }

    /** CSV records read to infer column types (default 10,000). */
    public ConvertOptions inferRows(int rows) {
        return set("infer-rows", rows);
    }

    /**
     * Explicit CSV column types overriding inference, {@code name:type,...} with types {@code
     * bool, int8..int64, uint8..uint64, float32, float64, utf8, date, time(unit),
     * timestamp(unit[, zone]), decimal(p, s)}.
     */
    public ConvertOptions schema(String schema) {
        return set("schema", schema);
    }

    /** Skip and count malformed CSV records instead of failing on the first (default false). */
    public ConvertOptions skipBadRows(boolean skip) {
        return set("skip-bad-rows", skip);
    }

    /** Write a folder of files of at most {@code rows} rows each. */
    public ConvertOptions maxRowsPerFile(long rows) {
        return set("max-rows-per-file", rows);
    }

    /** Write Hive-style {@code column=value/} folders by these columns, outermost first. */
    public ConvertOptions partitionBy(List<String> columns) {
        return set("partition-by", String.join(",", columns));
    }

    /** Rows per batch read from the inputs (default 65,536). */
    public ConvertOptions batchRows(int rows) {
        return set("batch-rows", rows);
    }

    /** The options as the native side reads them: {@code key=value}. */
    String[] toNative() {
        List<String> out = new ArrayList<>();
        values.forEach((k, v) -> out.add(k + "=" + v));
        return out.toArray(new String[0]);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
