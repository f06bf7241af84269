package io.vortex4j.calcite.jdbc;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.ProxyingMetadataHandlerProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * Planner metadata (row counts, costs, ...) answered through reflective proxies instead of the
 * handler classes Calcite generates and compiles with Janino on first use: slower per call, but
 * without the compilation that dominates a fresh JVM's first plan. On when the system property
 * {@code vortex4j.interpretedMetadata} is {@code true} (the command line sets it: a one-shot
 * process plans once); off, long-running processes keep Calcite's compiled handlers.
 */
final class InterpretedMetadata {
    private InterpretedMetadata() {}

    private static final boolean ENABLED = Boolean.getBoolean("vortex4j.interpretedMetadata");

    /** Makes {@code cluster} use the reflective handlers when enabled; returns it. */
    static RelOptCluster apply(RelOptCluster cluster) {
        if (ENABLED) {
            ProxyingMetadataHandlerProvider handlers = new ProxyingMetadataHandlerProvider(DefaultRelMetadataProvider.INSTANCE);
            cluster.setMetadataQuerySupplier(() -> new RelMetadataQuery(handlers));
        }
        return cluster;
    }

    /**
     * When enabled, builds a throwaway metadata query: its constructor generates the JDK proxy
     * class of each kind of metadata's handler (the JVM keeps them), ~30 classes a first plan
     * would otherwise generate ({@link PlannerWarmUp}).
     */
    static void warmUp() {
        if (ENABLED) {
            new RelMetadataQuery(new ProxyingMetadataHandlerProvider(DefaultRelMetadataProvider.INSTANCE));
        }
    }
}
