package io.vortex4j;

/**
 * An error reported by the native Vortex library or by the reader: a file that cannot be opened
 * or decoded, an unknown column, a predicate that does not fit a column's type. The message names
 * the file or column and the cause.
 */
public class VortexException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates an exception with the given message. */
    public VortexException(String message) {
        super(message);
    }

    /** Creates an exception with the given message and cause. */
    public VortexException(String message, Throwable cause) {
        super(message, cause);
    }
}
