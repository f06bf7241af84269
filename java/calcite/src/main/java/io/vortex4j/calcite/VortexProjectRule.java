package io.vortex4j.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexPermuteInputsShuttle;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;

/**
 * {@code Project(LogicalVortexScan)} → the scan reads only the columns the projection uses, and
 * struct fields the projection reads alone by path ({@link VortexRules#PROJECT}).
 */
final class VortexProjectRule extends RelRule<VortexRuleConfig> {
    VortexProjectRule(VortexRuleConfig config) {
        super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalProject project = call.rel(0);
        LogicalVortexScan scan = call.rel(1);
        List<RexNode> exprs = project.getProjects();
        // Struct fields (t.st.x) read alone by path, unless the projection also needs the whole struct.
        FieldPaths paths = new FieldPaths(scan, ImmutableBitSet.of());
        List<RexNode> byPath = new ArrayList<>();
        for (RexNode e : exprs) {
            byPath.add(paths.rewrite(e));
        }
        if (paths.added()) {
            ImmutableBitSet whole = RelOptUtil.InputFinder.bits(byPath, null)
                    .intersect(ImmutableBitSet.range(scan.fields.length));
            paths = new FieldPaths(scan, whole);
            byPath.clear();
            for (RexNode e : exprs) {
                byPath.add(paths.rewrite(e));
            }
            if (paths.added()) {
                scan = scan.withFields(paths.fields());
                exprs = byPath;
            }
        }
        boolean allRefs = !exprs.isEmpty() && exprs.stream().allMatch(e -> e instanceof RexInputRef);
        if (allRefs) {
            // A plain selection of columns: the scan produces exactly them.
            int[] fields = new int[exprs.size()];
            for (int i = 0; i < fields.length; i++) {
                fields[i] = scan.fields[((RexInputRef) exprs.get(i)).getIndex()];
            }
            call.transformTo(scan.withFields(fields));
            return;
        }
        ImmutableBitSet used = RelOptUtil.InputFinder.bits(exprs, null);
        if (used.cardinality() == scan.fields.length) {
            if (scan != call.rel(1)) {
                call.transformTo(call.builder().push(scan).project(exprs, project.getRowType().getFieldNames(), true)
                        .build());
            }
            return;
        }
        if (used.isEmpty()) {
            // Nothing is read (e.g. SELECT 1 or COUNT(*) above): one column gives the row count.
            if (scan.fields.length == 1) {
                return;
            }
            used = ImmutableBitSet.of(0);
        }
        int[] fields = new int[used.cardinality()];
        Mappings.TargetMapping mapping = Mappings.create(org.apache.calcite.util.mapping.MappingType.INVERSE_SURJECTION,
                scan.fields.length, fields.length);
        int k = 0;
        for (int i : used) {
            fields[k] = scan.fields[i];
            mapping.set(i, k);
            k++;
        }
        LogicalVortexScan newScan = scan.withFields(fields);
        RexPermuteInputsShuttle shuttle = new RexPermuteInputsShuttle(mapping, newScan);
        List<RexNode> newExprs = new ArrayList<>();
        for (RexNode e : exprs) {
            newExprs.add(e.accept(shuttle));
        }
        RelBuilder b = call.builder();
        call.transformTo(b.push(newScan).project(newExprs, project.getRowType().getFieldNames(), true).build());
    }
}
