package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;

/** A column of booleans, stored as LSB-first bits. */
public final class BoolArray extends Array {
    final ByteBuffer bits;

    BoolArray(NativeHandle owner, DataType type, int length, ByteBuffer validity, ByteBuffer bits) {
        super(owner, type, length, validity);
        this.bits = bits;
    }

    /** The value of row {@code i} (unspecified for a null row). */
    public boolean getBoolean(int i) {
        checkIndex(i);
        boolean v = bit(bits, i);
        checkRead();
        return v;
    }
}
