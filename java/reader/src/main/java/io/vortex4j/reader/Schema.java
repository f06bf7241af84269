package io.vortex4j.reader;

import io.vortex4j.VortexException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** The columns of a file or scan, in order. */
public final class Schema {
    private final List<Field> fields;

    /** A schema of the given columns; names must be distinct. */
    public Schema(List<Field> fields) {
        this.fields = Collections.unmodifiableList(new ArrayList<>(fields));
        for (int i = 0; i < fields.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (fields.get(i).name().equals(fields.get(j).name())) {
                    throw new IllegalArgumentException("duplicate column name " + fields.get(i).name());
                }
            }
        }
    }

    /** A schema of the given columns. */
    public static Schema of(Field... fields) {
        return new Schema(Arrays.asList(fields));
    }

    /** The columns. */
    public List<Field> fields() {
        return fields;
    }

    /** The number of columns. */
    public int size() {
        return fields.size();
    }

    /** Column {@code i}. */
    public Field field(int i) {
        return fields.get(i);
    }

    /** The position of the named column, or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The named column; throws {@link VortexException} naming it if there is none. */
    public Field field(String name) {
        int i = indexOf(name);
        if (i < 0) {
            throw new VortexException("unknown column '" + name + "'; columns are " + names());
        }
        return fields.get(i);
    }

    /**
     * A column, or a field of a struct column named by its dotted path ({@code "st.x"}, {@code
     * "st.inner.z"}), as a scan of that name yields it: named {@code path}, nullable when it or an
     * enclosing struct is (a null struct's fields read as null). A column whose own name contains
     * the dots wins. Throws {@link VortexException} naming the path and what is missing.
     */
    public Field resolve(String path) {
        int i = indexOf(path);
        if (i >= 0) {
            return fields.get(i);
        }
        String[] parts = path.split("\\.", -1);
        if (parts.length == 1 || indexOf(parts[0]) < 0) {
            return field(path);
        }
        Field f = fields.get(indexOf(parts[0]));
        boolean nullable = f.nullable();
        String prefix = parts[0];
        for (int p = 1; p < parts.length; p++) {
            if (f.type().kind() != DataType.Kind.STRUCT) {
                throw new VortexException("unknown column '" + path + "': '" + prefix + "' is " + f.type()
                        + ", not a struct");
            }
            Schema children = new Schema(f.type().children());
            if (children.indexOf(parts[p]) < 0) {
                throw new VortexException("unknown column '" + path + "': struct '" + prefix + "' has no field '"
                        + parts[p] + "'; its fields are " + children.names());
            }
            f = children.field(parts[p]);
            nullable |= f.nullable();
            prefix = prefix + "." + parts[p];
        }
        return new Field(path, f.type(), nullable);
    }

    /** The column names in order. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        for (Field f : fields) {
            names.add(f.name());
        }
        return names;
    }

    /** Decodes the schema encoding of the native library (see {@code Native.schema}). */
    static Schema fromNative(Object[] encoded) {
        String[] names = (String[]) encoded[0];
        int[] codes = (int[]) encoded[1];
        boolean[] nullable = (boolean[]) encoded[2];
        int[] p1 = (int[]) encoded[3];
        int[] p2 = (int[]) encoded[4];
        String[] tz = (String[]) encoded[5];
        String[] text = (String[]) encoded[6];
        Object[] children = encoded.length > 7 ? (Object[]) encoded[7] : new Object[names.length];
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            List<Field> nested = children[i] == null ? List.of() : fromNative((Object[]) children[i]).fields();
            fields.add(new Field(names[i], DataType.fromNative(codes[i], p1[i], p2[i], tz[i], text[i], nested), nullable[i]));
        }
        return new Schema(fields);
    }

    /** Encodes the schema for the native library (see {@code Native.schema}). */
    public Object[] toNative() {
        int n = fields.size();
        String[] names = new String[n];
        int[] codes = new int[n];
        boolean[] nullable = new boolean[n];
        int[] p1 = new int[n];
        int[] p2 = new int[n];
        String[] tz = new String[n];
        String[] text = new String[n];
        Object[] nested = new Object[n];
        for (int i = 0; i < n; i++) {
            Field f = fields.get(i);
            names[i] = f.name();
            codes[i] = f.type().kind().code();
            nullable[i] = f.nullable();
            p1[i] = f.type().param1();
            p2[i] = f.type().param2();
            tz[i] = f.type().timezone();
            text[i] = f.type().toString();
            // A struct's fields, a list's element, encoded the same way.
            nested[i] = f.type().children().isEmpty() ? null : new Schema(f.type().children()).toNative();
        }
        return new Object[] {names, codes, nullable, p1, p2, tz, text, nested};
    }

    @Override
    public String toString() {
        return fields.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Schema && fields.equals(((Schema) o).fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }
}
