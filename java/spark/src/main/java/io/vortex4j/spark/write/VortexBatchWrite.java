package io.vortex4j.spark.write;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.dataset.ListedFile;
import io.vortex4j.reader.dataset.Listing;
import io.vortex4j.spark.SourceFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;

/**
 * The commit protocol: each task writes its files into the job's staging folder {@code
 * _temporary-<queryId>} (hidden from readers: names starting with {@code _} are skipped), one per
 * partition folder it has rows for; the job commit moves the committed files into the folder
 * (each move atomic, partition folders created as needed), after deleting the folder's old files
 * when overwriting; an abort deletes the staging folder. So a failed job leaves no file visible,
 * and a file is visible only complete.
 *
 * <p>Into an object store ({@code s3://bucket/t}) alike, with objects: a task uploads each file
 * whole under the staging prefix when it commits ({@link UploadingDataWriter}); the job commit
 * copies each to its place on the store's side (an object appears whole) and deletes the staged
 * ones; an abort deletes what was staged.
 */
final class VortexBatchWrite implements BatchWrite {
    private final String folder;
    private final String queryId;
    private final StructType schema;
    private final boolean truncate;
    private final List<String> partitionColumns;
    private final Map<String, String> stores;
    private final boolean remote;

    VortexBatchWrite(String folder, String queryId, StructType schema, boolean truncate, List<String> partitionColumns,
            Map<String, String> stores) {
        this.remote = Stores.isRemote(folder);
        this.folder = remote ? folder.replaceAll("/+$", "") : Paths.get(folder).toAbsolutePath().toString();
        this.queryId = queryId;
        this.schema = schema;
        this.truncate = truncate;
        this.partitionColumns = partitionColumns;
        this.stores = stores;
    }

    private Path staging() {
        return Paths.get(folder, "_temporary-" + queryId);
    }

    /** The staging prefix of a write into a store. */
    private String stagingPrefix() {
        return folder + "/_temporary-" + queryId;
    }

    @Override
    public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
        if (remote) {
            return new VortexDataWriterFactory(stagingPrefix(), queryId, schema, partitionColumns, stores);
        }
        try {
            Files.createDirectories(staging());
        } catch (IOException e) {
            throw new UncheckedIOException("creating " + staging() + ": " + e.getMessage(), e);
        }
        return new VortexDataWriterFactory(staging().toString(), queryId, schema, partitionColumns, stores);
    }

    @Override
    public void commit(WriterCommitMessage[] messages) {
        if (remote) {
            commitObjects(messages);
            return;
        }
        try {
            if (truncate) {
                for (Path old : SourceFiles.list(folder)) {
                    Files.delete(old);
                }
            }
            for (WriterCommitMessage m : messages) {
                for (String name : m == null ? List.<String>of() : ((VortexDataWriter.Committed) m).files()) {
                    Path target = Paths.get(folder, name);
                    Files.createDirectories(target.getParent());
                    Files.move(staging().resolve(name), target, StandardCopyOption.ATOMIC_MOVE);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("committing the write to " + folder + ": " + e.getMessage(), e);
        }
        deleteStaging();
    }

    @Override
    public void abort(WriterCommitMessage[] messages) {
        if (remote) {
            deleteObjects(stagingPrefix());
            return;
        }
        deleteStaging();
    }

    private void commitObjects(WriterCommitMessage[] messages) {
        if (truncate) {
            for (String old : objects(folder)) {
                if (old.endsWith(".vortex")) {
                    Stores.delete(old);
                }
            }
        }
        for (WriterCommitMessage m : messages) {
            for (String name : m == null ? List.<String>of() : ((VortexDataWriter.Committed) m).files()) {
                Stores.copy(stagingPrefix() + "/" + name, folder + "/" + name);
            }
        }
        deleteObjects(stagingPrefix());
    }

    /** Deletes every object under {@code prefix}. */
    private static void deleteObjects(String prefix) {
        for (String object : objects(prefix)) {
            Stores.delete(object);
        }
    }

    /** The visible objects under {@code prefix} (none: empty). */
    private static List<String> objects(String prefix) {
        Listing.Result listed;
        try {
            listed = Listing.list(prefix + "/");
        } catch (VortexException e) {
            return List.of(); // nothing there
        }
        return listed.files().stream().map(ListedFile::path).toList();
    }

    private void deleteStaging() {
        Path dir = staging();
        try {
            LocalFolders.delete(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("deleting " + dir + ": " + e.getMessage(), e);
        }
    }
}
