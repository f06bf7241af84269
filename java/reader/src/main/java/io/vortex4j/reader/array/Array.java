package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A column of one chunk: a read-only view over buffers owned by the chunk's native memory (no
 * copy). Valid until the chunk is closed; indexes run from 0 to {@link #length()} - 1.
 *
 * <p>After close. Every accessor that reads the column's values ({@code getLong}, {@code
 * isNull}, {@code getString}, ...) throws {@link IllegalStateException} once the chunk is closed,
 * on any thread: a read on the thread that closed the chunk, or on a thread that observed the
 * close, always throws. A read racing with {@code close()} on another thread either returns the
 * value as it was before the close or throws {@code IllegalStateException}; it never crashes the
 * JVM and never returns a value read from freed memory (each accessor reads, then checks that
 * the chunk was still open, see {@code NativeHandle.checkRead}). {@link #length()}, {@link
 * #type()} and {@link #mayHaveNulls()} read no native memory and keep answering.
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
        checkIndex(i);
        boolean nul = validity != null && !bit(validity, i);
        owner.checkRead();
        return nul;
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
        checkIndex(i);
    }

    /** Throws unless {@code i} is a row of this array. */
    final void checkIndex(int i) {
        if (i < 0 || i >= length) {
            throw new IndexOutOfBoundsException("row " + i + " of an array of " + length + " rows");
        }
    }

    /**
     * Throws unless the chunk was still open after the reads of its memory before this call:
     * every accessor calls it between reading native memory and using what it read.
     */
    final void checkRead() {
        owner.checkRead();
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
