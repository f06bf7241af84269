package io.vortex4j.trino;

import io.trino.spi.ErrorCode;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.ErrorType;
import io.trino.spi.TrinoException;
import java.util.function.Supplier;

/** The connector's error codes, and reader failures as Trino errors naming the file. */
enum Errors implements ErrorCodeSupplier {
    /** A file could not be read (damaged, changed since planning, unreadable column). */
    VORTEX_READ_ERROR(0, ErrorType.EXTERNAL),
    /** A file could not be written or committed. */
    VORTEX_WRITE_ERROR(1, ErrorType.EXTERNAL);

    private final ErrorCode code;

    Errors(int code, ErrorType type) {
        this.code = new ErrorCode(code + 0x0564_0000, name(), type);
    }

    @Override
    public ErrorCode toErrorCode() {
        return code;
    }

    /** Runs {@code work}; a reader failure becomes a {@link TrinoException} that names {@code path}. */
    static <T> T reading(String path, Supplier<T> work) {
        try {
            return work.get();
        } catch (TrinoException e) {
            throw e;
        } catch (RuntimeException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new TrinoException(VORTEX_READ_ERROR, message.contains(path) ? message : path + ": " + message, e);
        }
    }
}
