package io.vortex4j.spark.read;

import io.vortex4j.VortexException;
import java.util.function.Supplier;

/** Reader failures on an executor, rethrown so the Spark job failure names the file. */
final class Errors {
    private Errors() {}

    /** Runs {@code action}; a reader exception that does not name {@code path} gets it prepended. */
    static <T> T naming(String path, Supplier<T> action) {
        try {
            return action.get();
        } catch (VortexException | UnsupportedOperationException | IllegalStateException | IllegalArgumentException e) {
            String message = String.valueOf(e.getMessage());
            if (message.contains(path)) {
                throw e;
            }
            throw new VortexException(path + ": " + message, e);
        }
    }
}
