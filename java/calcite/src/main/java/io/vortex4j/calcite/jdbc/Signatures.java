package io.vortex4j.calcite.jdbc;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;

/** Prepared statements with other names for their result columns. */
final class Signatures {
    private Signatures() {}

    /**
     * {@code signature} with its result columns named {@code names} (one per column), running
     * the same plan.
     */
    static <T> CalciteSignature<T> renamed(CalciteSignature<T> signature, List<String> names,
            RelDataTypeFactory typeFactory) {
        if (signature.columns.size() != names.size()) {
            throw new IllegalArgumentException(names + " for " + signature.columns.size() + " columns");
        }
        List<ColumnMetaData> columns = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            ColumnMetaData c = signature.columns.get(i);
            String name = names.get(i);
            columns.add(new ColumnMetaData(c.ordinal, c.autoIncrement, c.caseSensitive, c.searchable, c.currency,
                    c.nullable, c.signed, c.displaySize, name, name, c.schemaName, c.precision, c.scale, c.tableName,
                    c.catalogName, c.type, c.readOnly, c.writable, c.definitelyWritable, c.columnClassName));
        }
        RelDataType rowType = signature.rowType;
        if (rowType != null && rowType.isStruct() && rowType.getFieldCount() == names.size()) {
            List<RelDataType> types = new ArrayList<>();
            for (RelDataTypeField f : rowType.getFieldList()) {
                types.add(f.getType());
            }
            rowType = typeFactory.createStructType(types, names);
        }
        // The plan's rows already stop at the statement's row limit.
        return new CalciteSignature<>(signature.sql, signature.parameters, signature.internalParameters, rowType,
                columns, signature.cursorFactory, signature.rootSchema, signature.getCollationList(), -1,
                signature::enumerable, signature.statementType);
    }
}
