package io.vortex4j.trino;

import io.trino.spi.connector.ConnectorSplit;

/** The one split of a pushed aggregation: the worker aggregates the whole dataset at {@code location}. */
public record AggregateSplit(String location) implements ConnectorSplit {
    @Override
    public long getRetainedSizeInBytes() {
        return 32L + location.length() * 2L;
    }
}
