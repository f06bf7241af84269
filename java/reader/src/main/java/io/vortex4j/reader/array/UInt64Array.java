package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.math.BigInteger;
import java.nio.ByteBuffer;

/** A column of u64 values: {@link #getLong} gives the raw bits, {@link #getBigInteger} the value. */
public final class UInt64Array extends Array {
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
    final ByteBuffer values;

    UInt64Array(NativeHandle owner, DataType type, int length, ByteBuffer validity, ByteBuffer values) {
        super(owner, type, length, validity);
        this.values = values;
    }

    /** The 64 bits of row {@code i} as a signed long (values above 2^63-1 come out negative). */
    public long getLong(int i) {
        checkIndex(i);
        long v = values.getLong(i << 3);
        checkRead();
        return v;
    }

    /** The exact value of row {@code i}. */
    public BigInteger getBigInteger(int i) {
        long v = getLong(i);
        BigInteger b = BigInteger.valueOf(v);
        return v >= 0 ? b : b.add(TWO_64);
    }
}
