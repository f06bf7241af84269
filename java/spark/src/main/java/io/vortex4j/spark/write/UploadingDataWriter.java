package io.vortex4j.spark.write;

import io.vortex4j.reader.Stores;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * A task's write into an object store: its files are written into a local folder of the task (by
 * {@code files}, as a local write would), and on commit each is uploaded whole under the job's
 * staging prefix, where the job commit publishes it ({@link VortexBatchWrite}). An abort deletes
 * what the task uploaded; the local folder goes when the writer closes.
 */
final class UploadingDataWriter implements DataWriter<InternalRow> {
    private final DataWriter<InternalRow> files;
    private final Path local;
    private final String staging;
    private final List<String> uploaded = new ArrayList<>();

    UploadingDataWriter(DataWriter<InternalRow> files, Path local, String staging) {
        this.files = files;
        this.local = local;
        this.staging = staging;
    }

    @Override
    public void write(InternalRow row) throws IOException {
        files.write(row);
    }

    @Override
    public WriterCommitMessage commit() throws IOException {
        VortexDataWriter.Committed committed = (VortexDataWriter.Committed) files.commit();
        for (String name : committed.files()) {
            String object = staging + "/" + name;
            Stores.upload(local.resolve(name), object);
            uploaded.add(object);
        }
        return committed;
    }

    @Override
    public void abort() throws IOException {
        files.abort();
        for (String object : uploaded) {
            Stores.delete(object);
        }
    }

    @Override
    public void close() throws IOException {
        files.close();
        LocalFolders.delete(local);
    }
}
