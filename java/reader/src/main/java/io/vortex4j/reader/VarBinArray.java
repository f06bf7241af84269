package io.vortex4j.reader;

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
        if (isNull(i)) {
            return null;
        }
        return bytesUnchecked(i);
    }

    /** Row {@code i} decoded as UTF-8, or null for a null row. */
    public String getString(int i) {
        byte[] bytes = getBytes(i);
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** The byte length of row {@code i} (0 for a null row). */
    public int byteLength(int i) {
        check(i);
        return offsets.getInt((i + 1) << 2) - offsets.getInt(i << 2);
    }

    byte[] bytesUnchecked(int i) {
        int start = offsets.getInt(i << 2);
        int end = offsets.getInt((i + 1) << 2);
        byte[] out = new byte[end - start];
        data.get(start, out);
        return out;
    }
}
