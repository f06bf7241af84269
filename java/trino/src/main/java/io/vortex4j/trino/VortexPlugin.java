package io.vortex4j.trino;

import io.trino.spi.Plugin;
import io.trino.spi.connector.ConnectorFactory;
import java.util.List;

/** The Trino plugin: one connector, {@code vortex}, over a folder of Vortex files. */
public final class VortexPlugin implements Plugin {
    @Override
    public Iterable<ConnectorFactory> getConnectorFactories() {
        return List.of(new VortexConnectorFactory());
    }
}
