package io.vortex4j.calcite;

import io.vortex4j.reader.Cancellation;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A Vortex file as a SQL table: one column per readable column of the file (see {@link
 * VortexColumn} for the type mapping; columns of dtypes the reader cannot read are left out).
 *
 * <p>This class is the plain form, used when push-down is disabled: a {@link ScannableTable}
 * whose every row Calcite reads and filters itself. {@link VortexPushdownTable} adds filter,
 * projection and aggregate push-down.
 *
 * <p>The file is opened when the table is created and stays open for the table's lifetime; the
 * reader's files are thread-safe, so concurrent queries share it.
 */
public class VortexTable extends AbstractTable implements ScannableTable {
    private final String name;
    private final VortexFile file;
    private final List<VortexColumn> columns;

    /** Opens the Vortex file at {@code path} as the table {@code name}. */
    protected VortexTable(String name, Path path) {
        this.name = name;
        this.file = VortexFile.open(path);
        Schema schema = file.schema();
        List<VortexColumn> cols = new ArrayList<>();
        for (int i = 0; i < schema.size(); i++) {
            Field f = schema.field(i);
            if (VortexColumn.isExposed(f.type())) {
                cols.add(new VortexColumn(i, f));
            }
        }
        this.columns = Collections.unmodifiableList(cols);
    }

    /**
     * Opens the Vortex file at {@code path} as the table {@code name}; with {@code pushdown} the
     * table is a {@link VortexPushdownTable}, otherwise a plain scannable table.
     */
    public static VortexTable open(String name, Path path, boolean pushdown) {
        return pushdown ? new VortexPushdownTable(name, path) : new VortexTable(name, path);
    }

    /** The table name. */
    public String name() {
        return name;
    }

    /** The open file behind the table. */
    public VortexFile file() {
        return file;
    }

    /** The exposed columns, in table order. */
    List<VortexColumn> columns() {
        return columns;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder b = typeFactory.builder();
        for (VortexColumn c : columns) {
            b.add(c.name(), c.relType(typeFactory));
        }
        return b.build();
    }

    /** The file's row count, so the planner can cost scans. */
    @Override
    public Statistic getStatistic() {
        return Statistics.of(file.rowCount(), List.of());
    }

    /** Every row, every column, no filter: Calcite does the rest. */
    @Override
    @SuppressWarnings("unchecked")
    public Enumerable<Object[]> scan(DataContext root) {
        int[] all = new int[columns.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        Enumerable<?> rows = new VortexScanSpec(this, all, null, false).rows(VortexScanSpec.cancellation(root));
        return (Enumerable<Object[]>) rows;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + ", " + file.path() + "]";
    }

    /** An enumerable over rows built by a {@link VortexEnumerator}. */
    static Enumerable<Object> rows(VortexScanSpec spec, Cancellation cancellation) {
        return new AbstractEnumerable<Object>() {
            @Override
            public Enumerator<Object> enumerator() {
                // The enumerator opens its scan here: the scan checks the cancellation per chunk.
                return cancellation.call(() -> new VortexEnumerator(spec.table.file(), spec.projectedColumns(),
                        spec.filter, spec.scalar));
            }
        };
    }
}
