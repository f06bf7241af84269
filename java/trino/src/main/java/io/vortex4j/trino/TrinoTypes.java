package io.vortex4j.trino;

import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Vortex types as Trino types. Unsigned integers widen to the next signed type (u64 to
 * DECIMAL(20, 0)), f16 reads as REAL, times and timestamps keep their unit as the precision
 * (seconds 0, ms 3, µs 6, ns 9), a timestamp with a zone is TIMESTAMP WITH TIME ZONE (UTC), structs
 * are ROW and lists ARRAY. The null type, maps, unions and the other unsupported dtypes have no
 * Trino type: such columns are not listed.
 */
public final class TrinoTypes {
    private TrinoTypes() {}

    /** The Trino type of a Vortex type, or empty when Trino cannot read it. */
    public static Optional<Type> toTrino(DataType t) {
        switch (t.kind()) {
            case BOOL: return Optional.of(BooleanType.BOOLEAN);
            case INT8: return Optional.of(TinyintType.TINYINT);
            case INT16:
            case UINT8: return Optional.of(SmallintType.SMALLINT);
            case INT32:
            case UINT16: return Optional.of(IntegerType.INTEGER);
            case INT64:
            case UINT32: return Optional.of(BigintType.BIGINT);
            case UINT64: return Optional.of(DecimalType.createDecimalType(20, 0));
            case FLOAT16:
            case FLOAT32: return Optional.of(RealType.REAL);
            case FLOAT64: return Optional.of(DoubleType.DOUBLE);
            case UTF8: return Optional.of(VarcharType.VARCHAR);
            case BINARY: return Optional.of(VarbinaryType.VARBINARY);
            case DECIMAL: return Optional.of(DecimalType.createDecimalType(t.precision(), t.scale()));
            case DATE: return Optional.of(DateType.DATE);
            case TIME: return Optional.of(TimeType.createTimeType(precision(t.unit())));
            case TIMESTAMP:
                return Optional.of(t.timezone() == null
                        ? TimestampType.createTimestampType(precision(t.unit()))
                        : TimestampWithTimeZoneType.createTimestampWithTimeZoneType(precision(t.unit())));
            case STRUCT: {
                List<RowType.Field> fields = new ArrayList<>();
                for (Field f : t.children()) {
                    Optional<Type> ft = toTrino(f.type());
                    if (ft.isEmpty()) {
                        return Optional.empty();
                    }
                    fields.add(RowType.field(f.name(), ft.get()));
                }
                return fields.isEmpty() ? Optional.empty() : Optional.of(RowType.from(fields));
            }
            case LIST:
            case FIXED_SIZE_LIST:
                return toTrino(t.element().type()).map(ArrayType::new);
            default:
                return Optional.empty();
        }
    }

    /** The Vortex type a Trino column is written as, or empty when it cannot be written. */
    public static Optional<DataType> toVortex(Type t) {
        if (t instanceof BooleanType) {
            return Optional.of(DataType.BOOL);
        } else if (t instanceof TinyintType) {
            return Optional.of(DataType.INT8);
        } else if (t instanceof SmallintType) {
            return Optional.of(DataType.INT16);
        } else if (t instanceof IntegerType) {
            return Optional.of(DataType.INT32);
        } else if (t instanceof BigintType) {
            return Optional.of(DataType.INT64);
        } else if (t instanceof RealType) {
            return Optional.of(DataType.FLOAT32);
        } else if (t instanceof DoubleType) {
            return Optional.of(DataType.FLOAT64);
        } else if (t instanceof VarcharType) {
            return Optional.of(DataType.UTF8);
        } else if (t instanceof VarbinaryType) {
            return Optional.of(DataType.BINARY);
        } else if (t instanceof DecimalType d) {
            return Optional.of(DataType.decimal(d.getPrecision(), d.getScale()));
        } else if (t instanceof DateType) {
            return Optional.of(DataType.DATE);
        } else if (t instanceof TimeType time) {
            return Optional.of(DataType.time(timeUnit(time.getPrecision())));
        } else if (t instanceof TimestampType ts && ts.getPrecision() <= 6) {
            return Optional.of(DataType.timestamp(ts.getPrecision() <= 3 ? DataType.TimeUnit.MILLISECONDS : DataType.TimeUnit.MICROSECONDS, null));
        }
        return Optional.empty();
    }

    /** The unit that holds values of {@code precision} fractional digits (at least milliseconds). */
    static DataType.TimeUnit timeUnit(int precision) {
        return precision <= 3 ? DataType.TimeUnit.MILLISECONDS : precision <= 6 ? DataType.TimeUnit.MICROSECONDS : DataType.TimeUnit.NANOSECONDS;
    }

    /** The precision in fractional digits of a time unit. */
    static int precision(DataType.TimeUnit unit) {
        switch (unit) {
            case SECONDS: return 0;
            case MILLISECONDS: return 3;
            case MICROSECONDS: return 6;
            default: return 9;
        }
    }
}
