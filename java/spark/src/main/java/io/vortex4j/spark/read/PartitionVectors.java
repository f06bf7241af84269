package io.vortex4j.spark.read;

import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.unsafe.types.UTF8String;

/** A partition column in a batch: Spark's constant vector of the split's value. */
final class PartitionVectors {
    private PartitionVectors() {}

    /**
     * A vector of {@code rows} copies of {@code value} (Spark's internal form: Long for BIGINT,
     * Integer days for DATE, UTF8String for strings; null for the default partition).
     */
    static ConstantColumnVector constant(DataType type, Object value, int rows) {
        ConstantColumnVector v = new ConstantColumnVector(rows, type);
        if (value == null) {
            v.setNull();
        } else if (type == DataTypes.LongType) {
            v.setLong((Long) value);
        } else if (type == DataTypes.DateType) {
            v.setInt((Integer) value);
        } else if (type instanceof StringType) {
            v.setUtf8String((UTF8String) value);
        } else {
            throw new IllegalStateException("a partition column of type " + type.simpleString());
        }
        return v;
    }
}
