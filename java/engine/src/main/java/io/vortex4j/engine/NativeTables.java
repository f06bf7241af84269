package io.vortex4j.engine;

import io.vortex4j.calcite.VortexTable;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.dataset.Split;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

/** The Vortex tables a plan scans, registered with a native query under the names the plan gives them. */
final class NativeTables {
    /** The SQL types the native scan hands up exactly as Calcite reads them. */
    private static final java.util.Set<SqlTypeName> TYPES = java.util.EnumSet.of(SqlTypeName.BOOLEAN,
            SqlTypeName.TINYINT, SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT, SqlTypeName.REAL,
            SqlTypeName.FLOAT, SqlTypeName.DOUBLE, SqlTypeName.DECIMAL, SqlTypeName.CHAR, SqlTypeName.VARCHAR,
            SqlTypeName.DATE, SqlTypeName.TIME, SqlTypeName.TIMESTAMP, SqlTypeName.VARBINARY);

    /** By qualified name. */
    private final Map<List<String>, VortexTable> tables;

    private NativeTables(Map<List<String>, VortexTable> tables) {
        this.tables = tables;
    }

    /**
     * The tables {@code rel} scans; throws {@link Declined} for a table that is not a Vortex table
     * or has a column the native scan does not hand up as Calcite reads it.
     */
    static NativeTables of(RelNode rel) {
        Map<List<String>, VortexTable> tables = new LinkedHashMap<>();
        rel.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(TableScan scan) {
                VortexTable table = scan.getTable().unwrap(VortexTable.class);
                if (table == null) {
                    throw new Declined("table " + scan.getTable().getQualifiedName() + " is not a Vortex table");
                }
                for (Field p : table.dataset().partitionColumns()) {
                    partitionType(table, p);
                }
                for (RelDataTypeField f : scan.getRowType().getFieldList()) {
                    if (!TYPES.contains(f.getType().getSqlTypeName())) {
                        throw new Declined("column " + table.name() + "." + f.getName() + " is of type "
                                + f.getType().getFullTypeString());
                    }
                }
                tables.put(scan.getTable().getQualifiedName(), table);
                return scan;
            }
        });
        return new NativeTables(tables);
    }

    /** How many threads the query runs on: its tables' setting (the connection's). */
    int threads() {
        return tables.values().stream().mapToInt(VortexTable::threads).max().orElse(1);
    }

    /** Registers every table with the native query {@code query}, their splits as planned now. */
    void register(long query) {
        for (Map.Entry<List<String>, VortexTable> e : tables.entrySet()) {
            VortexTable table = e.getValue();
            List<Split> splits = table.dataset().splits(null);
            List<Field> partitions = table.dataset().partitionColumns();
            String[] partitionNames = new String[partitions.size()];
            String[] partitionTypes = new String[partitions.size()];
            for (int k = 0; k < partitionNames.length; k++) {
                partitionNames[k] = partitions.get(k).name();
                partitionTypes[k] = partitionType(table, partitions.get(k));
            }
            List<String> paths = new ArrayList<>(splits.size());
            long[] planned = new long[4 * splits.size()];
            String[] partitionValues = new String[splits.size() * partitionNames.length];
            for (int i = 0; i < splits.size(); i++) {
                Split s = splits.get(i);
                paths.add(s.path());
                planned[4 * i] = s.firstRow();
                planned[4 * i + 1] = s.endRow();
                planned[4 * i + 2] = s.fileSize();
                planned[4 * i + 3] = s.modifiedMillis();
                for (int k = 0; k < partitionNames.length; k++) {
                    Object v = s.partitionValues().get(partitionNames[k]);
                    // Long digits, LocalDate yyyy-MM-dd, String; null for the default partition.
                    partitionValues[i * partitionNames.length + k] = v == null ? null : v.toString();
                }
            }
            EngineNative.registerTable(query, e.getKey().toArray(new String[0]), paths.toArray(new String[0]), planned,
                    partitionNames, partitionTypes, partitionValues);
        }
    }

    /** How the native scan names the type of partition column {@code p}; declines other types. */
    private static String partitionType(VortexTable table, Field p) {
        if (p.type().equals(DataType.INT64)) {
            return "int64";
        }
        if (p.type().equals(DataType.DATE)) {
            return "date";
        }
        if (p.type().equals(DataType.UTF8)) {
            return "utf8";
        }
        throw new Declined("partition column " + table.name() + "." + p.name() + " is of type " + p.type());
    }

    /** Why the native engine does not take a statement. */
    static final class Declined extends RuntimeException {
        Declined(String reason) {
            super(reason, null, false, false);
        }
    }
}
