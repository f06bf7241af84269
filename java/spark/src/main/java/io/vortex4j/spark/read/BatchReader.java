package io.vortex4j.spark.read;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.spark.SparkTypes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads one split as columnar batches, one per chunk that has selected rows: the chunk's columns
 * stay in native memory and only the rows the pushed filters select reach Spark; partition
 * columns are constant vectors of the split's values. Zone maps skip the chunks the filters rule
 * out. A batch is valid until the next call to {@link #next()}.
 */
final class BatchReader implements PartitionReader<ColumnarBatch> {
    private final String path;
    private final StructType readSchema;
    private final Scan scan;
    private final Predicate filter;
    /** Position in the scan of each column Spark reads; -1 for a partition column. */
    private final int[] positions;
    /** The split's value of each partition column Spark reads (Spark's internal form). */
    private final Object[] partitionValues;
    private long remaining;
    private Chunk chunk;
    private ColumnarBatch batch;

    /**
     * {@code filter} is over the dataset's columns (null for none); {@code column} is a file
     * column to scan when Spark reads none (to count the rows).
     */
    BatchReader(Split split, StructType readSchema, Predicate filter, String column, int limit) {
        this.path = split.path();
        this.readSchema = readSchema;
        this.remaining = limit < 0 ? Long.MAX_VALUE : limit;
        Map<String, Object> values = split.partitionValues();
        Set<String> columns = new LinkedHashSet<>();
        this.positions = new int[readSchema.size()];
        this.partitionValues = new Object[readSchema.size()];
        for (StructField f : readSchema.fields()) {
            if (!values.containsKey(f.name())) {
                columns.add(f.name());
            }
        }
        if (filter != null) {
            for (String c : filter.columns()) {
                if (!values.containsKey(c)) {
                    columns.add(c);
                }
            }
        }
        if (columns.isEmpty()) {
            columns.add(column); // rows are counted from any column
        }
        List<String> scanned = new ArrayList<>(columns);
        for (int i = 0; i < positions.length; i++) {
            StructField f = readSchema.fields()[i];
            positions[i] = scanned.indexOf(f.name());
            if (positions[i] < 0) {
                partitionValues[i] = SparkValues.toInternal(values.get(f.name()), f.dataType());
            }
        }
        this.scan = Errors.naming(path, () -> OpenFiles.SHARED.scan(split, scanned, filter));
        this.filter = scan.chunkFilter();
        try {
            for (int i = 0; i < positions.length; i++) {
                if (positions[i] >= 0) {
                    SparkTypes.toSpark(scan.schema().field(positions[i]), path);
                }
            }
        } catch (RuntimeException e) {
            scan.close();
            throw e;
        }
    }

    @Override
    public boolean next() {
        closeChunk();
        while (remaining > 0) {
            Chunk c = Errors.naming(path, () -> scan.hasNext() ? scan.next() : null);
            if (c == null) {
                return false;
            }
            chunk = c;
            int[] rows = null;
            int n = c.length();
            if (filter != null) {
                Bitmap selected = Errors.naming(path, () -> Compute.selection(c, filter));
                int m = selected.cardinality();
                if (m < n) {
                    rows = rowsOf(selected, m);
                    n = m;
                }
            }
            if (n == 0) {
                closeChunk();
                continue;
            }
            int take = (int) Math.min(n, remaining);
            remaining -= take;
            ColumnVector[] vectors = new ColumnVector[positions.length];
            for (int i = 0; i < vectors.length; i++) {
                int column = positions[i];
                org.apache.spark.sql.types.DataType type = readSchema.fields()[i].dataType();
                vectors[i] = column < 0 ? PartitionVectors.constant(type, partitionValues[i], take)
                        : new VortexColumnVector(type, Errors.naming(path, () -> c.column(column)), rows);
            }
            batch = new ColumnarBatch(vectors, take);
            return true;
        }
        return false;
    }

    private static int[] rowsOf(Bitmap selected, int count) {
        int[] rows = new int[count];
        long[] words = selected.words();
        int k = 0;
        for (int w = 0; w < words.length; w++) {
            long bits = words[w];
            while (bits != 0) {
                rows[k++] = (w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
            }
        }
        return rows;
    }

    @Override
    public ColumnarBatch get() {
        return batch;
    }

    private void closeChunk() {
        batch = null;
        if (chunk != null) {
            chunk.close();
            chunk = null;
        }
    }

    @Override
    public void close() {
        closeChunk();
        scan.close();
    }
}
