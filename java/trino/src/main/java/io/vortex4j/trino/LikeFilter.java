package io.vortex4j.trino;

import java.util.Optional;

/** A {@code column LIKE pattern [ESCAPE escape]} taken from Trino's filter expression. */
public record LikeFilter(VortexColumnHandle column, String pattern, Optional<String> escape) {}
