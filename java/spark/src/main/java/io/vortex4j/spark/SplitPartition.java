package io.vortex4j.spark;

import io.vortex4j.reader.Split;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * An input partition: one split of the dataset (a chunk-aligned row range of one file), or with
 * {@code wholeFile} the whole file of that split, for an aggregate the reader computes per file.
 * Serialized to the executor, which reopens the file by path and checks it is unchanged.
 */
record SplitPartition(Split split, boolean wholeFile) implements InputPartition {}
