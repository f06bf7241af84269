package io.vortex4j.calcite.jdbc;

import java.util.List;
import java.util.ServiceLoader;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rel.RelRoot;

/**
 * A native engine for {@code engine=native} connections, found with {@link ServiceLoader} (the
 * {@code engine} module provides one): it takes a statement's logical plan and runs it, or
 * declines it, and Calcite runs it.
 */
public interface NativeExecution {
    /**
     * The native plan of {@code root} (a validated logical plan, sub-queries not yet removed), or
     * a {@link Plan} that declines it with the reason.
     */
    Plan plan(RelRoot root, CalcitePrepare.Context context);

    /** A statement planned for the native engine. */
    interface Plan {
        /** Why the native engine declines the statement, or null when it runs it. */
        String declined();

        /**
         * Runs the statement: its rows in Calcite's representation (an {@code Object[]} per row,
         * or the value itself when there is one column), stopped by the statement's cancel flag
         * and timeout in {@code root}.
         */
        Enumerable<Object> execute(DataContext root);

        /** The native plan, an operator per line. */
        List<String> explain();
    }

    /** The engine on the class path, or null. */
    static NativeExecution find() {
        return Holder.ENGINE;
    }

    /** Loaded once. */
    final class Holder {
        private static final NativeExecution ENGINE =
                ServiceLoader.load(NativeExecution.class).findFirst().orElse(null);

        private Holder() {}
    }
}
