package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;

/**
 * A dictionary-encoded utf8 or binary column, kept encoded: one unsigned code per row (1, 2 or 4
 * bytes wide) indexing a {@link VarBinArray} of distinct values.
 *
 * <p>A row is null when its code is null, or when its code points at a null dictionary entry.
 * {@link #getString} decodes each distinct entry at most once (per dictionary, across the chunks
 * of a scan that share it).
 */
public final class VarBinDictArray extends Array {
    final ByteBuffer codes;
    final int codeWidth;
    final VarBinArray dictionary;
    final DictionaryStrings strings;

    VarBinDictArray(NativeHandle owner, DataType type, int length, ByteBuffer codeValidity,
            ByteBuffer codes, int codeWidth, VarBinArray dictionary, DictionaryStrings strings) {
        super(owner, type, length, codeValidity);
        this.codes = codes;
        this.codeWidth = codeWidth;
        this.dictionary = dictionary;
        this.strings = strings;
    }

    /** The dictionary: the distinct values the codes point at. */
    public VarBinArray dictionary() {
        return dictionary;
    }

    /** Bytes per code: 1, 2 or 4. */
    public int codeWidth() {
        return codeWidth;
    }

    /** The code of row {@code i}; unspecified when the code itself is null. */
    public int getCode(int i) {
        checkIndex(i);
        int code = codeUnchecked(i);
        checkRead();
        return code;
    }

    /** True when the code of row {@code i} is null (a null row whatever the dictionary holds). */
    public boolean isCodeNull(int i) {
        checkIndex(i);
        boolean nul = isCodeNullUnchecked(i);
        checkRead();
        return nul;
    }

    @Override
    public boolean isNull(int i) {
        int code = validCode(i);
        return code < 0 || dictionary.isNull(code);
    }

    @Override
    public boolean mayHaveNulls() {
        return validity != null || dictionary.validity != null;
    }

    /** Row {@code i} as a String (utf8 columns), or null for a null row. */
    public String getString(int i) {
        int code = validCode(i);
        return code < 0 ? null : strings.get(dictionary, code);
    }

    /** The bytes of row {@code i}, or null for a null row. */
    public byte[] getBytes(int i) {
        int code = validCode(i);
        return code < 0 ? null : dictionary.getBytes(code);
    }

    /**
     * The code of row {@code i}, or -1 when it is null; checked, so an entry of the dictionary
     * (codes are checked against it when the chunk is exported).
     */
    private int validCode(int i) {
        checkIndex(i);
        int code = validCodeUnchecked(i);
        checkRead();
        return code;
    }

    /** {@link #validCode} without the checks: the caller checks the read. */
    int validCodeUnchecked(int i) {
        return isCodeNullUnchecked(i) ? -1 : codeUnchecked(i);
    }

    private boolean isCodeNullUnchecked(int i) {
        return validity != null && !bit(validity, i);
    }

    /** The raw code of row {@code i}: the caller checks the read (see {@link Array#checkRead}). */
    int codeUnchecked(int i) {
        switch (codeWidth) {
            case 1:
                return Byte.toUnsignedInt(codes.get(i));
            case 2:
                return Short.toUnsignedInt(codes.getShort(i << 1));
            default:
                return codes.getInt(i << 2);
        }
    }

    /** A dictionary on its own: the entries and their decoded-string cache. */
    public record Dictionary(VarBinArray entries, DictionaryStrings strings) {
        /** Entry {@code code} as a Java value (String or byte[]), or null for a null entry. */
        public Object value(int code) {
            if (entries.type().kind() == DataType.Kind.UTF8) {
                return strings.get(entries, code);
            }
            return entries.getBytes(code);
        }
    }

    /** The decoded-string cache of this column's dictionary. */
    public DictionaryStrings strings() {
        return strings;
    }
}
