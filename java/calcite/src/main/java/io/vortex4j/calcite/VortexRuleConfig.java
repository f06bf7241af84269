package io.vortex4j.calcite;

import java.util.function.Function;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.tools.RelBuilderFactory;
import org.checkerframework.checker.nullness.qual.Nullable;

/** A hand-written rule configuration (Calcite's own use generated immutable classes). */
final class VortexRuleConfig implements RelRule.Config {
    private final String description;
    private final RelRule.OperandTransform operands;
    private final RelBuilderFactory relBuilderFactory;
    private final Function<VortexRuleConfig, RelOptRule> factory;

    VortexRuleConfig(String description, RelRule.OperandTransform operands, Function<VortexRuleConfig, RelOptRule> factory) {
        this(description, operands, RelFactories.LOGICAL_BUILDER, factory);
    }

    private VortexRuleConfig(String description, RelRule.OperandTransform operands, RelBuilderFactory relBuilderFactory,
            Function<VortexRuleConfig, RelOptRule> factory) {
        this.description = description;
        this.operands = operands;
        this.relBuilderFactory = relBuilderFactory;
        this.factory = factory;
    }

    @Override
    public RelOptRule toRule() {
        return factory.apply(this);
    }

    @Override
    public RelBuilderFactory relBuilderFactory() {
        return relBuilderFactory;
    }

    @Override
    public RelRule.Config withRelBuilderFactory(RelBuilderFactory f) {
        return new VortexRuleConfig(description, operands, f, factory);
    }

    @Override
    public @Nullable String description() {
        return description;
    }

    @Override
    public RelRule.Config withDescription(@Nullable String d) {
        return new VortexRuleConfig(d, operands, relBuilderFactory, factory);
    }

    @Override
    public RelRule.OperandTransform operandSupplier() {
        return operands;
    }

    @Override
    public RelRule.Config withOperandSupplier(RelRule.OperandTransform transform) {
        return new VortexRuleConfig(description, transform, relBuilderFactory, factory);
    }
}
