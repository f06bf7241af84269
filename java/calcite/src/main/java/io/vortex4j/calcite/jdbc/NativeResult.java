package io.vortex4j.calcite.jdbc;

import java.lang.reflect.Type;
import java.util.List;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.Bindable;

/** A statement the native engine runs ({@link NativeQuery} at the root): no generated code. */
final class NativeResult extends Prepare.PreparedResultImpl {
    private final NativeExecution.Plan plan;
    private final Type elementType;

    private NativeResult(RelRoot root, RelDataType parameterRowType, List<? extends List<String>> fieldOrigins,
            NativeQuery query) {
        super(query.getRowType(), parameterRowType, fieldOrigins, List.of(), query, null, false);
        this.plan = query.plan;
        // What generated code would hand the cursor: a row is the value itself when there is one column.
        this.elementType = JavaRowFormat.ARRAY.optimize(query.getRowType()) == JavaRowFormat.SCALAR
                ? Object.class : Object[].class;
    }

    /** The result of {@code root} when the native engine runs it, else null. */
    static NativeResult of(RelRoot root, RelDataType parameterRowType, List<? extends List<String>> fieldOrigins) {
        return root.rel instanceof NativeQuery query ? new NativeResult(root, parameterRowType, fieldOrigins, query)
                : null;
    }

    @Override
    public String getCode() {
        throw new UnsupportedOperationException("a native plan has no generated code");
    }

    @Override
    public Bindable getBindable(Meta.CursorFactory cursorFactory) {
        return plan::execute;
    }

    @Override
    public Type getElementType() {
        return elementType;
    }
}
