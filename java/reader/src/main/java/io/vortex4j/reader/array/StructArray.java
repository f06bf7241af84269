package io.vortex4j.reader.array;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.internal.NativeHandle;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A struct column: one child array per field (each a zero-copy view as for flat columns; a
 * dictionary-encoded field stays a {@link VarBinDictArray}) and the struct's own validity. A
 * field's value in a null struct row is unspecified (read {@link #isNull} first).
 */
public final class StructArray extends Array {
    private final List<Array> fields;

    StructArray(NativeHandle owner, DataType type, int length, ByteBuffer validity, List<Array> fields) {
        super(owner, type, length, validity);
        this.fields = List.copyOf(fields);
    }

    /** The field arrays, in the order of {@code type().children()}. */
    public List<Array> fields() {
        return fields;
    }

    /** Field {@code i}. */
    public Array field(int i) {
        return fields.get(i);
    }

    /** The named field; throws {@link io.vortex4j.VortexException} naming it if there is none. */
    public Array field(String name) {
        Schema schema = new Schema(type.children());
        int i = schema.indexOf(name);
        if (i < 0) {
            schema.field(name); // throws, listing the fields
        }
        return fields.get(i);
    }
}
