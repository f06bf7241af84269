package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;

/** A column of u32 values, widened to long (0..2^32-1). */
public final class UInt32Array extends Array {
    final ByteBuffer values;

    UInt32Array(NativeHandle owner, DataType type, int length, ByteBuffer validity, ByteBuffer values) {
        super(owner, type, length, validity);
        this.values = values;
    }

    /** The value of row {@code i} (unspecified for a null row). */
    public long getLong(int i) {
        checkIndex(i);
        long v = Integer.toUnsignedLong(values.getInt(i << 2));
        checkRead();
        return v;
    }
}
