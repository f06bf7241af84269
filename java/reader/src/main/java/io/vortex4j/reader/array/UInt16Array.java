package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;

/** A column of u16 values, widened to int (0..65535). */
public final class UInt16Array extends Array {
    final ByteBuffer values;

    UInt16Array(NativeHandle owner, DataType type, int length, ByteBuffer validity, ByteBuffer values) {
        super(owner, type, length, validity);
        this.values = values;
    }

    /** The value of row {@code i} (unspecified for a null row). */
    public int getInt(int i) {
        checkIndex(i);
        int v = Short.toUnsignedInt(values.getShort(i << 1));
        checkRead();
        return v;
    }
}
