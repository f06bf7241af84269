package io.vortex4j.reader.array;

import io.vortex4j.reader.predicate.Predicate;

import java.util.Arrays;

/** An immutable byte string: the form binary literals take in a {@link Predicate}. */
public final class Binary implements Comparable<Binary> {
    private final byte[] bytes;

    /** A copy of {@code bytes}. */
    public Binary(byte[] bytes) {
        this.bytes = bytes.clone();
    }

    /** A copy of the bytes. */
    public byte[] toByteArray() {
        return bytes.clone();
    }

    byte[] bytes() {
        return bytes;
    }

    /** {@code value} compared with these bytes in unsigned lexicographic order (no copy). */
    public int compareBytes(byte[] value) {
        return java.util.Arrays.compareUnsigned(value, bytes);
    }

    /** Unsigned lexicographic order, as vortex compares binary values. */
    @Override
    public int compareTo(Binary o) {
        return Arrays.compareUnsigned(bytes, o.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Binary && Arrays.equals(bytes, ((Binary) o).bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("X'");
        for (byte b : bytes) {
            sb.append(String.format("%02X", b));
        }
        return sb.append('\'').toString();
    }
}
