package io.vortex4j.reader;

import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A column of one chunk: a read-only view over buffers owned by the chunk's native memory (no
 * copy). Valid until the chunk is closed; every access after that throws {@link
 * IllegalStateException}. Indexes run from 0 to {@link #length()} - 1.
 */
public abstract class Array {
    static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0).order(ByteOrder.LITTLE_ENDIAN);

    final NativeHandle owner;
    final DataType type;
    final int length;
    /** LSB-first validity bits, or null when every row is valid. */
    final ByteBuffer validity;

    Array(NativeHandle owner, DataType type, int length, ByteBuffer validity) {
        this.owner = owner;
        this.type = type;
        this.length = length;
        this.validity = validity;
    }

    /** The number of rows. */
    public final int length() {
        return length;
    }

    /** The column's type. */
    public final DataType type() {
        return type;
    }

    /** True when row {@code i} is null. */
    public boolean isNull(int i) {
        check(i);
        return validity != null && !bit(validity, i);
    }

    /** True when row {@code i} is not null. */
    public final boolean isValid(int i) {
        return !isNull(i);
    }

    /** True when some row may be null (false guarantees none is). */
    public boolean mayHaveNulls() {
        return validity != null;
    }

    /** Throws unless the chunk is open and {@code i} is a row of this array. */
    final void check(int i) {
        owner.checkOpen();
        if (i < 0 || i >= length) {
            throw new IndexOutOfBoundsException("row " + i + " of an array of " + length + " rows");
        }
    }

    /** Throws unless the chunk is open. */
    final void checkOpen() {
        owner.checkOpen();
    }

    static boolean bit(ByteBuffer bits, int i) {
        return (bits.get(i >>> 3) & (1 << (i & 7))) != 0;
    }

    /** The handle of the chunk that owns this array's memory. */
    final NativeHandle owner() {
        return owner;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + type + ", " + length + " rows]";
    }
}
