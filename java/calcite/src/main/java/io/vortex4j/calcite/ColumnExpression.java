package io.vortex4j.calcite;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.predicate.Predicate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntFunction;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.validate.SqlConformance;

/**
 * A SQL expression of one column compiled, once, by Calcite's own code generator (the {@link
 * RexToLixTranslator} that {@code EnumerableCalc} uses for the same expression) into a Java
 * function of the column's value. The reader calls it once per dictionary entry (and once for
 * NULL) instead of Calcite calling it once per row, and since it is Calcite's code, every entry
 * gets exactly the value Calcite would compute for a row holding it.
 *
 * <p>As a {@link Predicate.ValueTest} it answers a boolean expression (TRUE, FALSE or null); as
 * a {@link #groupKey() group key} it maps a value to the expression's value. Values cross in the
 * reader's representation ({@link io.vortex4j.reader.array.Values#valueAt}) and are converted to
 * Calcite's as {@link VortexColumn} converts row values.
 *
 * <p>Compiled expressions are shared by every plan that needs the same expression of a column of the
 * same name and type (a bounded cache), so that the reader's per-dictionary tables, keyed by the test
 * object, serve them all. Instances are immutable and thread-safe: Calcite's generated code keeps
 * no per-call state (its function objects, e.g. LIKE's pattern cache, are thread-safe, as for
 * Calcite's own cached plans).
 */
final class ColumnExpression implements Predicate.ValueTest {
    private static final int CACHE_SIZE = 512;
    private static final Map<String, ColumnExpression> CACHE = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ColumnExpression> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    private final VortexColumn column;
    private final Function1<Object, Object> code;

    private ColumnExpression(VortexColumn column, Function1<Object, Object> code) {
        this.column = column;
        this.code = code;
    }

    /**
     * The compiled form of {@code expr}, an expression whose only input is field 0 of type {@code
     * columnType} (the column {@code column}), or null when Calcite's code generator cannot
     * compile it on its own ({@link CalciteCode#compile}).
     */
    static ColumnExpression compile(RexBuilder rexBuilder, RexNode expr, VortexColumn column, RelDataType columnType,
            SqlConformance conformance) {
        // The column's name is part of the key: the compiled object names the column it reads.
        String key = column.name() + "|" + column.kind() + "|" + columnType.getFullTypeString() + "|" + conformance
                + "|" + strongDigest(expr);
        synchronized (CACHE) {
            ColumnExpression cached = CACHE.get(key);
            if (cached != null) {
                return cached;
            }
        }
        ColumnExpression compiled;
        try {
            RelDataType row = rexBuilder.getTypeFactory().builder().add("c", columnType).build();
            compiled = new ColumnExpression(column, CalciteCode.compile(rexBuilder, expr, row, false, conformance));
        } catch (RuntimeException e) {
            return null;
        }
        synchronized (CACHE) {
            CACHE.putIfAbsent(key, compiled);
            return CACHE.get(key);
        }
    }

    /**
     * {@code expr} compiled, when its only input is a string column and it cannot throw ({@link
     * OneColumnExpressions#cannotThrow}), input field {@code i} being {@code columns.apply(i)};
     * else null. It is tried once on the empty string and on NULL, so that an expression with
     * a literal Calcite would reject at run time (an invalid LIKE or regex pattern) is refused
     * and fails in Calcite as it always did.
     */
    static ColumnExpression ofStringColumn(RexBuilder rexBuilder, RexNode expr, IntFunction<VortexColumn> columns,
            SqlConformance conformance) {
        int field = OneColumnExpressions.onlyInput(expr);
        if (field < 0 || columns.apply(field).kind() != DataType.Kind.UTF8 || !OneColumnExpressions.cannotThrow(expr)) {
            return null;
        }
        VortexColumn c = columns.apply(field);
        ColumnExpression e = compile(rexBuilder, OneColumnExpressions.asFieldZero(expr, field), c,
                c.relType(rexBuilder.getTypeFactory()), conformance);
        if (e == null) {
            return null;
        }
        try {
            e.apply("");
            e.apply(null);
        } catch (RuntimeException | Error rejected) {
            return null;
        }
        return e;
    }

    /** The column the expression reads. */
    VortexColumn column() {
        return column;
    }

    /** The expression's value for a row whose column holds {@code readerValue} (null: a null row). */
    Object apply(Object readerValue) {
        return code.apply(column.fromReaderValue(readerValue));
    }

    /** The expression, a boolean one, for a row holding {@code readerValue}: TRUE, FALSE or null. */
    @Override
    public Boolean test(Object readerValue) {
        return (Boolean) apply(readerValue);
    }

    /** The expression as a group key of the column's values, for {@link io.vortex4j.reader.compute.GroupAggregate}. */
    java.util.function.Function<Object, Object> groupKey() {
        return this::apply;
    }

    /** A digest naming every node's type, so that expressions differing only in types differ. */
    private static String strongDigest(RexNode node) {
        StringBuilder sb = new StringBuilder();
        digest(node, sb);
        return sb.toString();
    }

    private static void digest(RexNode node, StringBuilder sb) {
        if (node instanceof RexCall call) {
            sb.append(call.getOperator().getName()).append('#').append(call.getOperator().getClass().getName())
                    .append('(');
            for (RexNode operand : call.getOperands()) {
                digest(operand, sb);
                sb.append(',');
            }
            sb.append(')');
        } else {
            sb.append(node);
        }
        sb.append(':').append(node.getType().getFullTypeString());
    }

    @Override
    public String toString() {
        return "ColumnExpression[" + column.kind() + "]";
    }
}
