package io.vortex4j.spark.read;

import io.vortex4j.reader.dataset.Split;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The batches of a partition's splits, one split after the other ({@link BatchReader} each,
 * started when the one before is done). A batch is valid until the next call to {@link #next()}.
 */
final class SplitsReader implements PartitionReader<ColumnarBatch> {
    private final List<Split> splits;
    private final Function<Split, BatchReader> open;
    private int next;
    private BatchReader current;

    SplitsReader(List<Split> splits, Function<Split, BatchReader> open) {
        this.splits = splits;
        this.open = open;
    }

    @Override
    public boolean next() {
        while (current == null || !current.next()) {
            closeCurrent();
            if (next == splits.size()) {
                return false;
            }
            current = open.apply(splits.get(next++));
        }
        return true;
    }

    @Override
    public ColumnarBatch get() {
        return current.get();
    }

    private void closeCurrent() {
        if (current != null) {
            BatchReader c = current;
            current = null;
            c.close();
        }
    }

    @Override
    public void close() {
        closeCurrent();
    }
}
