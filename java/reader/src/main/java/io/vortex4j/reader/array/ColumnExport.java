package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Turns the native export of a column ({@code Native.exportColumn}) into an {@link Array} view.
 *
 * <p>The export is {@code Object[]{long[] header, ByteBuffer validity, ByteBuffer values,
 * ByteBuffer offsets, ByteBuffer data, Object[] dictionary, Object[] children}}, with {@code
 * header = {layout, length, codeWidth, dictionaryId}}: layout 0 is a plain Arrow-style column, 1
 * a dictionary (values = codes, dictionary = the nested export of the entries). A struct's
 * children are its fields' exports, a list's the one export of its elements (list offsets in
 * {@code offsets}). Absent buffers are null.
 *
 * <p>Public for the reader's own packages; not a user API.
 */
public final class ColumnExport {
    static final int PLAIN = 0;
    static final int DICTIONARY = 1;

    private ColumnExport() {}

    /**
     * Builds the view. {@code dictionaries} supplies the shared decoded-string cache for a
     * dictionary id.
     */
    public static Array toArray(NativeHandle owner, Field field, Object[] export,
            LongFunction<DictionaryStrings> dictionaries) {
        long[] header = (long[]) export[0];
        int length = Math.toIntExact(header[1]);
        ByteBuffer validity = buffer(export[1]);
        Sizes sizes = new Sizes(owner, field, length);
        sizes.bits("validity", validity);
        if (header[0] == DICTIONARY) {
            VarBinDictArray.Dictionary d = dictionary(owner, field, (Object[]) export[5], dictionaries);
            int width = (int) header[2];
            ByteBuffer codes = nonNull(export[2]);
            sizes.need("codes", codes, (long) length * width);
            return new VarBinDictArray(owner, field.type(), length, validity, codes, width, d.entries(), d.strings());
        }
        DataType type = field.type();
        if (type.kind().isNested()) {
            return nested(owner, field, export, sizes, validity, dictionaries);
        }
        ByteBuffer values = nonNull(export[2]);
        sizes.values(type.kind(), values);
        switch (type.kind()) {
            case NULL:
                return new NullArray(owner, length);
            case BOOL:
                return new BoolArray(owner, type, length, validity, values);
            case INT8:
                return new Int8Array(owner, type, length, validity, values);
            case INT16:
                return new Int16Array(owner, type, length, validity, values);
            case INT32:
            case DATE:
                return new Int32Array(owner, type, length, validity, values);
            case INT64:
            case TIME:
            case TIMESTAMP:
                return new Int64Array(owner, type, length, validity, values);
            case UINT8:
                return new UInt8Array(owner, type, length, validity, values);
            case UINT16:
                return new UInt16Array(owner, type, length, validity, values);
            case UINT32:
                return new UInt32Array(owner, type, length, validity, values);
            case UINT64:
                return new UInt64Array(owner, type, length, validity, values);
            case FLOAT16:
            case FLOAT32:
                return new Float32Array(owner, type, length, validity, values);
            case FLOAT64:
                return new Float64Array(owner, type, length, validity, values);
            case UTF8:
            case BINARY:
                return varBin(sizes, type, validity, nonNull(export[3]), nonNull(export[4]));
            case DECIMAL:
                return new DecimalArray(owner, type, length, validity, values);
            default:
                throw new UnsupportedOperationException(
                        "column '" + field.name() + "' has dtype " + type + ", which vortex4j does not read");
        }
    }

