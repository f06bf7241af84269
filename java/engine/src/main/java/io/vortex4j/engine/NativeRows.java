package io.vortex4j.engine;

import io.vortex4j.reader.Cancellation;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.Enumerator;

/**
 * The rows of one execution of a native plan: the query started natively, its Arrow batches read
 * through the C stream interface one at a time, each row converted to Calcite's representation.
 * Closing stops the execution and frees every native and Arrow resource exactly once.
 */
final class NativeRows implements Enumerator<Object> {
    private final ResultValues[] columns;
    private final boolean scalar;
    private final Cancellation cancellation;
    private final BufferAllocator allocator = new RootAllocator();
    private long query;
    private ArrowReader reader;
    private QueryWatch watch;
    private VectorSchemaRoot batch;
    private int row = -1;
    private Object current;
    private boolean closed;

    NativeRows(byte[] plan, NativeTables tables, long memoryLimit, List<ResultValues> columns, Cancellation cancellation) {
        this.columns = columns.toArray(new ResultValues[0]);
        this.scalar = columns.size() == 1;
        this.cancellation = cancellation;
        try {
            query = EngineNative.openQuery(tables.threads(), memoryLimit);
            tables.register(query);
            try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
                EngineNative.execute(query, plan, stream.memoryAddress());
                reader = Data.importArrayStream(allocator, stream);
            }
            watch = QueryWatch.of(query, cancellation);
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    @Override
    public Object current() {
        return current;
    }

    @Override
    public boolean moveNext() {
        while (batch == null || row + 1 >= batch.getRowCount()) {
            if (!nextBatch()) {
                return false;
            }
        }
        row++;
        if (scalar) {
            current = columns[0].get(batch.getVector(0), row);
        } else {
            Object[] values = new Object[columns.length];
            List<FieldVector> vectors = batch.getFieldVectors();
            for (int c = 0; c < values.length; c++) {
                values[c] = columns[c].get(vectors.get(c), row);
            }
            current = values;
        }
        return true;
    }

    private boolean nextBatch() {
        cancellation.check();
        try {
            boolean more = reader.loadNextBatch();
            batch = more ? reader.getVectorSchemaRoot() : null;
            row = -1;
            return more;
        } catch (IOException | RuntimeException e) {
            cancellation.check(); // a cancelled or timed-out query says so, not what stopping it caused
            throw new IllegalStateException(message(e), e);
        }
    }

    /** The native error's own message (Arrow wraps it). */
    private static String message(Throwable e) {
        String m = e.getMessage();
        return m == null ? e.toString() : m;
    }

    @Override
    public void reset() {
        throw new UnsupportedOperationException("a native query's rows are read once");
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (watch != null) {
            watch.close();
            watch = null;
        }
        try {
            if (reader != null) {
                reader.close();
            }
        } catch (IOException e) {
            throw new IllegalStateException(message(e), e);
        } finally {
            reader = null;
            EngineNative.freeQuery(query);
            query = 0;
            allocator.close();
        }
    }
}
