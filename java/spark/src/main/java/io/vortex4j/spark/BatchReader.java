package io.vortex4j.spark;

import io.vortex4j.reader.Bitmap;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Compute;
import io.vortex4j.reader.Predicate;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads one file as columnar batches, one per chunk that has selected rows: the chunk's columns
 * stay in native memory and only the rows the pushed filters select reach Spark. Zone maps skip
 * the chunks the filters rule out. A batch is valid until the next call to {@link #next()}.
 */
final class BatchReader implements PartitionReader<ColumnarBatch> {
    private final SourceFile source;
    private final StructType readSchema;
    private final VortexFile file;
    private final Scan scan;
    private final Predicate filter;
    /** Position in the scan of each column Spark reads. */
    private final int[] positions;
    private long remaining;
    private Chunk chunk;
    private ColumnarBatch batch;

    BatchReader(SourceFile source, StructType readSchema, org.apache.spark.sql.connector.expressions.filter.Predicate[] filters,
            int limit) {
        this.source = source;
        this.readSchema = readSchema;
        this.remaining = limit < 0 ? Long.MAX_VALUE : limit;
        this.file = Errors.naming(source, () -> VortexFile.open(Paths.get(source.path())));
        try {
            this.filter = Filters.conjunction(file.schema(), filters, source);
            Set<String> columns = new LinkedHashSet<>();
            for (StructField f : readSchema.fields()) {
                columns.add(f.name());
            }
            if (filter != null) {
                columns.addAll(filter.columns());
            }
            if (columns.isEmpty()) {
                columns.add(file.schema().field(0).name()); // rows are counted from any column
            }
            List<String> scanned = new ArrayList<>(columns);
            this.positions = new int[readSchema.size()];
            for (int i = 0; i < positions.length; i++) {
                positions[i] = scanned.indexOf(readSchema.fields()[i].name());
                SparkTypes.toSpark(file.schema().field(readSchema.fields()[i].name()), file.path());
            }
            this.scan = Errors.naming(source, () -> file.scan(scanned, filter));
        } catch (RuntimeException e) {
            file.close();
            throw e;
        }
    }

    @Override
    public boolean next() {
        closeChunk();
        while (remaining > 0) {
            Chunk c = Errors.naming(source, () -> scan.hasNext() ? scan.next() : null);
            if (c == null) {
                return false;
            }
            chunk = c;
            int[] rows = null;
            int n = c.length();
            if (filter != null) {
                Bitmap selected = Errors.naming(source, () -> Compute.selection(c, filter));
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
                vectors[i] = new VortexColumnVector(readSchema.fields()[i].dataType(),
                        Errors.naming(source, () -> c.column(column)), rows);
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
        file.close();
    }
}
