package io.vortex4j.spark;

import io.vortex4j.reader.Schema;
import io.vortex4j.reader.VortexFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The Vortex files at some locations, as one table: the columns of its files (every file must
 * have the same columns, else the error names the first that differs), read through {@link
 * VortexScanBuilder} and written through {@link VortexWriteBuilder}.
 */
final class VortexTable implements SupportsRead, SupportsWrite {
    private final List<String> locations;
    private final List<SourceFile> files;
    private final Schema fileSchema;
    private final StructType schema;

    private VortexTable(List<String> locations, List<SourceFile> files, Schema fileSchema, StructType schema) {
        this.locations = locations;
        this.files = files;
        this.fileSchema = fileSchema;
        this.schema = schema;
    }

    /**
     * The table at {@code locations}; {@code schema} (null: the files') is the schema Spark gives
     * for a write or a catalog table, used when there are no files yet.
     */
    static VortexTable open(List<String> locations, StructType schema) {
        List<Path> paths = new ArrayList<>();
        for (String location : locations) {
            paths.addAll(SourceFiles.list(location));
        }
        if (paths.isEmpty()) {
            if (schema == null) {
                throw new IllegalArgumentException("no vortex files at " + String.join(", ", locations)
                        + ": cannot infer a schema");
            }
            return new VortexTable(locations, List.of(), null, schema);
        }
        List<SourceFile> files = new ArrayList<>();
        Schema first = null;
        for (Path p : paths) {
            try (VortexFile f = VortexFile.open(p)) {
                if (first == null) {
                    first = f.schema();
                } else if (!first.equals(f.schema())) {
                    throw new IllegalArgumentException(p + ": schema " + f.schema() + " differs from "
                            + first + " of " + paths.get(0));
                }
                files.add(new SourceFile(p.toString(), f.rowCount(), p.toFile().length()));
            }
        }
        return new VortexTable(locations, files, first, SparkTypes.toSpark(first, paths.get(0)));
    }

    @Override
    public String name() {
        return "vortex " + String.join(", ", locations);
    }

    @Override
    public StructType schema() {
        return schema;
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.TRUNCATE);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return new VortexScanBuilder(files, fileSchema, schema);
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        if (locations.size() != 1 || SourceFiles.isGlob(locations.get(0))) {
            throw new IllegalArgumentException("a vortex write goes to one folder, not " + locations);
        }
        return new VortexWriteBuilder(locations.get(0), info);
    }
}
