package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;

/** A column of the null type: every row is null. */
public final class NullArray extends Array {
    NullArray(NativeHandle owner, int length) {
        super(owner, DataType.NULL, length, null);
    }

    @Override
    public boolean isNull(int i) {
        check(i);
        return true; // no memory read: the open check is enough
    }

    @Override
    public boolean mayHaveNulls() {
        return length > 0;
    }
}
