package io.vortex4j.spark.read;

import io.vortex4j.reader.dataset.Split;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * An input partition: consecutive splits of the dataset (chunk-aligned row ranges), read one
 * after the other by one task; for an aggregate, the splits of one file. Serialized to the
 * executor, which takes each file from its {@link OpenFiles} (opening it on first use) after
 * checking it is unchanged.
 */
record SplitPartition(List<Split> splits) implements InputPartition {
    SplitPartition {
        splits = List.copyOf(splits);
    }
}
