package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;

/** A column of decimals: 128-bit little-endian unscaled values and the type's scale. */
public final class DecimalArray extends Array {
    final ByteBuffer values;

    DecimalArray(NativeHandle owner, DataType type, int length, ByteBuffer validity, ByteBuffer values) {
        super(owner, type, length, validity);
        this.values = values;
    }

    /** The value of row {@code i}, or null for a null row. */
    public BigDecimal getBigDecimal(int i) {
        if (isNull(i)) {
            return null;
        }
        byte[] bigEndian = new byte[16];
        for (int b = 0; b < 16; b++) {
            bigEndian[15 - b] = values.get(i * 16 + b);
        }
        checkRead();
        return new BigDecimal(new BigInteger(bigEndian), type.scale());
    }
}
