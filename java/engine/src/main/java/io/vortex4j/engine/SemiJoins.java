package io.vortex4j.engine;

import com.google.common.collect.ImmutableSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * {@code EXISTS}, {@code NOT EXISTS} and {@code IN} sub-queries that are conjuncts of a WHERE
 * clause, as semi and anti joins: the correlation conditions (and an IN's equalities) become the
 * join's condition, so DataFusion runs one hash join whose non-equality conditions (TPC-H q21's
 * {@code l2.l_suppkey <> l1.l_suppkey}) filter the matches, where Calcite's decorrelator would
 * join against the distinct outer keys and repeat the outer joins. Exact: a row is kept by a
 * semi join when some row of the sub-query satisfies the condition (true, not unknown), as
 * EXISTS and IN keep it in WHERE; an anti join keeps it when none does, as NOT EXISTS. {@code NOT
 * IN} is left alone (its NULL semantics are not an anti join's), as is a sub-query whose
 * correlated filter is not the one right under its projections or whose inputs are correlated
 * too.
 */
final class SemiJoins extends RelHomogeneousShuttle {
    @Override
    public RelNode visit(RelNode other) {
        RelNode rel = super.visit(other);
        if (!(rel instanceof LogicalFilter filter)) {
            return rel;
        }
        RexBuilder rex = filter.getCluster().getRexBuilder();
        List<RexNode> kept = new ArrayList<>();
        List<Semi> semis = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            Semi semi = semi(conjunct, filter, rex);
            if (semi == null) {
                kept.add(conjunct);
            } else {
                semis.add(semi);
            }
        }
        if (semis.isEmpty()) {
            return rel;
        }
        // An IN's keys are computed once, independently of the outer row, and are typically few (a
        // grouped, filtered sub-query: TPC-H q18): the table holding its operands is cut before the
        // joins. An EXISTS over a base table stays above them, where the joins have already cut
        // the rows that probe it (q21).
        RelNode out = filter.getInput();
        for (Semi semi : semis) {
            if (semi.in) {
                out = place(out, semi.condition, semi.right, semi.type);
            }
        }
        if (!kept.isEmpty()) {
            out = LogicalFilter.create(out, RexUtil.composeConjunction(rex, kept), ImmutableSet.copyOf(filter.getVariablesSet()));
        }
        for (Semi semi : semis) {
            if (!semi.in) {
                out = LogicalJoin.create(out, semi.right, List.of(), semi.condition, Set.of(), semi.type);
            }
        }
        return out;
    }

    /**
     * {@code node} semi- or anti-joined with {@code right} on {@code condition} (over {@code
     * node}'s fields, then {@code right}'s), placed on the input of inner joins (and the preserved
     * side of left joins) that holds every field of {@code node} the condition uses: cutting one
     * side of such a join cuts its result alike.
     */
    private static RelNode place(RelNode node, RexNode condition, RelNode right, JoinRelType type) {
        if (node instanceof LogicalJoin join && (join.getJoinType() == JoinRelType.INNER || join.getJoinType() == JoinRelType.LEFT)) {
            int fields = node.getRowType().getFieldCount();
            int leftFields = join.getLeft().getRowType().getFieldCount();
            ImmutableBitSet used = RelOptUtil.InputFinder.bits(condition)
                    .intersect(ImmutableBitSet.range(fields));
            if (!used.isEmpty() && used.nth(used.cardinality() - 1) < leftFields) {
                RelNode left = place(join.getLeft(), shift(condition, fields, 0, leftFields), right, type);
                return join.copy(join.getTraitSet(), join.getCondition(), left, join.getRight(), join.getJoinType(), join.isSemiJoinDone());
            }
            int rightFields = fields - leftFields;
            if (join.getJoinType() == JoinRelType.INNER && !used.isEmpty() && used.nextSetBit(0) >= leftFields) {
                RelNode inner = place(join.getRight(), shift(condition, fields, leftFields, rightFields), right, type);
                return join.copy(join.getTraitSet(), join.getCondition(), join.getLeft(), inner, join.getJoinType(), join.isSemiJoinDone());
            }
        }
        return LogicalJoin.create(node, right, List.of(), condition, Set.of(), type);
    }

    /**
     * {@code condition} over a child's fields: those of the node ({@code fields} of them) from
     * {@code offset} on become the child's ({@code childFields} of them), the sub-query's follow.
     */
    private static RexNode shift(RexNode condition, int fields, int offset, int childFields) {
        return condition.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                int i = ref.getIndex();
                return new RexInputRef(i < fields ? i - offset : i - fields + childFields, ref.getType());
            }
        });
    }

    /** A semi or anti join's right side and condition (over the left row, then the right). */
    private record Semi(RelNode right, RexNode condition, JoinRelType type, boolean in) {}

    /**
     * The field of the filter's input ({@code input}) that {@code field} of the correlation
     * variable {@code v} names, or -1: by position when the variable has the input's row type, by
     * (unique) name when the input is a narrower projection of it (columns pruned after the
     * variable was typed).
     */
    private static int outerField(RexCorrelVariable v, RelDataTypeField field, RelDataType input) {
        if (v.getType().equals(input)) {
            return field.getIndex();
        }
        int found = -1;
        for (RelDataTypeField f : input.getFieldList()) {
            if (f.getName().equals(field.getName())) {
                if (found >= 0 || !f.getType().equals(field.getType())) {
                    return -1;
                }
                found = f.getIndex();
            }
        }
        long named = v.getType().getFieldList().stream().filter(f -> f.getName().equals(field.getName())).count();
        return named == 1 ? found : -1;
    }

    /** {@code conjunct} as a semi or anti join of the filter's input, or null. */
    private static Semi semi(RexNode conjunct, LogicalFilter filter, RexBuilder rex) {
        boolean negated = conjunct.getKind() == SqlKind.NOT;
        RexNode inner = negated ? ((RexCall) conjunct).getOperands().get(0) : conjunct;
        if (!(inner instanceof RexSubQuery sub) || (sub.getKind() != SqlKind.EXISTS && sub.getKind() != SqlKind.IN)
                || (negated && sub.getKind() == SqlKind.IN)) {
            return null;
        }
        int leftCount = filter.getInput().getRowType().getFieldCount();
        RelNode body = sub.rel;
        List<RexNode> conditions = new ArrayList<>();
        if (sub.getKind() == SqlKind.IN) {
            // IN: left operand i equals the sub-query's column i.
            if (!RelOptUtil.getVariablesUsed(body).isEmpty() || RexUtil.SubQueryFinder.find(sub.getOperands()) != null) {
                return null;
            }
            for (int i = 0; i < sub.getOperands().size(); i++) {
                RexNode left = sub.getOperands().get(i);
                RexNode right = rex.makeInputRef(body.getRowType().getFieldList().get(i).getType(), leftCount + i);
                if (!SqlTypeUtil.equalSansNullability(rex.getTypeFactory(), left.getType(), right.getType())) {
                    return null;
                }
                conditions.add(rex.makeCall(SqlStdOperatorTable.EQUALS, left, right));
            }
        } else {
            // EXISTS: projections do not change whether a row exists; the correlated filter under
            // them becomes the condition, its input the right side.
            while (body instanceof LogicalProject p && RelOptUtil.getVariablesUsed(p).isEmpty()
                    && !RexUtil.SubQueryFinder.containsSubQuery(p)) {
                body = p.getInput();
            }
            if (!(body instanceof LogicalFilter correlated) || RexUtil.SubQueryFinder.containsSubQuery(correlated)) {
                return null;
            }
            RelNode right = correlated.getInput();
            if (!RelOptUtil.getVariablesUsed(right).isEmpty()) {
                return null;
            }
            Set<CorrelationId> outer = filter.getVariablesSet();
            boolean[] ok = {true};
            RexNode condition = correlated.getCondition().accept(new RexShuttle() {
                @Override
                public RexNode visitFieldAccess(RexFieldAccess access) {
                    if (access.getReferenceExpr() instanceof RexCorrelVariable v) {
                        int field = outerField(v, access.getField(), filter.getInput().getRowType());
                        if (!outer.contains(v.id) || field < 0) {
                            ok[0] = false;
                            return access;
                        }
                        return rex.makeInputRef(filter.getInput(), field);
                    }
                    return super.visitFieldAccess(access);
                }

                @Override
                public RexNode visitCorrelVariable(RexCorrelVariable v) {
                    ok[0] = false;
                    return v;
                }

                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                    return new RexInputRef(leftCount + ref.getIndex(), ref.getType());
                }
            });
            if (!ok[0]) {
                return null;
            }
            body = right;
            conditions.add(condition);
        }
        return new Semi(body, RexUtil.composeConjunction(rex, conditions),
                negated ? JoinRelType.ANTI : JoinRelType.SEMI, sub.getKind() == SqlKind.IN);
    }
}
