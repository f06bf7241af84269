package io.vortex4j.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/** An input partition: one whole file. */
record FilePartition(SourceFile file) implements InputPartition {}
