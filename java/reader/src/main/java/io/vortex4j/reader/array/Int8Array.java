package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;

/** A column of i8 values. */
public final class Int8Array extends Array {
    final ByteBuffer values;

    Int8Array(NativeHandle owner, DataType type, int length, ByteBuffer validity, ByteBuffer values) {
        super(owner, type, length, validity);
        this.values = values;
    }

    /** The value of row {@code i} (unspecified for a null row). */
    public byte getByte(int i) {
        checkIndex(i);
        byte v = values.get(i);
        checkRead();
        return v;
    }
}
