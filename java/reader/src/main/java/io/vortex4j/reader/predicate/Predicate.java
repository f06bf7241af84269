package io.vortex4j.reader.predicate;

import io.vortex4j.reader.array.Binary;
import io.vortex4j.reader.array.Values;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A row filter over named columns, with SQL semantics: a comparison with a null (a null row or a
 * null literal) is unknown, and only rows where the filter is true are selected; {@code NOT} of
 * unknown is unknown. Strings compare in UTF-8 byte (code point) order, as vortex does.
 *
 * <p>Literals are normalized: integral numbers to {@link Long}, {@link Float} to {@link Double},
 * {@code byte[]} to {@link Binary}; {@link String}, {@link Boolean}, {@link BigDecimal}, {@link
 * BigInteger} and {@code java.time} values are kept, and null is SQL NULL. Predicates are values:
 * equal predicates select the same rows, which is what the per-chunk memo relies on.
 *
 * <p>A literal may also be a {@link Parameter}, a value known only later (a JDBC {@code ?}):
 * {@link #bind} replaces parameters with their values before the predicate is evaluated; an
 * unbound parameter cannot be evaluated.
 */
public sealed interface Predicate
        permits Predicate.Compare, Predicate.Between, Predicate.In, Predicate.IsNull, Predicate.Like,
                Predicate.ListContains, Predicate.ListLength, Predicate.Computed, Predicate.And, Predicate.Or,
                Predicate.Not {

    /**
     * A literal bound later, e.g. the JDBC parameter {@code ?} number {@code index} (from 0). Any
     * literal position may hold one; {@link #bind} supplies the value. {@code type} is for the
     * binder (e.g. the SQL type the value is converted to); the reader does not read it.
     */
    record Parameter(int index, String type) {
        public Parameter {
            if (index < 0) {
                throw new IllegalArgumentException("parameter index must be >= 0, not " + index);
            }
        }

        @Override
        public String toString() {
            return "?" + index;
        }
    }

    /**
     * This predicate with every {@link Parameter} replaced by {@code values.apply(parameter)} (a
     * null value is SQL NULL: comparisons with it are unknown). Returns this predicate when it has
     * no parameters.
     *
     * @param values the value of each parameter
     * @return the bound predicate
     * @throws IllegalArgumentException if a value is not a supported literal
     */
    default Predicate bind(java.util.function.Function<Parameter, Object> values) {
        if (this instanceof Compare c) {
            return c.value() instanceof Parameter p ? new Compare(c.column(), c.op(), values.apply(p)) : c;
        } else if (this instanceof Between b) {
            return b.low() instanceof Parameter || b.high() instanceof Parameter
                    ? new Between(b.column(), bound(b.low(), values), bound(b.high(), values)) : b;
        } else if (this instanceof In in) {
            if (in.values().stream().noneMatch(v -> v instanceof Parameter)) {
                return in;
            }
            List<Object> vs = new ArrayList<>(in.values().size());
            for (Object v : in.values()) {
                vs.add(bound(v, values));
            }
            return new In(in.column(), vs, in.negated());
        } else if (this instanceof And a) {
            List<Predicate> children = bindAll(a.children(), values);
            return children == a.children() ? a : new And(children);
        } else if (this instanceof Or o) {
            List<Predicate> children = bindAll(o.children(), values);
            return children == o.children() ? o : new Or(children);
        } else if (this instanceof Not n) {
            Predicate child = n.child().bind(values);
            return child == n.child() ? n : new Not(child);
        }
        return this;
    }

    private static Object bound(Object v, java.util.function.Function<Parameter, Object> values) {
        return v instanceof Parameter p ? values.apply(p) : v;
    }

    /** The children bound; {@code children} itself when none had a parameter. */
    private static List<Predicate> bindAll(List<Predicate> children, java.util.function.Function<Parameter, Object> values) {
        List<Predicate> out = new ArrayList<>(children.size());
        boolean changed = false;
        for (Predicate c : children) {
            Predicate b = c.bind(values);
            changed |= b != c;
            out.add(b);
        }
        return changed ? out : children;
    }

    /** Comparison operators. */
    enum Op {
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">=");

        private final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        /** The SQL symbol. */
        public String symbol() {
            return symbol;
        }

        /** The operator selecting exactly the non-null rows this one rejects. */
        public Op negate() {
            switch (this) {
                case EQ: return NE;
                case NE: return EQ;
                case LT: return GE;
                case LE: return GT;
                case GT: return LE;
                default: return LT;
            }
        }

        /** The operator with its operands swapped ({@code v < x} is {@code x > v}). */
        public Op flip() {
            switch (this) {
                case LT: return GT;
                case LE: return GE;
                case GT: return LT;
                case GE: return LE;
                default: return this;
            }
        }

        /** Whether a three-way comparison result {@code cmp} satisfies the operator. */
        public boolean test(int cmp) {
            switch (this) {
                case EQ: return cmp == 0;
                case NE: return cmp != 0;
                case LT: return cmp < 0;
                case LE: return cmp <= 0;
                case GT: return cmp > 0;
                default: return cmp >= 0;
            }
        }
    }

    /** {@code column op value}. */
    record Compare(String column, Op op, Object value) implements Predicate {
        public Compare {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(op, "op");
            value = Literals.normalize(value);
        }

        @Override
        public String toString() {
            return column + " " + op.symbol() + " " + Literals.toSql(value);
        }
    }

    /** {@code column BETWEEN low AND high}, both bounds inclusive. */
    record Between(String column, Object low, Object high) implements Predicate {
        public Between {
            Objects.requireNonNull(column, "column");
            low = Literals.normalize(low);
            high = Literals.normalize(high);
        }

        @Override
        public String toString() {
            return column + " BETWEEN " + Literals.toSql(low) + " AND " + Literals.toSql(high);
        }
    }

    /** {@code column IN (values)}, or {@code NOT IN} when negated. */
    record In(String column, List<Object> values, boolean negated) implements Predicate {
        public In {
            Objects.requireNonNull(column, "column");
            List<Object> normalized = new ArrayList<>(values.size());
            for (Object v : values) {
                normalized.add(Literals.normalize(v));
            }
            values = Collections.unmodifiableList(normalized);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(column).append(negated ? " NOT IN (" : " IN (");
            for (int i = 0; i < values.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(Literals.toSql(values.get(i)));
            }
            return sb.append(')').toString();
        }
    }

    /** {@code column IS NULL}, or {@code IS NOT NULL} when negated. */
    record IsNull(String column, boolean negated) implements Predicate {
        public IsNull {
            Objects.requireNonNull(column, "column");
        }

        @Override
        public String toString() {
            return column + (negated ? " IS NOT NULL" : " IS NULL");
        }
    }

    /**
     * {@code column LIKE pattern} on a utf8 column, or {@code NOT LIKE} when negated: {@code %}
     * matches any sequence of characters (code points), {@code _} exactly one, and the {@code
     * escape} character makes the next {@code %}, {@code _} or escape character literal (it must
     * be followed by one of those); with no escape character (null) {@code \} is an ordinary
     * character. Every other character, regex metacharacters included, matches itself. A null
     * row is unknown (never selected, negated or not).
     *
     * <p>ILIKE ({@code caseInsensitive}): each code point of the pattern and of the value is
     * compared after {@link Like#fold}, Java's {@code toLowerCase(toUpperCase(c))} (no
     * multi-character foldings: {@code ß} does not match {@code SS}). This is the definition
     * on every path: the native side (vortex's {@code ilike}, which folds with Unicode simple case
     * folding) is used only when the pattern and all the values it looks at are ASCII, where the
     * two provably agree; otherwise the reader's own matcher runs, once per dictionary entry on a
     * dictionary-encoded column, else once per row.
     *
     * <p>Native evaluation: vortex's {@code like} once per dictionary entry (FSST-compressed
     * entries are matched without decompressing prefix and contains patterns), then rows are
     * selected by code; on other columns vortex's {@code like} on the column.
     */
    record Like(String column, String pattern, Character escape, boolean caseInsensitive, boolean negated)
            implements Predicate {
        public Like {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(pattern, "pattern");
            LikeMatcher.check(pattern, escape);
        }

        /** The case folding of ILIKE: a code point's lower case of its upper case. */
        public static int fold(int codePoint) {
            return Character.toLowerCase(Character.toUpperCase(codePoint));
        }

        /** Whether {@code value} (not null) matches the pattern, ignoring {@link #negated}. */
        public boolean matches(String value) {
            return LikeMatcher.matches(pattern, escape, caseInsensitive, value);
        }

        /** {@link #matches} with the pattern compiled once, for many values. */
        public java.util.function.Predicate<String> matcher() {
            return LikeMatcher.of(pattern, escape, caseInsensitive);
        }

        @Override
        public String toString() {
            return column + (negated ? " NOT" : "") + (caseInsensitive ? " ILIKE " : " LIKE ")
                    + Literals.toSql(pattern) + (escape == null ? "" : " ESCAPE " + Literals.toSql(escape.toString()));
        }
    }

    /**
     * A list (or fixed-size list) column holds an element equal to {@code value} (a literal of the
     * element type, not null). A null list is unknown; a list without such an element is false,
     * or, with {@code sqlNulls}, unknown when it holds a null element (SQL's {@code value =
     * ANY(list)}; without, a null element never matches, as {@code ARRAY_CONTAINS} and Java's
     * {@code List.contains} of a non-null value). {@code negated}: NOT of that, unknown staying
     * unknown. Natively vortex's {@code list_contains}.
     */
    record ListContains(String column, Object value, boolean sqlNulls, boolean negated) implements Predicate {
        public ListContains {
            Objects.requireNonNull(column, "column");
            value = Literals.normalize(Objects.requireNonNull(value, "value"));
        }

        /** TRUE, FALSE or null (unknown) for a row holding {@code list} (null: a null list). */
        public Boolean test(List<?> list) {
            if (list == null) {
                return null;
            }
            boolean sawNull = false;
            for (Object e : list) {
                if (e == null) {
                    sawNull = true;
                } else if (Literals.compare(e, value) == 0) {
                    return !negated;
                }
            }
            return sqlNulls && sawNull ? null : negated;
        }

        @Override
        public String toString() {
            String test = sqlNulls ? Literals.toSql(value) + " = ANY(" + column + ")"
                    : "ARRAY_CONTAINS(" + column + ", " + Literals.toSql(value) + ")";
            return negated ? "NOT (" + test + ")" : test;
        }
    }

    /**
     * The number of elements of a list (or fixed-size list) column compared with {@code length};
     * a null list is unknown. Natively vortex's {@code list_length}.
     */
    record ListLength(String column, Op op, long length) implements Predicate {
        public ListLength {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(op, "op");
        }

        @Override
        public String toString() {
            return "CARDINALITY(" + column + ") " + op.symbol() + " " + length;
        }
    }

    /**
     * A test of one column's value computed by a Java function, e.g. a SQL engine's own code for
     * {@code UPPER(city) = 'OSLO'}: {@code test} gets the value as {@link Values#valueAt} gives it
     * (null for a null row) and answers TRUE, FALSE or null (unknown); a row is selected when the
     * answer is TRUE ({@code negated}: FALSE). On a dictionary-encoded column the function runs
     * once per dictionary entry and once for null, not once per row (the answers are cached per
     * dictionary, so chunks sharing one reuse them; where the dictionary is larger than the chunk,
     * once per row). An exception the test throws fails the selection of a chunk only when some
     * row of that chunk holds the value it threw on, and then it propagates unchanged, from the
     * first such row in row order, as a row-by-row evaluation would raise it. Two computed
     * predicates are equal when they have the same column, the same test object and the same
     * negation; {@code description} is for messages and EXPLAIN.
     */
    record Computed(String column, String description, ValueTest test, boolean negated) implements Predicate {
        public Computed {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(test, "test");
        }

        /** Whether a row holding {@code value} is selected. */
        public boolean selects(Object value) {
            Boolean b = test.test(value);
            return b != null && b != negated;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Computed c && c.column.equals(column) && c.test == test && c.negated == negated;
        }

        @Override
        public int hashCode() {
            return Objects.hash(column, System.identityHashCode(test), negated);
        }

        @Override
        public String toString() {
            return negated ? "NOT (" + description + ")" : description;
        }
    }

    /** The function of a {@link Computed} predicate. */
    @FunctionalInterface
    interface ValueTest {
        /** TRUE, FALSE or null (unknown) for a row holding {@code value} (null: a null row). */
        Boolean test(Object value);
    }

    /** True when every child is true; an empty AND is true. */
    record And(List<Predicate> children) implements Predicate {
        public And {
            children = List.copyOf(children);
        }

        @Override
        public String toString() {
            return join(children, " AND ", "TRUE");
        }
    }

    /** True when some child is true; an empty OR is false. */
    record Or(List<Predicate> children) implements Predicate {
        public Or {
            children = List.copyOf(children);
        }

        @Override
        public String toString() {
            return join(children, " OR ", "FALSE");
        }
    }

    /** True when the child is false (unknown stays unknown). */
    record Not(Predicate child) implements Predicate {
        public Not {
            Objects.requireNonNull(child, "child");
        }

        @Override
        public String toString() {
            return "NOT (" + child + ")";
        }
    }

    /** {@code column = value}. */
    static Predicate eq(String column, Object value) {
        return new Compare(column, Op.EQ, value);
    }

    /** {@code column <> value}. */
    static Predicate ne(String column, Object value) {
        return new Compare(column, Op.NE, value);
    }

    /** {@code column < value}. */
    static Predicate lt(String column, Object value) {
        return new Compare(column, Op.LT, value);
    }

    /** {@code column <= value}. */
    static Predicate le(String column, Object value) {
        return new Compare(column, Op.LE, value);
    }

    /** {@code column > value}. */
    static Predicate gt(String column, Object value) {
        return new Compare(column, Op.GT, value);
    }

    /** {@code column >= value}. */
    static Predicate ge(String column, Object value) {
        return new Compare(column, Op.GE, value);
    }

    /** {@code column BETWEEN low AND high} (inclusive). */
    static Predicate between(String column, Object low, Object high) {
        return new Between(column, low, high);
    }

    /** {@code column IN (values)}; an empty list selects nothing. */
    static Predicate in(String column, Object... values) {
        return new In(column, Arrays.asList(values), false);
    }

    /** {@code column IN (values)}; an empty list selects nothing. */
    static Predicate in(String column, List<?> values) {
        return new In(column, new ArrayList<>(values), false);
    }

    /**
     * {@code column NOT IN (values)}: selects nothing if the list holds a null; selects every row
     * (nulls too) for an empty list, since {@code IN ()} is false for every row.
     */
    static Predicate notIn(String column, Object... values) {
        return new In(column, Arrays.asList(values), true);
    }

    /** {@code column NOT IN (values)}. */
    static Predicate notIn(String column, List<?> values) {
        return new In(column, new ArrayList<>(values), true);
    }

    /** {@code column LIKE pattern} (no escape character). */
    static Predicate like(String column, String pattern) {
        return new Like(column, pattern, null, false, false);
    }

    /** {@code column NOT LIKE pattern} (no escape character). */
    static Predicate notLike(String column, String pattern) {
        return new Like(column, pattern, null, false, true);
    }

    /** The list {@code column} holds an element equal to {@code value} (a null element never matches). */
    static Predicate listContains(String column, Object value) {
        return new ListContains(column, value, false, false);
    }

    /** {@code CARDINALITY(column) op length}: the number of elements of the list {@code column}. */
    static Predicate listLength(String column, Op op, long length) {
        return new ListLength(column, op, length);
    }

    /** {@code column IS NULL}. */
    static Predicate isNull(String column) {
        return new IsNull(column, false);
    }

    /** {@code column IS NOT NULL}. */
    static Predicate isNotNull(String column) {
        return new IsNull(column, true);
    }

    /** The conjunction. */
    static Predicate and(Predicate... children) {
        return new And(Arrays.asList(children));
    }

    /** The conjunction. */
    static Predicate and(List<Predicate> children) {
        return new And(children);
    }

    /** The disjunction. */
    static Predicate or(Predicate... children) {
        return new Or(Arrays.asList(children));
    }

    /** The disjunction. */
    static Predicate or(List<Predicate> children) {
        return new Or(children);
    }

    /** The negation. */
    static Predicate not(Predicate child) {
        return new Not(child);
    }

    /** True for the predicates on one column (not AND, OR, NOT). */
    default boolean isLeaf() {
        return !(this instanceof And || this instanceof Or || this instanceof Not);
    }

    /** The column of a leaf; throws for AND, OR, NOT. */
    default String column() {
        if (this instanceof Compare c) {
            return c.column();
        } else if (this instanceof Between b) {
            return b.column();
        } else if (this instanceof In in) {
            return in.column();
        } else if (this instanceof IsNull n) {
            return n.column();
        } else if (this instanceof Like l) {
            return l.column();
        } else if (this instanceof Computed c) {
            return c.column();
        } else if (this instanceof ListContains l) {
            return l.column();
        } else if (this instanceof ListLength l) {
            return l.column();
        }
        throw new IllegalStateException(this + " is not a leaf");
    }

    /** Every column the predicate reads, in first-use order. */
    default Set<String> columns() {
        Set<String> out = new LinkedHashSet<>();
        Normalizer.collectColumns(this, out);
        return out;
    }

    /**
     * The same filter with every NOT pushed down to the leaves (negation normal form). Under SQL's
     * three-valued logic the rows where a normalized predicate is true are the union/intersection
     * of the rows where its leaves are true, which is how selections are combined.
     */
    default Predicate normalize() {
        return Normalizer.positive(this);
    }

    private static String join(List<Predicate> children, String sep, String empty) {
        if (children.isEmpty()) {
            return empty;
        }
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < children.size(); i++) {
            sb.append(i == 0 ? "" : sep).append(children.get(i));
        }
        return sb.append(')').toString();
    }
}
