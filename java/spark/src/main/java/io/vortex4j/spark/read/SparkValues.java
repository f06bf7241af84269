package io.vortex4j.spark.read;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.unsafe.types.UTF8String;

/** The reader's Java values (see {@code io.vortex4j.reader.array.Values}) in Spark's internal form. */
final class SparkValues {
    private SparkValues() {}

    /** {@code v} as Spark holds a value of {@code type} internally; null stays null. */
    static Object toInternal(Object v, DataType type) {
        if (v == null) {
            return null;
        }
        if (type instanceof StringType) {
            return UTF8String.fromString((String) v);
        }
        if (type instanceof DecimalType d) {
            BigDecimal b = v instanceof BigInteger i ? new BigDecimal(i) : v instanceof BigDecimal x ? x
                    : BigDecimal.valueOf(((Number) v).longValue());
            Decimal out = Decimal.apply(b);
            if (!out.changePrecision(d.precision(), d.scale())) {
                throw new ArithmeticException(v + " does not fit " + d.simpleString());
            }
            return out;
        }
        if (type == DataTypes.DateType) {
            return Math.toIntExact(((LocalDate) v).toEpochDay());
        }
        if (type == DataTypes.LongType) {
            return ((Number) v).longValue();
        }
        if (type == DataTypes.IntegerType) {
            return ((Number) v).intValue();
        }
        if (type == DataTypes.ShortType) {
            return ((Number) v).shortValue();
        }
        if (type == DataTypes.ByteType) {
            return ((Number) v).byteValue();
        }
        if (type == DataTypes.DoubleType) {
            return ((Number) v).doubleValue();
        }
        return v; // Boolean, byte[]
    }
}
