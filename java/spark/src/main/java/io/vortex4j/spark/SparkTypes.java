package io.vortex4j.spark;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The mapping between Vortex dtypes and Spark SQL types (documented in {@code docs/spark.md}).
 *
 * <table>
 *   <caption>Vortex to Spark</caption>
 *   <tr><th>Vortex</th><th>Spark</th></tr>
 *   <tr><td>bool</td><td>BooleanType</td></tr>
 *   <tr><td>i8, i16, i32, i64</td><td>ByteType, ShortType, IntegerType, LongType</td></tr>
 *   <tr><td>u8, u16, u32</td><td>ShortType, IntegerType, LongType (widened: every value fits)</td></tr>
 *   <tr><td>u64</td><td>DecimalType(20, 0)</td></tr>
 *   <tr><td>f16, f32, f64</td><td>FloatType, FloatType, DoubleType</td></tr>
 *   <tr><td>utf8, binary</td><td>StringType, BinaryType</td></tr>
 *   <tr><td>decimal(p, s)</td><td>DecimalType(p, s)</td></tr>
 *   <tr><td>vortex.date</td><td>DateType</td></tr>
 *   <tr><td>vortex.timestamp (s, ms, us) with a zone / without</td><td>TimestampType / TimestampNTZType</td></tr>
 *   <tr><td>null</td><td>NullType</td></tr>
 * </table>
 *
 * <p>Nanosecond timestamps (Spark keeps microseconds), times of day, and struct, list, map and
 * other extension dtypes are not mapped: reading such a column is an error naming the file and
 * column.
 */
public final class SparkTypes {
    private SparkTypes() {}

    /** The Spark schema of a file's columns; throws naming the file and column it cannot map. */
    public static StructType toSpark(Schema schema, Object file) {
        List<StructField> fields = new ArrayList<>();
        for (Field f : schema.fields()) {
            fields.add(DataTypes.createStructField(f.name(), toSpark(f, file), f.nullable()));
        }
        return DataTypes.createStructType(fields);
    }

    /** The Spark type of one column; throws naming the file and column when there is none. */
    public static org.apache.spark.sql.types.DataType toSpark(Field f, Object file) {
        DataType t = f.type();
        switch (t.kind()) {
            case NULL: return DataTypes.NullType;
            case BOOL: return DataTypes.BooleanType;
            case INT8: return DataTypes.ByteType;
            case INT16: case UINT8: return DataTypes.ShortType;
            case INT32: case UINT16: return DataTypes.IntegerType;
            case INT64: case UINT32: return DataTypes.LongType;
            case UINT64: return DataTypes.createDecimalType(20, 0);
            case FLOAT16: case FLOAT32: return DataTypes.FloatType;
            case FLOAT64: return DataTypes.DoubleType;
            case UTF8: return DataTypes.StringType;
            case BINARY: return DataTypes.BinaryType;
            case DECIMAL: return DataTypes.createDecimalType(t.precision(), t.scale());
            case DATE: return DataTypes.DateType;
            case TIMESTAMP:
                if (t.unit() != DataType.TimeUnit.NANOSECONDS) {
                    return t.timezone() == null ? DataTypes.TimestampNTZType : DataTypes.TimestampType;
                }
                break;
            default:
                break;
        }
        throw unsupported(file, f.name(), t.toString());
    }

    /** The Vortex schema a Spark schema is written as (see {@link #toVortex(StructField)}). */
    public static Schema toVortex(StructType schema) {
        List<Field> fields = new ArrayList<>();
        for (StructField f : schema.fields()) {
            fields.add(toVortex(f));
        }
        return new Schema(fields);
    }

    /** The Vortex dtype a Spark column is written as; throws naming the column when there is none. */
    public static Field toVortex(StructField f) {
        org.apache.spark.sql.types.DataType t = f.dataType();
        DataType v;
        if (t == DataTypes.BooleanType) {
            v = DataType.BOOL;
        } else if (t == DataTypes.ByteType) {
            v = DataType.INT8;
        } else if (t == DataTypes.ShortType) {
            v = DataType.INT16;
        } else if (t == DataTypes.IntegerType) {
            v = DataType.INT32;
        } else if (t == DataTypes.LongType) {
            v = DataType.INT64;
        } else if (t == DataTypes.FloatType) {
            v = DataType.FLOAT32;
        } else if (t == DataTypes.DoubleType) {
            v = DataType.FLOAT64;
        } else if (t instanceof org.apache.spark.sql.types.StringType) {
            v = DataType.UTF8;
        } else if (t == DataTypes.BinaryType) {
            v = DataType.BINARY;
        } else if (t instanceof DecimalType d) {
            v = DataType.decimal(d.precision(), d.scale());
        } else if (t == DataTypes.DateType) {
            v = DataType.DATE;
        } else if (t == DataTypes.TimestampType) {
            v = DataType.timestamp(DataType.TimeUnit.MICROSECONDS, "UTC");
        } else if (t == DataTypes.TimestampNTZType) {
            v = DataType.timestamp(DataType.TimeUnit.MICROSECONDS, null);
        } else {
            throw new UnsupportedOperationException("column '" + f.name() + "' has Spark type "
                    + t.simpleString() + ", which the vortex format does not write");
        }
        return new Field(f.name(), v, f.nullable());
    }

    static UnsupportedOperationException unsupported(Object file, String column, String dtype) {
        return new UnsupportedOperationException(file + ": column '" + column + "' has dtype " + dtype
                + ", which the vortex Spark connector does not read (see docs/spark.md for the type mapping)");
    }
}
