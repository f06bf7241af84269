package io.vortex4j.spark.write;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * One task of a partitioned write: a file per partition folder the task's rows fall in ({@code
 * k=v/part-....vortex}, see {@link PartitionPaths}), each holding the rows' other columns. The
 * rows need not arrive clustered: every folder's writer stays open until the task commits.
 */
final class PartitionedDataWriter implements DataWriter<InternalRow> {
    private final Path staging;
    private final String fileName;
    private final StructType schema;
    private final int[] partitionOrdinals;
    private final String[] partitionNames;
    private final DataType[] partitionTypes;
    private final int[] dataOrdinals;
    private final Map<String, VortexDataWriter> writers = new LinkedHashMap<>();

    PartitionedDataWriter(Path staging, String fileName, StructType schema, List<String> partitionColumns) {
        this.staging = staging;
        this.fileName = fileName;
        this.schema = schema;
        int n = partitionColumns.size();
        this.partitionOrdinals = new int[n];
        this.partitionNames = new String[n];
        this.partitionTypes = new DataType[n];
        for (int k = 0; k < n; k++) {
            partitionOrdinals[k] = schema.fieldIndex(partitionColumns.get(k));
            partitionNames[k] = partitionColumns.get(k);
            partitionTypes[k] = schema.fields()[partitionOrdinals[k]].dataType();
        }
        List<Integer> data = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            if (!partitionColumns.contains(schema.fields()[c].name())) {
                data.add(c);
            }
        }
        this.dataOrdinals = data.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public void write(InternalRow row) throws IOException {
        String folder = PartitionPaths.folder(row, partitionOrdinals, partitionNames, partitionTypes);
        VortexDataWriter w = writers.get(folder);
        if (w == null) {
            Path dir = staging.resolve(folder);
            Files.createDirectories(dir);
            w = new VortexDataWriter(dir.resolve(fileName), schema, dataOrdinals);
            writers.put(folder, w);
        }
        w.write(row);
    }

    @Override
    public WriterCommitMessage commit() {
        List<String> files = new ArrayList<>();
        for (Map.Entry<String, VortexDataWriter> e : writers.entrySet()) {
            if (e.getValue().finish()) {
                files.add(e.getKey() + "/" + fileName);
            }
        }
        return new VortexDataWriter.Committed(files);
    }

    @Override
    public void abort() throws IOException {
        for (VortexDataWriter w : writers.values()) {
            w.abort();
        }
    }

    @Override
    public void close() {
        for (VortexDataWriter w : writers.values()) {
            w.close();
        }
    }
}
