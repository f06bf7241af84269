package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;

/** A column of f64 values. */
public final class Float64Array extends Array {
    final ByteBuffer values;

    Float64Array(NativeHandle owner, DataType type, int length, ByteBuffer validity, ByteBuffer values) {
        super(owner, type, length, validity);
        this.values = values;
    }

    /** The value of row {@code i} (unspecified for a null row). */
    public double getDouble(int i) {
        checkIndex(i);
        double v = values.getDouble(i << 3);
        checkRead();
        return v;
    }
}
