package io.vortex4j.trino;

import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.session.PropertyMetadata;
import java.util.List;

/** The catalog's session properties. */
final class VortexSessionProperties {
    /** Whether filters, limits, top-n and aggregates are pushed into the reader (default true). */
    static final String PUSHDOWN_ENABLED = "pushdown_enabled";

    private VortexSessionProperties() {}

    static List<PropertyMetadata<?>> properties() {
        return List.of(PropertyMetadata.booleanProperty(PUSHDOWN_ENABLED,
                "Push filters, limits, top-n and aggregates into the Vortex reader", true, false));
    }

    static boolean pushdown(ConnectorSession session) {
        return session.getProperty(PUSHDOWN_ENABLED, Boolean.class);
    }
}
