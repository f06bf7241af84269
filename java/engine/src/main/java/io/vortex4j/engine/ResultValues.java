package io.vortex4j.engine;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A result column's values in Calcite's representation of its SQL type (what generated code
 * would produce: DATE as days in an {@code Integer}, TIME as milliseconds of the day in an {@code
 * Integer}, TIMESTAMP as milliseconds since the epoch in a {@code Long}, VARBINARY as a {@code
 * ByteString}, DECIMAL as a {@code BigDecimal} of the column's scale, integers in their Java
 * width), read from the Arrow vector DataFusion produced.
 */
final class ResultValues {
    private final SqlTypeName type;
    private final int scale;
    private final String column;

    ResultValues(String column, RelDataType type) {
        this.column = column;
        this.type = type.getSqlTypeName();
        this.scale = type.getScale();
    }

    /** Row {@code i} of {@code v}. */
    Object get(FieldVector v, int i) {
        if (v.isNull(i)) {
            return null;
        }
        switch (type) {
            case DATE:
                if (v instanceof DateDayVector d) {
                    return d.get(i);
                }
                if (v instanceof DateMilliVector d) {
                    return (int) Math.floorDiv(d.get(i), 86_400_000L);
                }
                break;
            case TIMESTAMP:
                if (v instanceof TimeStampVector t) {
                    return millis(t.get(i), ((ArrowType.Timestamp) v.getField().getType()).getUnit());
                }
                break;
            case TIME: // milliseconds of the day
                if (v instanceof TimeSecVector t) {
                    return t.get(i) * 1000;
                }
                if (v instanceof TimeMilliVector t) {
                    return t.get(i);
                }
                if (v instanceof TimeMicroVector t) {
                    return (int) Math.floorDiv(t.get(i), 1000L);
                }
                if (v instanceof TimeNanoVector t) {
                    return (int) Math.floorDiv(t.get(i), 1_000_000L);
                }
                break;
            case BINARY:
            case VARBINARY:
                if (v.getObject(i) instanceof byte[] bytes) {
                    return new ByteString(bytes);
                }
                break;
            case CHAR:
            case VARCHAR:
                return v.getObject(i).toString();
            case BOOLEAN:
                return v.getObject(i);
            default:
                break;
        }
        Object o = v.getObject(i);
        if (!(o instanceof Number n)) {
            throw new IllegalStateException("native engine: result column " + column + " of type " + type
                    + " came as " + v.getField().getType());
        }
        switch (type) {
            case TINYINT: return n.byteValue();
            case SMALLINT: return n.shortValue();
            case INTEGER: return n.intValue();
            case BIGINT: return n.longValue();
            case REAL: return n.floatValue();
            case FLOAT:
            case DOUBLE: return n.doubleValue();
            case DECIMAL: return decimal(n);
            default:
                throw new IllegalStateException("native engine: result column " + column + " of type " + type
                        + " is not read from " + v.getField().getType());
        }
    }

    /** Milliseconds of a timestamp {@code raw} in {@code unit}: finer units floored, as Calcite reads them. */
    private static long millis(long raw, org.apache.arrow.vector.types.TimeUnit unit) {
        switch (unit) {
            case SECOND: return Math.multiplyExact(raw, 1000L);
            case MILLISECOND: return raw;
            case MICROSECOND: return Math.floorDiv(raw, 1000L);
            default: return Math.floorDiv(raw, 1_000_000L);
        }
    }

    private BigDecimal decimal(Number n) {
        BigDecimal d = n instanceof BigDecimal b ? b
                : n instanceof Double || n instanceof Float ? BigDecimal.valueOf(n.doubleValue())
                : BigDecimal.valueOf(n.longValue());
        return d.scale() == scale ? d : d.setScale(scale, RoundingMode.HALF_UP);
    }
}
