package io.vortex4j.calcite;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Struct field accesses ({@code t.st.x}, {@code t.st."inner".z}: chains of {@link RexFieldAccess}
 * over a scan's input) turned into references to path columns, which the scan reads alone by
 * their dotted path ({@link VortexTable#pathColumn}) instead of the whole struct. A path column's
 * SQL type is the type Calcite gives the access (nullable when a struct on the way is), so the
 * reference replaces the access exactly; a null struct's fields read null, as Calcite's access
 * of a null struct gives.
 */
final class FieldPaths {
    private final LogicalVortexScan scan;
    private final RexBuilder rexBuilder;
    /** The scan's fields, then the path columns the rewrites added. */
    private final List<Integer> fields = new ArrayList<>();
    /** Inputs whose field accesses stay as they are. */
    private final ImmutableBitSet kept;

    /**
     * Rewrites over the inputs of {@code scan}, leaving the accesses of the inputs in {@code kept}
     * alone.
     */
    FieldPaths(LogicalVortexScan scan, ImmutableBitSet kept) {
        this.scan = scan;
        this.rexBuilder = scan.getCluster().getRexBuilder();
        this.kept = kept;
        for (int f : scan.fields) {
            fields.add(f);
        }
    }

    /**
     * {@code node} with each field access the reader can read by path replaced by a reference to
     * input {@code i >= scan.fields.length}: the path column {@link #fields()}{@code [i]}.
     */
    RexNode rewrite(RexNode node) {
        return node.accept(new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                RexNode ref = pathReference(access);
                return ref != null ? ref : super.visitFieldAccess(access);
            }
        });
    }

    /** The scan's fields followed by the path columns {@link #rewrite} referenced. */
    int[] fields() {
        return fields.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Whether a rewrite referenced a path column. */
    boolean added() {
        return fields.size() > scan.fields.length;
    }

    private RexNode pathReference(RexFieldAccess access) {
        List<String> names = new ArrayList<>();
        RexNode base = access;
        while (base instanceof RexFieldAccess a) {
            names.add(0, a.getField().getName());
            base = a.getReferenceExpr();
        }
        if (!(base instanceof RexInputRef ref) || ref.getIndex() >= scan.fields.length || kept.get(ref.getIndex())) {
            return null;
        }
        VortexColumn column = scan.column(ref.getIndex());
        if (column.isPartition()) {
            return null;
        }
        List<String> path = new ArrayList<>(column.isPath() ? Arrays.asList(column.name().split("\\.")) : List.of(column.name()));
        path.addAll(names);
        int index = scan.vortexTable.pathColumn(path);
        if (index < 0) {
            return null;
        }
        RelDataType type = type(rexBuilder, scan.getTable().getRowType(), String.join(".", path));
        if (!type.equals(access.getType())) {
            return null;
        }
        int position = fields.indexOf(index);
        if (position < 0) {
            position = fields.size();
            fields.add(index);
        }
        return new RexInputRef(position, type);
    }

    /**
     * The SQL type of the field at the dotted {@code path} of a table of row type {@code table}:
     * Calcite's own type for the access chain ({@link RexBuilder#makeFieldAccess}).
     */
    static RelDataType type(RexBuilder rexBuilder, RelDataType table, String path) {
        String[] names = path.split("\\.");
        RelDataTypeField column = table.getField(names[0], true, false);
        RexNode node = new RexInputRef(column.getIndex(), column.getType());
        for (int i = 1; i < names.length; i++) {
            node = rexBuilder.makeFieldAccess(node, names[i], true);
        }
        return node.getType();
    }

    /** The leaf values a column of type {@code t} holds per row, for costing: a struct weighs its fields. */
    static double weight(DataType t) {
        switch (t.kind()) {
            case STRUCT: {
                double w = 0;
                for (Field f : t.children()) {
                    w += weight(f.type());
                }
                return Math.max(1, w);
            }
            case LIST:
            case FIXED_SIZE_LIST:
                return weight(t.children().get(0).type());
            default:
                return 1;
        }
    }
}
