package io.vortex4j.trino;

import io.airlift.slice.Slices;
import io.trino.spi.TrinoException;
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.RealType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.trino.spi.StandardErrorCode.GENERIC_INTERNAL_ERROR;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;

/**
 * Java values as the reader boxes them ({@code io.vortex4j.reader.array.Values}) written into
 * Trino block builders: the path for types without a direct block (long decimals, u64, times,
 * timestamps, ROW, ARRAY) and for partition values.
 */
final class Values {
    private Values() {}

    /** Appends {@code value} (null for a null) as a value of {@code type}. */
    static void write(Type type, BlockBuilder out, Object value) {
        if (value == null) {
            out.appendNull();
        } else if (type instanceof RowType row) {
            List<Object> fields = value instanceof Map<?, ?> m ? new ArrayList<>(m.values()) : Arrays.asList((Object[]) value);
            ((RowBlockBuilder) out).buildEntry(builders -> {
                for (int i = 0; i < builders.size(); i++) {
                    write(row.getFields().get(i).getType(), builders.get(i), fields.get(i));
                }
            });
        } else if (type instanceof ArrayType array) {
            ((ArrayBlockBuilder) out).buildEntry(elements -> {
                for (Object e : (List<?>) value) {
                    write(array.getElementType(), elements, e);
                }
            });
        } else if (type instanceof BooleanType) {
            BooleanType.BOOLEAN.writeBoolean(out, (Boolean) value);
        } else if (type instanceof DoubleType) {
            DoubleType.DOUBLE.writeDouble(out, ((Number) value).doubleValue());
        } else if (type instanceof RealType) {
            RealType.REAL.writeLong(out, Float.floatToRawIntBits(((Number) value).floatValue()));
        } else if (value instanceof String s) {
            type.writeSlice(out, Slices.utf8Slice(s));
        } else if (value instanceof byte[] b) {
            type.writeSlice(out, Slices.wrappedBuffer(b));
        } else if (type instanceof DecimalType d) {
            BigInteger unscaled = decimal(value, d).unscaledValue();
            if (d.isShort()) {
                d.writeLong(out, unscaled.longValueExact());
            } else {
                d.writeObject(out, Int128.valueOf(unscaled));
            }
        } else if (value instanceof LocalDate date) {
            type.writeLong(out, date.toEpochDay());
        } else if (value instanceof LocalTime time) {
            type.writeLong(out, time.toNanoOfDay() * 1000);
        } else if (value instanceof LocalDateTime ts) {
            timestamp((TimestampType) type, out, ts.toInstant(ZoneOffset.UTC));
        } else if (value instanceof Instant instant) {
            if (type instanceof TimestampWithTimeZoneType tz) {
                long millis = instant.getEpochSecond() * 1000 + instant.getNano() / 1_000_000;
                if (tz.isShort()) {
                    tz.writeLong(out, packDateTimeWithZone(millis, UTC_KEY));
                } else {
                    int picosOfMilli = (instant.getNano() % 1_000_000) * 1000;
                    tz.writeObject(out, LongTimestampWithTimeZone.fromEpochMillisAndFraction(millis, picosOfMilli, UTC_KEY));
                }
            } else {
                timestamp((TimestampType) type, out, instant);
            }
        } else if (value instanceof Number n) {
            type.writeLong(out, n.longValue());
        } else {
            throw new TrinoException(GENERIC_INTERNAL_ERROR, "no Trino " + type + " value for " + value.getClass().getName());
        }
    }

    private static void timestamp(TimestampType type, BlockBuilder out, Instant t) {
        long micros = Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
        if (type.isShort()) {
            type.writeLong(out, micros);
        } else {
            type.writeObject(out, new LongTimestamp(micros, (t.getNano() % 1000) * 1000));
        }
    }

    private static BigDecimal decimal(Object value, DecimalType d) {
        BigDecimal v = value instanceof BigInteger b ? new BigDecimal(b) : (BigDecimal) value;
        return v.setScale(d.getScale(), RoundingMode.UNNECESSARY);
    }
}
