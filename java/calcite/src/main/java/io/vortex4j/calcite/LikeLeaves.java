package io.vortex4j.calcite;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.predicate.Predicate;
import java.util.List;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;

/** {@code LIKE} conditions as the reader's LIKE leaf, where the two agree exactly. */
final class LikeLeaves {
    private LikeLeaves() {}

    /**
     * {@code column LIKE 'pattern' [ESCAPE 'c']} as the reader's LIKE leaf, where its semantics
     * are Calcite's: Calcite (1.42) matches with a Java regex in which {@code %} is {@code
     * (?s:.*)} (any characters) but {@code _} is {@code .}, which does not match line
     * terminators, while the reader's {@code _} matches any character; so only patterns without
     * an unescaped {@code _} become leaves. Without ESCAPE, Calcite takes the character U+0000
     * as the escape, so such patterns stay with Calcite's code too, as do invalid patterns (Calcite
     * fails on them row by row) and ILIKE (Calcite folds only ASCII letters). Those become
     * computed leaves or stay with Calcite.
     */
    static Predicate like(RexCall call, FilterOperands operands) {
        if (!(call.getOperator() instanceof SqlLikeOperator op) || !op.isCaseSensitive() || op.isNegated()
                || call.getKind() != SqlKind.LIKE) {
            return null;
        }
        List<RexNode> args = call.getOperands();
        VortexColumn c = operands.column(args.get(0));
        if (c == null || c.kind() != DataType.Kind.UTF8) {
            return null;
        }
        String pattern = FilterOperands.stringLiteral(args.get(1));
        Character escape = null;
        if (args.size() > 2) {
            String e = FilterOperands.stringLiteral(args.get(2));
            if (e == null || e.length() != 1 || Character.isSurrogate(e.charAt(0))) {
                return null;
            }
            escape = e.charAt(0);
        }
        if (pattern == null || escape == null && pattern.indexOf('\0') >= 0 || hasWildcardOne(pattern, escape)) {
            return null;
        }
        try {
            return new Predicate.Like(c.name(), pattern, escape, false, false);
        } catch (IllegalArgumentException invalid) {
            return null;
        }
    }

    /** Whether {@code pattern} has an {@code _} not escaped by {@code escape}. */
    private static boolean hasWildcardOne(String pattern, Character escape) {
        for (int i = 0; i < pattern.length(); i++) {
            char ch = pattern.charAt(i);
            if (escape != null && ch == escape) {
                i++;
            } else if (ch == '_') {
                return true;
            }
        }
        return false;
    }
}
