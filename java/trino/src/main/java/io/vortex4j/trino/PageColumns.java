package io.vortex4j.trino;

import io.airlift.slice.Slice;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.write.Batch;
import java.math.BigDecimal;
import java.util.List;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/** A Trino page as the writer's {@link Batch}: one Java array per column, nulls as validity flags. */
final class PageColumns {
    private PageColumns() {}

    static Batch batch(Schema schema, List<Type> types, Page page) {
        int rows = page.getPositionCount();
        Batch batch = new Batch(schema, rows);
        for (int c = 0; c < types.size(); c++) {
            Block block = page.getBlock(c);
            boolean[] valid = null;
            if (block.mayHaveNull()) {
                valid = new boolean[rows];
                for (int r = 0; r < rows; r++) {
                    valid[r] = !block.isNull(r);
                }
            }
            batch.set(schema.field(c).name(), values(types.get(c), block, rows, valid), valid);
        }
        return batch;
    }

    private static Object values(Type type, Block block, int rows, boolean[] valid) {
        if (type instanceof BigintType) {
            long[] v = new long[rows];
            for (int r = 0; r < rows; r++) {
                v[r] = isValid(valid, r) ? BigintType.BIGINT.getLong(block, r) : 0;
            }
            return v;
        }
        if (type instanceof IntegerType || type instanceof DateType) {
            int[] v = new int[rows];
            for (int r = 0; r < rows; r++) {
                v[r] = isValid(valid, r) ? (int) type.getLong(block, r) : 0;
            }
            return v;
        }
        if (type instanceof SmallintType) {
            short[] v = new short[rows];
            for (int r = 0; r < rows; r++) {
                v[r] = isValid(valid, r) ? (short) type.getLong(block, r) : 0;
            }
            return v;
        }
        if (type instanceof TinyintType) {
            byte[] v = new byte[rows];
            for (int r = 0; r < rows; r++) {
                v[r] = isValid(valid, r) ? (byte) type.getLong(block, r) : 0;
            }
            return v;
        }
        if (type instanceof BooleanType) {
            boolean[] v = new boolean[rows];
            for (int r = 0; r < rows; r++) {
                v[r] = isValid(valid, r) && type.getBoolean(block, r);
            }
            return v;
        }
        if (type instanceof RealType) {
            float[] v = new float[rows];
            for (int r = 0; r < rows; r++) {
                v[r] = isValid(valid, r) ? Float.intBitsToFloat((int) type.getLong(block, r)) : 0;
            }
            return v;
        }
        if (type instanceof DoubleType) {
            double[] v = new double[rows];
            for (int r = 0; r < rows; r++) {
                v[r] = isValid(valid, r) ? type.getDouble(block, r) : 0;
            }
            return v;
        }
        if (type instanceof VarcharType) {
            String[] v = new String[rows];
            for (int r = 0; r < rows; r++) {
                v[r] = isValid(valid, r) ? type.getSlice(block, r).toStringUtf8() : null;
            }
            return v;
        }
        if (type instanceof VarbinaryType) {
            byte[][] v = new byte[rows][];
            for (int r = 0; r < rows; r++) {
                Slice s = isValid(valid, r) ? type.getSlice(block, r) : null;
                v[r] = s == null ? null : s.getBytes();
            }
            return v;
        }
        if (type instanceof DecimalType d) {
            BigDecimal[] v = new BigDecimal[rows];
            for (int r = 0; r < rows; r++) {
                if (isValid(valid, r)) {
                    v[r] = d.isShort() ? BigDecimal.valueOf(d.getLong(block, r), d.getScale())
                            : new BigDecimal(((Int128) d.getObject(block, r)).toBigInteger(), d.getScale());
                }
            }
            return v;
        }
        if (type instanceof TimestampType t && t.isShort()) {
            long[] v = new long[rows];
            long per = t.getPrecision() <= 3 ? 1000 : 1;
            for (int r = 0; r < rows; r++) {
                v[r] = isValid(valid, r) ? Math.floorDiv(t.getLong(block, r), per) : 0;
            }
            return v;
        }
        if (type instanceof TimeType t) {
            // picoseconds of the day, in the unit TrinoTypes.toVortex chose
            long per = switch (TrinoTypes.timeUnit(t.getPrecision())) {
                case MILLISECONDS -> 1_000_000_000L;
                case MICROSECONDS -> 1_000_000L;
                default -> 1_000L;
            };
            long[] v = new long[rows];
            for (int r = 0; r < rows; r++) {
                v[r] = isValid(valid, r) ? t.getLong(block, r) / per : 0;
            }
            return v;
        }
        throw new TrinoException(NOT_SUPPORTED, "Unsupported column type: " + type);
    }

    private static boolean isValid(boolean[] valid, int r) {
        return valid == null || valid[r];
    }
}
