package io.vortex4j.calcite;

import io.vortex4j.reader.DataType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Casts that keep every value of a column: comparing the cast column then equals comparing the
 * column, so the reader may compare the column itself.
 */
final class LosslessCasts {
    private LosslessCasts() {}

    /** Digits before the point that every value of an integer kind fits in. */
    private static int integerDigits(DataType.Kind kind) {
        switch (kind) {
            case INT8: case UINT8: return 3;
            case INT16: case UINT16: return 5;
            case INT32: case UINT32: return 10;
            case INT64: return 19;
            default: return 20; // UINT64
        }
    }

    /** Bits of magnitude of an integer kind (for exactness in floating point). */
    static int integerBits(DataType.Kind kind) {
        switch (kind) {
            case INT8: case UINT8: return 8;
            case INT16: case UINT16: return 16;
            case INT32: case UINT32: return 32;
            default: return 64;
        }
    }

    /**
     * Whether casting every value of column {@code c} to {@code target} keeps it the same number
     * (or string, or instant), so that comparing the cast value equals comparing the value.
     */
    static boolean keepsValues(VortexColumn c, RelDataType target) {
        DataType.Kind k = c.kind();
        SqlTypeName t = target.getSqlTypeName();
        if (k.isInteger()) {
            switch (t) {
                case TINYINT: return k == DataType.Kind.INT8;
                case SMALLINT: return k == DataType.Kind.INT8 || k == DataType.Kind.INT16 || k == DataType.Kind.UINT8;
                case INTEGER: return integerBits(k) <= 16 || k == DataType.Kind.INT32;
                case BIGINT: return integerBits(k) <= 32 || k == DataType.Kind.INT64;
                case DECIMAL: return target.getPrecision() - target.getScale() >= integerDigits(k);
                case REAL: return integerBits(k) <= 16;
                case FLOAT:
                case DOUBLE: return integerBits(k) <= 32;
                default: return false;
            }
        }
        switch (k) {
            case DECIMAL:
                if (t == SqlTypeName.DECIMAL) {
                    return target.getScale() >= c.type().scale()
                            && target.getPrecision() - target.getScale() >= c.type().precision() - c.type().scale();
                }
                return (t == SqlTypeName.DOUBLE || t == SqlTypeName.FLOAT)
                        && c.type().scale() == 0 && c.type().precision() <= 15;
            case FLOAT16:
            case FLOAT32:
                return t == SqlTypeName.REAL || t == SqlTypeName.DOUBLE || t == SqlTypeName.FLOAT;
            case FLOAT64:
                return t == SqlTypeName.DOUBLE || t == SqlTypeName.FLOAT;
            case UTF8:
                return t == SqlTypeName.VARCHAR && target.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED;
            case BINARY:
                return t == SqlTypeName.VARBINARY && target.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED;
            case BOOL:
                return t == SqlTypeName.BOOLEAN;
            case DATE:
                return t == SqlTypeName.DATE;
            case TIME:
                // Every TIME precision holds Calcite's milliseconds; only a lower one truncates.
                return t == SqlTypeName.TIME && target.getPrecision() >= (c.type().unit() == DataType.TimeUnit.SECONDS ? 0 : 3);
            case TIMESTAMP:
                return t == SqlTypeName.TIMESTAMP && target.getPrecision() >= (c.type().unit() == DataType.TimeUnit.SECONDS ? 0 : 3);
            default:
                return false;
        }
    }
}
