package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;

/**
 * A list column: {@code length + 1} i32 offsets into one element array (of any type, nested
 * ones too). Row {@code i} holds elements {@code offset(i) .. offset(i + 1) - 1}; an empty list
 * and a null list both have no elements (tell them apart with {@link #isNull}).
 */
public final class ListArray extends Array {
    private final ByteBuffer offsets;
    private final Array elements;

    ListArray(NativeHandle owner, DataType type, int length, ByteBuffer validity, ByteBuffer offsets, Array elements) {
        super(owner, type, length, validity);
        this.offsets = offsets;
        this.elements = elements;
    }

    /** Every row's elements, in row order. */
    public Array elements() {
        return elements;
    }

    /** The index in {@link #elements()} of row {@code i}'s first element; {@code i} may be length. */
    public int offset(int i) {
        if (i != length) {
            checkIndex(i);
        }
        int o = offsets.getInt(4 * i);
        checkRead();
        return o;
    }

    /** The number of elements of row {@code i} (0 for a null row). */
    public int size(int i) {
        checkIndex(i);
        int n = offsets.getInt(4 * (i + 1)) - offsets.getInt(4 * i);
        checkRead();
        return n;
    }
}
