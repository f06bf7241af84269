package io.vortex4j.reader;

import java.util.Objects;

/** A named column of a file: its name, type and whether it may hold nulls. */
public final class Field {
    private final String name;
    private final DataType type;
    private final boolean nullable;

    /** A column description. */
    public Field(String name, DataType type, boolean nullable) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.nullable = nullable;
    }

    /** The column name. */
    public String name() {
        return name;
    }

    /** The column type. */
    public DataType type() {
        return type;
    }

    /** Whether the column may hold nulls. */
    public boolean nullable() {
        return nullable;
    }

    @Override
    public String toString() {
        return name + " " + type + (nullable ? "?" : "");
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Field)) {
            return false;
        }
        Field f = (Field) o;
        return name.equals(f.name) && type.equals(f.type) && nullable == f.nullable;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, nullable);
    }
}
