package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;

/** A column of i16 values. */
public final class Int16Array extends Array {
    final ByteBuffer values;

    Int16Array(NativeHandle owner, DataType type, int length, ByteBuffer validity, ByteBuffer values) {
        super(owner, type, length, validity);
        this.values = values;
    }

    /** The value of row {@code i} (unspecified for a null row). */
    public short getShort(int i) {
        checkIndex(i);
        short v = values.getShort(i << 1);
        checkRead();
        return v;
    }
}
