package io.vortex4j.cli;

import java.math.BigDecimal;

/** Values as text for the output formats: numbers in plain notation unless that would be unreadable. */
final class Cells {
    private Cells() {}

    /** Plain notation for doubles whose magnitude lies in [1e-6, 1e21), as DuckDB and JavaScript print them. */
    private static final double PLAIN_MIN = 1e-6;
    private static final double PLAIN_MAX = 1e21;

    /** {@code v} as text; null is null (each format shows it its own way). */
    static String text(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof Double || v instanceof Float) {
            return floating(((Number) v).doubleValue(), v instanceof Float);
        }
        if (v instanceof BigDecimal) {
            return ((BigDecimal) v).toPlainString();
        }
        if (v instanceof byte[]) {
            return hex((byte[]) v);
        }
        return String.valueOf(v);
    }

    /**
     * The shortest text that reads back as the same value ({@link Double#toString}'s digits),
     * without an exponent inside the plain range, always with a decimal point.
     */
    private static String floating(double d, boolean single) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return Double.toString(d);
        }
        String shortest = single ? Float.toString((float) d) : Double.toString(d);
        double abs = Math.abs(d);
        if (abs != 0 && (abs < PLAIN_MIN || abs >= PLAIN_MAX)) {
            return shortest;
        }
        // Doubles keep a decimal point, so 2.0 reads as a double, not an integer.
        String plain = new BigDecimal(shortest).stripTrailingZeros().toPlainString();
        return plain.indexOf('.') < 0 ? plain + ".0" : plain;
    }

    /** Whether the value is a number, right-aligned in tables and unquoted in JSON. */
    static boolean numeric(Object v) {
        return v instanceof Number;
    }

    private static String hex(byte[] bytes) {
        StringBuilder b = new StringBuilder(2 + 2 * bytes.length).append("\\x");
        for (byte x : bytes) {
            b.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        return b.toString();
    }

    /**
     * The columns {@code s} takes on a terminal: East Asian wide and full-width characters take
     * two, combining marks none, everything else one.
     */
    static int width(String s) {
        int w = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            int type = Character.getType(cp);
            if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT) {
                continue;
            }
            w += wide(cp) ? 2 : 1;
        }
        return w;
    }

    private static boolean wide(int cp) {
        return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F)
                || (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF)
                || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60)
                || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F)
                || (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
    }
}
