package io.vortex4j.reader.predicate;

/**
 * SQL LIKE matching on code points for {@link Predicate.Like}: {@code %} is any sequence, {@code
 * _} one code point, and the escape character makes the next one literal.
 */
final class LikeMatcher {
    /** A pattern element: a literal code point, or one of these. */
    private static final int ANY_ONE = -1, ANY_SEQUENCE = -2;

    private LikeMatcher() {}

    /** Throws {@link IllegalArgumentException} for a pattern SQL rejects (a dangling escape). */
    static void check(String pattern, Character escape) {
        compile(pattern, escape);
    }

    static boolean matches(String pattern, Character escape, boolean caseInsensitive, String value) {
        return of(pattern, escape, caseInsensitive).test(value);
    }

    /** The pattern compiled once, for testing many values. */
    static java.util.function.Predicate<String> of(String pattern, Character escape, boolean caseInsensitive) {
        int[] p = compile(pattern, escape);
        if (caseInsensitive) {
            for (int i = 0; i < p.length; i++) {
                p[i] = p[i] < 0 ? p[i] : Predicate.Like.fold(p[i]);
            }
        }
        return value -> matches(p, caseInsensitive, value);
    }

    private static boolean matches(int[] p, boolean caseInsensitive, String value) {
        int[] v = value.codePoints().toArray();
        if (caseInsensitive) {
            for (int i = 0; i < v.length; i++) {
                v[i] = Predicate.Like.fold(v[i]);
            }
        }
        // Greedy matching with backtracking to the last %: linear unless % repeats.
        int pi = 0, vi = 0, star = -1, mark = 0;
        while (vi < v.length) {
            if (pi < p.length && (p[pi] == ANY_ONE || p[pi] == v[vi])) {
                pi++;
                vi++;
            } else if (pi < p.length && p[pi] == ANY_SEQUENCE) {
                star = pi++;
                mark = vi;
            } else if (star >= 0) {
                pi = star + 1;
                vi = ++mark;
            } else {
                return false;
            }
        }
        while (pi < p.length && p[pi] == ANY_SEQUENCE) {
            pi++;
        }
        return pi == p.length;
    }

    private static int[] compile(String pattern, Character escape) {
        int[] out = new int[pattern.length()];
        int n = 0;
        for (int i = 0; i < pattern.length(); ) {
            int c = pattern.codePointAt(i);
            i += Character.charCount(c);
            if (escape != null && c == escape) {
                if (i >= pattern.length()) {
                    throw new IllegalArgumentException("LIKE pattern '" + pattern + "' ends with its escape character");
                }
                int next = pattern.codePointAt(i);
                if (next != '%' && next != '_' && next != escape) {
                    throw new IllegalArgumentException("LIKE pattern '" + pattern + "': the escape character must be"
                            + " followed by %, _ or itself");
                }
                i += Character.charCount(next);
                out[n++] = next;
            } else {
                out[n++] = c == '%' ? ANY_SEQUENCE : c == '_' ? ANY_ONE : c;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }
}
