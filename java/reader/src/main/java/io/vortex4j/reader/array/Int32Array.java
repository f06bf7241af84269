package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;

/** A column of i32 values, or of dates as days since 1970-01-01. */
public final class Int32Array extends Array {
    final ByteBuffer values;

    Int32Array(NativeHandle owner, DataType type, int length, ByteBuffer validity, ByteBuffer values) {
        super(owner, type, length, validity);
        this.values = values;
    }

    /** The value of row {@code i} (unspecified for a null row). */
    public int getInt(int i) {
        checkIndex(i);
        int v = values.getInt(i << 2);
        checkRead();
        return v;
    }
}
