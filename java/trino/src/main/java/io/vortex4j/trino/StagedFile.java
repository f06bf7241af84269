package io.vortex4j.trino;

import io.trino.spi.TrinoException;
import io.vortex4j.reader.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import static io.vortex4j.trino.Errors.VORTEX_WRITE_ERROR;

/**
 * One writer's file before the commit, under its hidden staged name in the table's folder or in
 * one of its partition folders ({@link Staging}). In a local folder it is written there; for a
 * table in an object store it is written to a local temporary file and uploaded under the staged
 * name once complete (an upload appears whole or not at all).
 */
final class StagedFile {
    private final String folder;
    /** The staged name relative to the table's folder: {@code [key=value/...].WRITEID-WRITER.vortex.tmp}. */
    private final String name;
    private final Path local;

    StagedFile(String folder, String writeId, String writer) {
        this(folder, "", writeId, writer);
    }

    /** A file in {@code partition} ({@code key=value/...}, or empty) of the table's folder. */
    StagedFile(String folder, String partition, String writeId, String writer) {
        this.folder = folder;
        String file = "." + writeId + "-" + writer + Catalog.SUFFIX + ".tmp";
        this.name = partition + file;
        // A writer stages one file per partition folder: each its own temporary file.
        this.local = Stores.isRemote(folder)
                ? Path.of(System.getProperty("java.io.tmpdir")).resolve(file + "-" + UUID.randomUUID())
                : Path.of(folder).resolve(name);
    }

    /** Where the writer writes the file (its folder made). */
    Path local() {
        try {
            Files.createDirectories(local.getParent());
        } catch (IOException e) {
            throw new TrinoException(VORTEX_WRITE_ERROR, "cannot create " + local.getParent() + ": " + e, e);
        }
        return local;
    }

    /** The staged file's location. */
    String location() {
        return Staging.resolve(folder, name);
    }

    /** Puts the written file under its staged name; returns that name, the commit fragment. */
    String finish() {
        if (Stores.isRemote(folder)) {
            try {
                Stores.upload(local, location());
            } catch (RuntimeException e) {
                throw new TrinoException(VORTEX_WRITE_ERROR, "cannot upload " + location() + ": " + e.getMessage(), e);
            } finally {
                deleteLocal();
            }
        }
        return name;
    }

    /** Removes what was written or staged; what cannot be removed keeps its hidden name, which listings skip. */
    void abort() {
        deleteLocal();
        if (Stores.isRemote(folder)) {
            try {
                Stores.delete(location());
            } catch (RuntimeException e) {
                // hidden: never read
            }
        }
    }

    private void deleteLocal() {
        try {
            Files.deleteIfExists(local);
        } catch (IOException e) {
            // hidden: never listed
        }
    }
}
