package io.vortex4j.calcite;

import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * The statement's SQL conformance, which the rules compile expressions with as Calcite's code
 * generator would.
 */
final class StatementConformance {
    private StatementConformance() {}

    /** The conformance of the statement {@code planner} plans, from its context; Calcite's default without one. */
    static SqlConformance of(RelOptPlanner planner) {
        CalciteConnectionConfig config = planner.getContext().maybeUnwrap(CalciteConnectionConfig.class).orElse(null);
        return config == null ? SqlConformanceEnum.DEFAULT : config.conformance();
    }
}
