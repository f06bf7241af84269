package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;

/**
 * A fixed-size list column: row {@code i} holds elements {@code i * listSize() .. (i + 1) *
 * listSize() - 1} of one element array (a null row still occupies its slots).
 */
public final class FixedSizeListArray extends Array {
    private final Array elements;

    FixedSizeListArray(NativeHandle owner, DataType type, int length, ByteBuffer validity, Array elements) {
        super(owner, type, length, validity);
        this.elements = elements;
    }

    /** Every row's elements, in row order. */
    public Array elements() {
        return elements;
    }

    /** Elements per row. */
    public int listSize() {
        return type.listSize();
    }
}
