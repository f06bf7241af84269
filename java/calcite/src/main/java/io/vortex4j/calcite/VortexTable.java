package io.vortex4j.calcite;

import io.vortex4j.reader.Cancellation;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexDataset;
import io.vortex4j.reader.exec.SplitExecutor;
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
public class VortexTable extends AbstractTable implements ScannableTable {
    private final String name;
    private final VortexDataset dataset;
    private final List<VortexColumn> columns;
    private final int threads;

    /** Opens the Vortex file or folder at {@code path} as the table {@code name}. */
    protected VortexTable(String name, Path path, int threads) {
        if (threads <= 0) {
            throw new IllegalArgumentException("threads must be positive, not " + threads);
        }
        this.name = name;
        this.threads = threads;
        this.dataset = VortexDataset.open(path);
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
        return pushdown ? new VortexPushdownTable(name, path, threads) : new VortexTable(name, path, threads);
    }

    /** The table name. */
    public String name() {
        return name;
    }

    /** The open dataset behind the table. */
    public VortexDataset dataset() {
        return dataset;
    }

    /** How many splits a pushed aggregate or top-n of this table runs at once. */
    public int threads() {
        return threads;
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
