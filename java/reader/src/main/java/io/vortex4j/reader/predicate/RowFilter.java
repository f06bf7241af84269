package io.vortex4j.reader.predicate;

import io.vortex4j.VortexException;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Binary;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.Values;
import java.util.List;

/**
 * The generic path: evaluates a leaf predicate one row at a time on boxed values from {@link
 * Values#valueAt}. Works for every column type and encoding; dictionary strings come from the
 * per-dictionary decode cache, so each distinct string is decoded once but compared per row.
 *
 * <p>Public for the reader's own packages; not a user API.
 */
public final class RowFilter {
    private RowFilter() {}

    /** The shortest IN list looked up in a {@link LiteralSet} rather than compared literal by literal. */
    static final int SET_MIN = 8;

    /** Selection of the rows of {@code array} where {@code leaf} is true. */
    public static Bitmap select(Array array, Predicate leaf) {
        int n = array.length();
        long[] words = new long[Bitmap.wordsFor(n)];
        LiteralSet set = leaf instanceof Predicate.In in && in.values().size() >= SET_MIN
                ? LiteralSet.of(array.type().kind(), in.values()) : null;
        java.util.function.Predicate<String> like = leaf instanceof Predicate.Like l ? l.matcher() : null;
        for (int i = 0; i < n; i++) {
            Object value = Values.valueAt(array, i);
            boolean hit;
            if (set != null) {
                hit = testIn((Predicate.In) leaf, set, value);
            } else if (like != null) {
                hit = value != null && like.test((String) value) != ((Predicate.Like) leaf).negated();
            } else {
                hit = test(leaf, value);
            }
            if (hit) {
                words[i >>> 6] |= 1L << i;
            }
        }
        return new Bitmap(words, n);
    }

    /** {@link #testIn} with the list as a set. */
    private static boolean testIn(Predicate.In in, LiteralSet set, Object value) {
        if (value == null) {
            return false;
        }
        return set.contains(value) ? !in.negated() : in.negated() && !set.hasNull();
    }

    /** Whether {@code leaf} is true for a row holding {@code value} (null = SQL NULL). */
    public static boolean test(Predicate leaf, Object value) {
        if (leaf instanceof Predicate.ListContains l) {
            return Boolean.TRUE.equals(l.test((List<?>) value));
        }
        if (leaf instanceof Predicate.ListLength l) {
            return value != null && l.op().test(Long.compare(((List<?>) value).size(), l.length()));
        }
        if (leaf instanceof Predicate.IsNull isNull) {
            return (value == null) != isNull.negated();
        }
        if (leaf instanceof Predicate.In in) {
            return testIn(in, value);
        }
        if (leaf instanceof Predicate.Computed c) {
            return c.selects(value);
        }
        if (value == null) {
            return false;
        }
        if (leaf instanceof Predicate.Compare c) {
            return c.value() != null && c.op().test(Literals.compare(value, c.value()));
        }
        if (leaf instanceof Predicate.Like l) {
            return l.matches((String) value) != l.negated();
        }
        Predicate.Between b = (Predicate.Between) leaf;
        return b.low() != null && b.high() != null
                && Literals.compare(value, b.low()) >= 0 && Literals.compare(value, b.high()) <= 0;
    }

    private static boolean testIn(Predicate.In in, Object value) {
        List<Object> values = in.values();
        if (values.isEmpty()) {
            // IN () is false for every row, null or not; NOT IN () is therefore true.
            return in.negated();
        }
        if (value == null) {
            return false;
        }
        boolean sawNull = false;
        for (Object v : values) {
            if (v == null) {
                sawNull = true;
            } else if (Literals.compare(value, v) == 0) {
                return !in.negated();
            }
        }
        // No match: IN is false, or unknown if the list holds a null; NOT IN is the reverse.
        return in.negated() && !sawNull;
    }

    /**
     * Checks that the leaf's literals can be compared with values of {@code field}; throws
     * {@link VortexException} naming the column otherwise.
     */
    public static void checkTypes(Field field, Predicate leaf) {
        if (leaf instanceof Predicate.IsNull || leaf instanceof Predicate.Computed) {
            return;
        }
        if (leaf instanceof Predicate.ListContains || leaf instanceof Predicate.ListLength) {
            DataType.Kind k = field.type().kind();
            if (k != DataType.Kind.LIST && k != DataType.Kind.FIXED_SIZE_LIST) {
                throw new VortexException("predicate " + leaf + ": column '" + field.name() + "' is "
                        + field.type() + ", not a list");
            }
            if (leaf instanceof Predicate.ListContains l) {
                checkLiteral(field.type().element(), leaf, l.value());
            }
            return;
        }
        if (leaf instanceof Predicate.Like) {
            if (field.type().kind() != DataType.Kind.UTF8) {
                throw new VortexException("predicate " + leaf + ": column '" + field.name() + "' is "
                        + field.type() + "; LIKE takes utf8 columns");
            }
            return;
        }
        if (leaf instanceof Predicate.Compare c) {
            checkLiteral(field, leaf, c.value());
        } else if (leaf instanceof Predicate.Between b) {
            checkLiteral(field, leaf, b.low());
            checkLiteral(field, leaf, b.high());
        } else {
            for (Object v : ((Predicate.In) leaf).values()) {
                checkLiteral(field, leaf, v);
            }
        }
    }

    private static void checkLiteral(Field field, Predicate leaf, Object literal) {
        if (literal == null) {
            return;
        }
        DataType.Kind kind = field.type().kind();
        boolean ok;
        switch (kind) {
            case UTF8:
                ok = literal instanceof String;
                break;
            case BINARY:
                ok = literal instanceof Binary || literal instanceof String;
                break;
            case BOOL:
                ok = literal instanceof Boolean;
                break;
            case DECIMAL:
                ok = literal instanceof Number;
                break;
            case DATE:
                ok = literal instanceof java.time.LocalDate;
                break;
            case TIME:
                ok = literal instanceof java.time.LocalTime;
                break;
            case TIMESTAMP:
                ok = field.type().timezone() == null
                        ? literal instanceof java.time.LocalDateTime : literal instanceof java.time.Instant;
                break;
            case NULL:
                ok = true;
                break;
            default:
                ok = kind.isNumeric() && literal instanceof Number;
        }
        if (!ok) {
            throw new VortexException("predicate " + leaf + ": column '" + field.name() + "' is "
                    + field.type() + " but the literal " + Literals.toSql(literal) + " is a "
                    + literal.getClass().getSimpleName());
        }
    }
}
