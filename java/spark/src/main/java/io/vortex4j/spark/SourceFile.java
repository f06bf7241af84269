package io.vortex4j.spark;

import java.io.Serializable;

/** One file of a table as the driver saw it: its path, rows and bytes. */
record SourceFile(String path, long rows, long bytes) implements Serializable {}
