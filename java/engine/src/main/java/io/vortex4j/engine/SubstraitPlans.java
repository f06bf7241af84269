package io.vortex4j.engine;

import io.substrait.extension.DefaultExtensionCatalog;
import io.substrait.isthmus.SubstraitRelVisitor;
import io.substrait.plan.Plan;
import io.substrait.plan.PlanProtoConverter;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.sql.SqlKind;

/**
 * A logical plan as a Substrait plan (isthmus, with Substrait's standard function extensions):
 * what the native engine's DataFusion reads (datafusion-substrait). The plan names tables by
 * their qualified names, under which {@link NativeTables} registers them.
 */
final class SubstraitPlans {
    private SubstraitPlans() {}

    /** The protobuf bytes of {@code rel}'s plan; throws {@link NativeTables.Declined} where isthmus cannot convert it. */
    static byte[] of(RelNode rel) {
        try {
            Plan.Root root = SubstraitRelVisitor.convert(RelRoot.of(rel, SqlKind.SELECT),
                    DefaultExtensionCatalog.DEFAULT_COLLECTION);
            return new PlanProtoConverter().toProto(Plan.builder().addRoots(root).build()).toByteArray();
        } catch (RuntimeException e) {
            throw new NativeTables.Declined("no Substrait plan: " + e.getMessage());
        }
    }
}
