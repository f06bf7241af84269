package io.vortex4j.trino;

import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.session.PropertyMetadata;
import java.util.List;

/** The catalog's session properties. */
final class VortexSessionProperties {
    /** Whether filters, limits, top-n and aggregates are pushed into the reader (default true). */
    static final String PUSHDOWN_ENABLED = "pushdown_enabled";
    /**
     * The most groups a pushed grouped aggregation may form, as the statistics bound them
     * (default 100,000): it runs as one split on one worker, where Trino would spread a larger
     * one over all of them.
     */
    static final String AGGREGATION_PUSHDOWN_MAX_GROUPS = "aggregation_pushdown_max_groups";

    private VortexSessionProperties() {}

    static List<PropertyMetadata<?>> properties() {
        return List.of(PropertyMetadata.booleanProperty(PUSHDOWN_ENABLED,
                "Push filters, limits, top-n and aggregates into the Vortex reader", true, false),
                PropertyMetadata.longProperty(AGGREGATION_PUSHDOWN_MAX_GROUPS,
                        "Most groups (as statistics bound them) of a grouped aggregation pushed into the reader", 100_000L, false));
    }

    static long aggregationPushdownMaxGroups(ConnectorSession session) {
        return session.getProperty(AGGREGATION_PUSHDOWN_MAX_GROUPS, Long.class);
    }

    static boolean pushdown(ConnectorSession session) {
        return session.getProperty(PUSHDOWN_ENABLED, Boolean.class);
    }
}
