package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;

/** A column of u8 values, widened to int (0..255). */
public final class UInt8Array extends Array {
    final ByteBuffer values;

    UInt8Array(NativeHandle owner, DataType type, int length, ByteBuffer validity, ByteBuffer values) {
        super(owner, type, length, validity);
        this.values = values;
    }

    /** The value of row {@code i} (unspecified for a null row). */
    public int getInt(int i) {
        checkIndex(i);
        int v = Byte.toUnsignedInt(values.get(i));
        checkRead();
        return v;
    }
}
