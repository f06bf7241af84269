package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;

/** A column of f32 values (f16 columns are widened to f32). */
public final class Float32Array extends Array {
    final ByteBuffer values;

    Float32Array(NativeHandle owner, DataType type, int length, ByteBuffer validity, ByteBuffer values) {
        super(owner, type, length, validity);
        this.values = values;
    }

    /** The value of row {@code i} (unspecified for a null row). */
    public float getFloat(int i) {
        checkIndex(i);
        float v = values.getFloat(i << 2);
        checkRead();
        return v;
    }
}
