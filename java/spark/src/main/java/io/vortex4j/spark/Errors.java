package io.vortex4j.spark;

import io.vortex4j.VortexException;
import java.util.function.Supplier;

/** Reader failures on an executor, rethrown so the Spark job failure names the file. */
final class Errors {
    private Errors() {}

    /** Runs {@code action}; a reader exception that does not name the file gets its path. */
    static <T> T naming(SourceFile file, Supplier<T> action) {
        try {
            return action.get();
        } catch (VortexException | UnsupportedOperationException | IllegalStateException e) {
            String message = String.valueOf(e.getMessage());
            if (message.contains(file.path())) {
                throw e;
            }
            throw new VortexException(file.path() + ": " + message, e);
        }
    }
}