    private static Array nested(NativeHandle owner, Field field, Object[] export, Sizes sizes, ByteBuffer validity,
            LongFunction<DictionaryStrings> dictionaries) {
        DataType type = field.type();
        Object[] children = export.length > 6 && export[6] != null ? (Object[]) export[6] : new Object[0];
        if (children.length != type.children().size()) {
            throw sizes.corrupt(children.length + " child arrays for " + type.children().size() + " children");
        }
        List<Array> arrays = new ArrayList<>();
        for (int i = 0; i < children.length; i++) {
            Field f = type.children().get(i);
            arrays.add(toArray(owner, new Field(field.name() + "." + f.name(), f.type(), f.nullable()),
                    (Object[]) children[i], dictionaries));
        }
        int length = sizes.length;
        switch (type.kind()) {
            case STRUCT:
                for (Array a : arrays) {
                    if (a.length() != length) {
                        throw sizes.corrupt("a field of " + a.length() + " rows in a struct of " + length);
                    }
                }
                return new StructArray(owner, type, length, validity, arrays);
            case LIST: {
                ByteBuffer offsets = nonNull(export[3]);
                sizes.need("offsets", offsets, (length + 1L) * 4);
                Array elements = arrays.get(0);
                int last = length == 0 ? 0 : offsets.getInt(4 * length);
                if (last > elements.length()) {
                    throw sizes.corrupt("list offsets reach " + last + " of " + elements.length() + " elements");
                }
                return new ListArray(owner, type, length, validity, offsets, elements);
            }
            default: {
                Array elements = arrays.get(0);
                if (elements.length() != (long) length * type.listSize()) {
                    throw sizes.corrupt(elements.length() + " elements for " + length + " lists of " + type.listSize());
                }
                return new FixedSizeListArray(owner, type, length, validity, elements);
            }
        }
    }

    /** A dictionary's entries (a plain export whose header carries the dictionary id). */
    public static VarBinDictArray.Dictionary dictionary(NativeHandle owner, Field field, Object[] export,
            LongFunction<DictionaryStrings> dictionaries) {
        long[] header = (long[]) export[0];
        Sizes sizes = new Sizes(owner, field, Math.toIntExact(header[1]));
        ByteBuffer validity = buffer(export[1]);
        sizes.bits("dictionary validity", validity);
        VarBinArray entries = varBin(sizes, field.type(), validity, nonNull(export[3]), nonNull(export[4]));
        long id = header[3];
        DictionaryStrings strings = dictionaries.apply(id);
        if (strings == null || strings.size() != entries.length()) {
            strings = new DictionaryStrings(id, entries.length());
        }
        return new VarBinDictArray.Dictionary(entries, strings);
    }

    private static VarBinArray varBin(Sizes sizes, DataType type, ByteBuffer validity, ByteBuffer offsets,
            ByteBuffer data) {
        sizes.need("offsets", offsets, (sizes.length + 1L) * 4);
        return new VarBinArray(sizes.owner, type, sizes.length, validity, offsets, data);
    }

    /**
     * Checks that each buffer holds what {@code length} rows need, so no accessor can index past
     * one (the native side validates codes and offsets; this guards the shape of the export).
     */
    private record Sizes(NativeHandle owner, Field field, int length) {
        void bits(String what, ByteBuffer b) {
            if (b != null) {
                need(what, b, (length + 7L) / 8);
            }
        }

        void values(DataType.Kind kind, ByteBuffer b) {
            switch (kind) {
                case BOOL -> need("values", b, (length + 7L) / 8);
                case INT8, UINT8 -> need("values", b, length);
                case INT16, UINT16 -> need("values", b, 2L * length);
                case INT32, UINT32, DATE, FLOAT16, FLOAT32 -> need("values", b, 4L * length);
                case INT64, UINT64, TIME, TIMESTAMP, FLOAT64 -> need("values", b, 8L * length);
                case DECIMAL -> need("values", b, 16L * length);
                default -> { }
            }
        }

        void need(String what, ByteBuffer b, long bytes) {
            if (b.capacity() < bytes) {
                throw corrupt(what + " hold " + b.capacity() + " bytes, " + length + " rows need " + bytes);
            }
        }

        io.vortex4j.VortexException corrupt(String what) {
            return new io.vortex4j.VortexException(owner.what() + ": column '" + field.name() + "': corrupt data: " + what);
        }
    }

    private static ByteBuffer buffer(Object o) {
        return o == null ? null : ((ByteBuffer) o).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static ByteBuffer nonNull(Object o) {
        return o == null ? Array.EMPTY : buffer(o);
    }
}
