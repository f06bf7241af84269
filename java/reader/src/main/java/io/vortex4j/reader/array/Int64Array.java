package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;

/** A column of i64 values, or of times and timestamps in their unit. */
public final class Int64Array extends Array {
    final ByteBuffer values;

    Int64Array(NativeHandle owner, DataType type, int length, ByteBuffer validity, ByteBuffer values) {
        super(owner, type, length, validity);
        this.values = values;
    }

    /** The value of row {@code i} (unspecified for a null row). */
    public long getLong(int i) {
        checkIndex(i);
        long v = values.getLong(i << 3);
        checkRead();
        return v;
    }
}
