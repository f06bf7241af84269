package io.vortex4j.calcite;

import io.vortex4j.VortexException;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * Stands for a {@code .vortex} file of the schema's directory that could not be opened, so that
 * one bad file does not hide the other tables: any query that uses it fails with the reason.
 */
final class UnreadableTable extends AbstractTable {
    private final String path;
    private final RuntimeException cause;

    UnreadableTable(Object path, RuntimeException cause) {
        this.path = String.valueOf(path);
        this.cause = cause;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        String message = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        int eol = message.indexOf('\n');
        throw new VortexException("cannot read " + path + ": " + (eol < 0 ? message : message.substring(0, eol)));
    }
}
