package io.vortex4j.calcite;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.BoolArray;
import io.vortex4j.reader.array.DecimalArray;
import io.vortex4j.reader.array.Float32Array;
import io.vortex4j.reader.array.Float64Array;
import io.vortex4j.reader.array.Int16Array;
import io.vortex4j.reader.array.Int32Array;
import io.vortex4j.reader.array.Int64Array;
import io.vortex4j.reader.array.Int8Array;
import io.vortex4j.reader.array.UInt16Array;
import io.vortex4j.reader.array.UInt32Array;
import io.vortex4j.reader.array.UInt64Array;
import io.vortex4j.reader.array.UInt8Array;
import io.vortex4j.reader.array.VarBinArray;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Copies the rows of a Vortex file, in order, into other files (the same schema,
 * the raw values bit for bit), so a folder of files holds exactly the rows of one file.
 */
final class RowCopier {
    private RowCopier() {}

    /**
     * Copies the rows of {@code source} into files chosen per row by {@code target} (called with
     * each row number, in order; returns an index into {@code targets}). Every target is written,
     * an empty one with no rows. Returns the rows per target.
     */
    static long[] copy(Path source, List<Path> targets, LongFunction<Integer> target) {
        try (VortexFile file = VortexFile.open(source)) {
            Schema schema = file.schema();
            List<VortexWriter> writers = new ArrayList<>();
            long[] counts = new long[targets.size()];
            try {
                for (Path t : targets) {
                    t.getParent().toFile().mkdirs();
                    writers.add(VortexWriter.create(t, schema));
                }
                long row = 0;
                try (Scan scan = file.scan()) {
                    for (Chunk chunk : scan) {
                        try (chunk) {
                            int n = chunk.length();
                            int[] of = new int[n];
                            int[] per = new int[targets.size()];
                            for (int i = 0; i < n; i++) {
                                of[i] = target.apply(row + i);
                                per[of[i]]++;
                            }
                            row += n;
                            for (int t = 0; t < targets.size(); t++) {
                                if (per[t] > 0) {
                                    writers.get(t).write(batch(schema, chunk, of, t, per[t]));
                                    counts[t] += per[t];
                                }
                            }
                        }
                    }
                }
                for (VortexWriter w : writers) {
                    w.finish();
                }
            } finally {
                for (VortexWriter w : writers) {
                    w.close();
                }
            }
            return counts;
        }
    }

    /** The rows {@code i} of {@code chunk} with {@code of[i] == t}, as a batch of {@code m} rows. */
    private static Batch batch(Schema schema, Chunk chunk, int[] of, int t, int m) {
        Batch b = new Batch(schema, m);
        for (int c = 0; c < schema.size(); c++) {
            Field f = schema.field(c);
            Array a = chunk.column(c);
            boolean[] valid = new boolean[m];
            Object data = newData(f, m);
            for (int i = 0, k = 0; i < of.length; i++) {
                if (of[i] != t) {
                    continue;
                }
                valid[k] = !a.isNull(i);
                if (valid[k]) {
                    set(data, k, a, i);
                }
                k++;
            }
            b.set(f.name(), data, valid);
        }
        return b;
    }

    private static Object newData(Field f, int m) {
        switch (f.type().kind()) {
            case BOOL: return new boolean[m];
            case INT8: case UINT8: return new byte[m];
            case INT16: case UINT16: return new short[m];
            case INT32: case UINT32: case DATE: return new int[m];
            case INT64: case UINT64: case TIME: case TIMESTAMP: return new long[m];
            case FLOAT32: return new float[m];
            case FLOAT64: return new double[m];
            case UTF8: return new String[m];
            case BINARY: return new byte[m][];
            case DECIMAL: return new BigDecimal[m];
            default: throw new IllegalArgumentException("cannot copy " + f);
        }
    }

    private static void set(Object data, int k, Array a, int i) {
        if (a instanceof BoolArray x) {
            ((boolean[]) data)[k] = x.getBoolean(i);
        } else if (a instanceof Int8Array x) {
            ((byte[]) data)[k] = x.getByte(i);
        } else if (a instanceof UInt8Array x) {
            ((byte[]) data)[k] = (byte) x.getInt(i);
        } else if (a instanceof Int16Array x) {
            ((short[]) data)[k] = x.getShort(i);
        } else if (a instanceof UInt16Array x) {
            ((short[]) data)[k] = (short) x.getInt(i);
        } else if (a instanceof Int32Array x) {
            ((int[]) data)[k] = x.getInt(i);
        } else if (a instanceof UInt32Array x) {
            ((int[]) data)[k] = (int) x.getLong(i);
        } else if (a instanceof Int64Array x) {
            ((long[]) data)[k] = x.getLong(i);
        } else if (a instanceof UInt64Array x) {
            ((long[]) data)[k] = x.getBigInteger(i).longValue();
        } else if (a instanceof Float32Array x) {
            ((float[]) data)[k] = x.getFloat(i);
        } else if (a instanceof Float64Array x) {
            ((double[]) data)[k] = x.getDouble(i);
        } else if (a instanceof DecimalArray x) {
            ((BigDecimal[]) data)[k] = x.getBigDecimal(i);
        } else if (a instanceof VarBinDictArray x) {
            if (data instanceof String[] s) {
                s[k] = x.getString(i);
            } else {
                ((byte[][]) data)[k] = x.getBytes(i);
            }
        } else if (a instanceof VarBinArray x) {
            if (data instanceof String[] s) {
                s[k] = x.getString(i);
            } else {
                ((byte[][]) data)[k] = x.getBytes(i);
            }
        } else {
            throw new IllegalArgumentException("cannot copy " + a);
        }
    }
}
