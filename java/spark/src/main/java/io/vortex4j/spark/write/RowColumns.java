package io.vortex4j.spark.write;

import io.vortex4j.reader.write.Batch;
import java.math.BigDecimal;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;

/**
 * Spark rows gathered column by column into the Java arrays a reader {@link Batch} takes (values
 * are copied out of each row at once: Spark reuses row objects). Column {@code c} of {@code
 * schema} is field {@code ordinals[c]} of the rows (a partitioned write leaves out the partition
 * columns).
 */
final class RowColumns {
    private final StructType schema;
    private final int[] ordinals;
    private final int capacity;
    private final Object[] values;
    private final boolean[][] valid;
    private int size;

    RowColumns(StructType schema, int[] ordinals, int capacity) {
        this.schema = schema;
        this.ordinals = ordinals;
        this.capacity = capacity;
        this.values = new Object[schema.size()];
        this.valid = new boolean[schema.size()][];
        clear();
    }

    int size() {
        return size;
    }

    void clear() {
        size = 0;
        for (int c = 0; c < values.length; c++) {
            values[c] = allocate(schema.fields()[c].dataType(), capacity);
            valid[c] = new boolean[capacity];
        }
    }

    private static Object allocate(DataType t, int n) {
        if (t == DataTypes.BooleanType) return new boolean[n];
        if (t == DataTypes.ByteType) return new byte[n];
        if (t == DataTypes.ShortType) return new short[n];
        if (t == DataTypes.IntegerType || t == DataTypes.DateType) return new int[n];
        if (t == DataTypes.LongType || t == DataTypes.TimestampType || t == DataTypes.TimestampNTZType) return new long[n];
        if (t == DataTypes.FloatType) return new float[n];
        if (t == DataTypes.DoubleType) return new double[n];
        if (t instanceof StringType) return new String[n];
        if (t == DataTypes.BinaryType) return new byte[n][];
        if (t instanceof DecimalType) return new BigDecimal[n];
        throw new UnsupportedOperationException("cannot write Spark type " + t.simpleString());
    }

    void add(InternalRow row) {
        int r = size++;
        for (int k = 0; k < values.length; k++) {
            int c = ordinals[k];
            if (row.isNullAt(c)) {
                continue;
            }
            valid[k][r] = true;
            DataType t = schema.fields()[k].dataType();
            Object a = values[k];
            if (a instanceof boolean[] x) x[r] = row.getBoolean(c);
            else if (a instanceof byte[] x) x[r] = row.getByte(c);
            else if (a instanceof short[] x) x[r] = row.getShort(c);
            else if (a instanceof int[] x) x[r] = row.getInt(c);
            else if (a instanceof long[] x) x[r] = row.getLong(c);
            else if (a instanceof float[] x) x[r] = row.getFloat(c);
            else if (a instanceof double[] x) x[r] = row.getDouble(c);
            else if (a instanceof String[] x) x[r] = row.getUTF8String(c).toString();
            else if (a instanceof byte[][] x) x[r] = row.getBinary(c).clone();
            else if (a instanceof BigDecimal[] x) {
                DecimalType d = (DecimalType) t;
                x[r] = row.getDecimal(c, d.precision(), d.scale()).toJavaBigDecimal();
            }
        }
    }

    /** Sets every column of {@code batch} (of {@link #size()} rows) from the gathered rows. */
    void fill(Batch batch) {
        for (int c = 0; c < values.length; c++) {
            batch.set(schema.fields()[c].name(), trimmed(values[c]), java.util.Arrays.copyOf(valid[c], size));
        }
    }

    private Object trimmed(Object a) {
        Object out = java.lang.reflect.Array.newInstance(a.getClass().getComponentType(), size);
        System.arraycopy(a, 0, out, 0, size);
        return out;
    }
}
