package io.vortex4j.calcite.jdbc;

import io.vortex4j.calcite.VortexAggregateScan;
import io.vortex4j.calcite.VortexAggregateSpec;
import java.lang.reflect.Type;
import java.util.List;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.sql.SqlKind;

/**
 * A statement whose whole plan is one pushed aggregate ({@link VortexAggregateScan} at the root,
 * its columns the statement's), run without generated code. Calcite otherwise writes a Java
 * class for every plan and compiles it with Janino: in a fresh JVM (every one-shot {@code
 * bin/vortex4j sql}) loading and running the compiler is a large part of the query's time, while
 * such a plan's code would only call {@link VortexAggregateSpec#enumerable}. Any other plan
 * (a sort, a projection or a join above the scan) goes Calcite's way. {@code
 * -Dvortex4j.directPlans=false} turns it off, to compare (bench/startup.sh).
 */
final class DirectPlan extends Prepare.PreparedResultImpl {
    /** {@code -Dvortex4j.directPlans}: on unless {@code false}; also read by {@link DirectOptimization}. */
    static final boolean ENABLED = !"false".equals(System.getProperty("vortex4j.directPlans"));

    private final Bindable<Object> bindable;
    private final Type elementType;

    private DirectPlan(RelRoot root, RelDataType parameterRowType, List<? extends List<String>> fieldOrigins,
            VortexAggregateSpec spec, boolean scalar) {
        super(root.rel.getRowType(), parameterRowType, fieldOrigins,
                root.collation.getFieldCollations().isEmpty() ? List.<RelCollation>of() : List.of(root.collation),
                root.rel, null, false);
        this.bindable = spec::enumerable;
        // What generated code reports: a row is the value itself when there is one column.
        this.elementType = scalar ? Object.class : Object[].class;
    }

    /** The direct plan of {@code root}, or null when it needs Calcite's generated code. */
    static DirectPlan of(RelRoot root, RelDataType parameterRowType, List<? extends List<String>> fieldOrigins) {
        if (!ENABLED || root.kind != SqlKind.SELECT || !(root.rel instanceof VortexAggregateScan scan) || !root.isRefTrivial()) {
            return null;
        }
        // The row format the scan's generated code would use (PhysTypeImpl.of applies the same rule).
        boolean scalar = JavaRowFormat.ARRAY.optimize(scan.getRowType()) == JavaRowFormat.SCALAR;
        return new DirectPlan(root, parameterRowType, fieldOrigins, scan.spec(scalar), scalar);
    }

    @Override
    public String getCode() {
        throw new UnsupportedOperationException("a direct plan has no generated code");
    }

    @Override
    public Bindable getBindable(Meta.CursorFactory cursorFactory) {
        return bindable;
    }

    @Override
    public Type getElementType() {
        return elementType;
    }
}
