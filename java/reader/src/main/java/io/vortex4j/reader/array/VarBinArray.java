package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A column of variable-length values (utf8 or binary): i32 start offsets ({@code length + 1} of
 * them) into one byte buffer. Row {@code i} is bytes {@code offset(i)} to {@code offset(i + 1)}.
 */
public final class VarBinArray extends Array {
    final ByteBuffer offsets;
    final ByteBuffer data;

    VarBinArray(NativeHandle owner, DataType type, int length, ByteBuffer validity,
            ByteBuffer offsets, ByteBuffer data) {
        super(owner, type, length, validity);
        this.offsets = offsets;
        this.data = data;
    }

    /** The bytes of row {@code i}, or null for a null row. */
    public byte[] getBytes(int i) {
        return isNull(i) ? null : bytesUnchecked(i);
    }

    /** Row {@code i} decoded as UTF-8, or null for a null row. */
    public String getString(int i) {
        byte[] bytes = getBytes(i);
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** The byte length of row {@code i} (0 for a null row). */
    public int byteLength(int i) {
        checkIndex(i);
        int n = offsets.getInt((i + 1) << 2) - offsets.getInt(i << 2);
        checkRead();
        return n;
    }

    /** The bytes of row {@code i}, a row of this array, null or not. */
    byte[] bytesUnchecked(int i) {
        int start = offsets.getInt(i << 2);
        int end = offsets.getInt((i + 1) << 2);
        // Offsets read after a close may be anything: check before sizing and copying by them.
        checkRead();
        byte[] out = new byte[end - start];
        data.get(start, out);
        checkRead();
        return out;
    }
}
