package io.vortex4j.calcite;

import io.vortex4j.reader.Cancellation;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.exec.SplitExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A Vortex dataset as a SQL table: one Vortex file, or every Vortex file of a folder (see {@link
 * VortexDataset}). One column per column of the files (see {@link VortexColumn} for the type
 * mapping), then one per partition column of Hive-style folders ({@code key=value/}: BIGINT,
 * DATE or VARCHAR, as the dataset infers them).
 *
 * <p>This class is the plain form, used when push-down is disabled: a {@link ScannableTable}
 * whose every row Calcite reads and filters itself. {@link VortexPushdownTable} adds filter,
 * projection and aggregate push-down.
 *
 * <p>The dataset is opened (listed, its first footer read) when the table is created and stays
 * open for the table's lifetime; the other footers are read when a query first needs them, so a
 * filter on partition columns keeps the files it rules out unopened. Datasets are thread-safe, so
 * concurrent queries share it. Pushed aggregates and top-n run the dataset's splits on up to {@link
 * #threads()} threads.
 */
public class VortexTable extends AbstractTable implements ScannableTable, TranslatableTable {
    private final String name;
    private final VortexDataset dataset;
    private final List<VortexColumn> columns;
    private final int threads;
    /** Struct fields scans read by path ({@link #pathColumn}); guards {@link #pathIndex} too. */
    private final List<VortexColumn> paths = new ArrayList<>();
    private final java.util.Map<String, Integer> pathIndex = new java.util.HashMap<>();

    /** The dataset {@code dataset} as the table {@code name}. */
    protected VortexTable(String name, VortexDataset dataset, int threads) {
        this.name = name;
        this.threads = checkThreads(threads);
        this.dataset = dataset;
        Schema schema = dataset.schema();
        int fileColumns = dataset.fileSchema().size();
        List<VortexColumn> cols = new ArrayList<>();
        for (int i = 0; i < schema.size(); i++) {
            Field f = schema.field(i);
            if (VortexColumn.isExposed(f.type())) {
                cols.add(new VortexColumn(i, f, i >= fileColumns));
            }
        }
        this.columns = Collections.unmodifiableList(cols);
    }

    /**
     * Opens the Vortex file or folder at {@code path} as the table {@code name}; with {@code
     * pushdown} the table is a {@link VortexPushdownTable}, otherwise a plain scannable table.
     * Pushed aggregates use {@link SplitExecutor#defaultThreads()} threads.
     */
    public static VortexTable open(String name, Path path, boolean pushdown) {
        return open(name, path, pushdown, SplitExecutor.defaultThreads());
    }

    /** {@link #open(String, Path, boolean)} running pushed aggregates on up to {@code threads} threads. */
    public static VortexTable open(String name, Path path, boolean pushdown, int threads) {
        return open(name, path.toString(), pushdown, threads);
    }

    /**
     * Opens the Vortex file, folder or glob at {@code location}, a local path or an object store
     * location ({@code s3://bucket/t/}), as the table {@code name} (see {@link #open(String, Path, boolean)}).
     */
    public static VortexTable open(String name, String location, boolean pushdown, int threads) {
        checkThreads(threads); // before opening, so a bad argument leaves nothing open
        return of(name, VortexDataset.open(location), pushdown, threads);
    }

    /** The open {@code dataset} as the table {@code name} (see {@link #open(String, String, boolean, int)}). */
    public static VortexTable of(String name, VortexDataset dataset, boolean pushdown, int threads) {
        return pushdown ? new VortexPushdownTable(name, dataset, threads) : new VortexTable(name, dataset, threads);
    }

    /** The table name. */
    public String name() {
        return name;
    }

    /** The open dataset behind the table. */
    public VortexDataset dataset() {
        return dataset;
    }

    private static int checkThreads(int threads) {
        if (threads <= 0) {
            throw new IllegalArgumentException("threads must be positive, not " + threads);
        }
        return threads;
    }

    /** How many splits a pushed aggregate or top-n of this table runs at once. */
    public int threads() {
        return threads;
    }

    /** The exposed columns, in table order. */
    List<VortexColumn> columns() {
        return columns;
    }

    /**
     * Column {@code index} of a scan: a table column ({@code index < columns().size()}), or a
     * struct field registered by {@link #pathColumn}.
     */
    VortexColumn column(int index) {
        if (index < columns.size()) {
            return columns.get(index);
        }
        synchronized (paths) {
            return paths.get(index - columns.size());
        }
    }

    /**
     * The scan index of the struct field {@code names} (a column, then a field name per level),
     * which the reader then reads alone by its dotted path ({@code "st.inner.z"}, {@link
     * io.vortex4j.reader.Schema#resolve}); -1 when the reader cannot name it so: a name holds a
     * dot or is empty, the path is a column's own name, or it does not lead through structs of
     * the files. Indexes are handed out once per path and stay valid for the table's lifetime
     * (plans are cached), numbered after the table's columns.
     */
    int pathColumn(List<String> names) {
        for (String n : names) {
            if (n.isEmpty() || n.indexOf('.') >= 0) {
                return -1;
            }
        }
        String path = String.join(".", names);
        synchronized (paths) {
            Integer known = pathIndex.get(path);
            if (known != null) {
                return known;
            }
            Schema files = dataset.fileSchema();
            if (names.size() < 2 || dataset.schema().indexOf(path) >= 0 || files.indexOf(names.get(0)) < 0) {
                return -1;
            }
            Field f;
            try {
                f = files.resolve(path);
            } catch (io.vortex4j.VortexException notAField) {
                return -1;
            }
            int index = columns.size() + paths.size();
            paths.add(new VortexColumn(-1, f));
            pathIndex.put(path, index);
            return index;
        }
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder b = typeFactory.builder();
        for (VortexColumn c : columns) {
            b.add(c.name(), c.relType(typeFactory));
        }
        return b.build();
    }

    /**
     * The dataset's estimated row count, so the planner can cost scans (estimated from the first
     * file, so that planning opens no other file).
     */
    @Override
    public Statistic getStatistic() {
        return Statistics.of(dataset.estimatedRowCount(), List.of());
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

    /**
     * Calcite's own scan of this scannable table ({@code EnumerableTableScan}), or, when a column
     * is a list of structs, which that scan cannot convert, a {@link VortexPlainScan}: the same
     * rows, nothing pushed either way.
     */
    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
        for (RelDataTypeField f : relOptTable.getRowType().getFieldList()) {
            RelDataType element = f.getType().getComponentType();
            if (element != null && element.isStruct()) {
                return new VortexPlainScan(context.getCluster(), relOptTable, this);
            }
        }
        return LogicalTableScan.create(context.getCluster(), relOptTable, context.getTableHints());
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + ", " + dataset.location() + "]";
    }

    /** An enumerable over rows built by a {@link VortexEnumerator}. */
    static Enumerable<Object> rows(VortexScanSpec spec, Cancellation cancellation) {
        return new AbstractEnumerable<Object>() {
            @Override
            public Enumerator<Object> enumerator() {
                // The enumerator opens its scan here: the scan checks the cancellation per chunk.
                return cancellation.call(() -> new VortexEnumerator(spec.table.dataset(), spec.projectedColumns(),
                        spec.filter, spec.scalar, spec.table.threads()));
            }
        };
    }
}
