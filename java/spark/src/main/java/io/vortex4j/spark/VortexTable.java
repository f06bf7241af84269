package io.vortex4j.spark;

import io.vortex4j.reader.Field;
import io.vortex4j.spark.read.ScanOptions;
import io.vortex4j.spark.read.VortexScanBuilder;
import io.vortex4j.spark.write.PartitionPaths;
import io.vortex4j.spark.write.VortexWriteBuilder;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The Vortex dataset at some locations, as one table: its file columns, then its partition
 * columns (Hive {@code key=value/} folders). Each scan lists the files anew ({@link
 * VortexScanBuilder}), so files appended since the table was loaded are read; the columns must
 * still be the table's. Written through {@link VortexWriteBuilder}, partitioned by {@link
 * #partitioning()}.
 */
final class VortexTable implements SupportsRead, SupportsWrite {
    private final List<String> locations;
    private final StructType schema;
    private final List<String> partitionColumns;

    private VortexTable(List<String> locations, StructType schema, List<String> partitionColumns) {
        this.locations = locations;
        this.schema = schema;
        this.partitionColumns = partitionColumns;
    }

    /**
     * The table at {@code locations}; {@code schema} (null: the files') and {@code partitioning}
     * are what Spark gives for a write or a catalog table (there may be no files yet).
     */
    static VortexTable open(List<String> locations, StructType schema, Transform[] partitioning) {
        if (schema != null) {
            return new VortexTable(locations, schema, PartitionPaths.columns(partitioning, schema));
        }
        Datasets datasets = Datasets.open(locations);
        if (datasets.isEmpty()) {
            throw new IllegalArgumentException("no vortex files at " + String.join(", ", locations)
                    + ": cannot infer a schema");
        }
        return new VortexTable(locations, SparkTypes.toSpark(datasets.schema(), locations.get(0)),
                datasets.partitionColumns().stream().map(Field::name).toList());
    }

    @Override
    public String name() {
        return "vortex " + String.join(", ", locations);
    }

    @Override
    public StructType schema() {
        return schema;
    }

    /** The partition columns, as identity transforms. */
    @Override
    public Transform[] partitioning() {
        return partitionColumns.stream().map(Expressions::identity).toArray(Transform[]::new);
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.TRUNCATE);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        ScanOptions scanOptions = ScanOptions.of(options); // applies the store properties before listing
        Datasets datasets = Datasets.open(locations);
        if (!datasets.isEmpty()) {
            StructType files = SparkTypes.toSpark(datasets.schema(), locations.get(0));
            if (!sameColumns(files, schema)) {
                throw new IllegalStateException(name() + ": the files now have the columns " + files.simpleString()
                        + ", not the table's " + schema.simpleString());
            }
        }
        return new VortexScanBuilder(datasets, schema, scanOptions);
    }

    private static boolean sameColumns(StructType a, StructType b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            StructField x = a.fields()[i];
            StructField y = b.fields()[i];
            if (!x.name().equals(y.name()) || !x.dataType().equals(y.dataType())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        if (locations.size() != 1 || SourceFiles.isGlob(locations.get(0))) {
            throw new IllegalArgumentException("a vortex write goes to one folder, not " + locations);
        }
        String location = locations.get(0);
        return new VortexWriteBuilder(io.vortex4j.reader.Stores.isRemote(location) ? location : Datasets.localPath(location),
                info, partitionColumns);
    }
}
