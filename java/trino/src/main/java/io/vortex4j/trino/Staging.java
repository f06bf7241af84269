package io.vortex4j.trino;

import io.airlift.slice.Slice;
import io.trino.spi.TrinoException;
import io.trino.spi.type.Type;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.Stores;
import io.vortex4j.reader.write.VortexWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.vortex4j.trino.Errors.VORTEX_WRITE_ERROR;

/**
 * Staged writes and their commit. A writer stages {@code .WRITEID-UUID.vortex.tmp} in the table's
 * folder ({@link StagedFile}; hidden: listings skip names starting with {@code .}); the commit
 * gives each staged file its name {@code WRITEID-UUID.vortex} with an atomic move in a local
 * folder, or a copy on the store's side then a delete of the staged object in an object store,
 * so a reader sees each file whole or not at all, and a failed query leaves only hidden files.
 */
final class Staging {
    private Staging() {}

    /** The Vortex schema of the files' columns; an unwritable type fails naming the column. */
    static Schema schema(VortexWriteHandle handle) {
        List<String> names = new ArrayList<>();
        List<Type> types = new ArrayList<>();
        for (int c : handle.fileChannels()) {
            names.add(handle.names().get(c));
            types.add(handle.types().get(c));
        }
        return schema(names, types);
    }

    static Schema schema(List<String> names, List<Type> types) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            Type t = types.get(i);
            String name = names.get(i);
            // Trino's own wording, which its clients and tests match on
            fields.add(new Field(name, TrinoTypes.toVortex(t).orElseThrow(() -> new TrinoException(NOT_SUPPORTED,
                    "Unsupported column type: " + t)), true));
        }
        return new Schema(fields);
    }

    /** The location of {@code name} in {@code folder}, a local folder or a store prefix. */
    static String resolve(String folder, String name) {
        if (Stores.isRemote(folder)) {
            return folder.endsWith("/") ? folder + name : folder + "/" + name;
        }
        return Path.of(folder).resolve(name).toString();
    }

    /** Gives the staged files of {@code fragments} their names in {@code folder}. */
    static void commit(String folder, Collection<Slice> fragments) {
        for (Slice f : fragments) {
            // [key=value/...].WRITEID-UUID.vortex.tmp, relative to the table's folder
            String staged = f.toStringUtf8();
            int slash = staged.lastIndexOf('/') + 1;
            String name = staged.substring(0, slash) + staged.substring(slash + 1, staged.length() - ".tmp".length());
            String from = resolve(folder, staged);
            try {
                if (Stores.isRemote(folder)) {
                    Stores.copy(from, resolve(folder, name));
                    Stores.delete(from);
                } else {
                    Files.move(Path.of(from), Path.of(resolve(folder, name)), StandardCopyOption.ATOMIC_MOVE);
                }
            } catch (IOException | RuntimeException e) {
                throw new TrinoException(VORTEX_WRITE_ERROR, "cannot commit " + from + ": " + (e instanceof IOException ? e.toString() : e.getMessage()), e);
            }
        }
    }

    /** Writes an empty file of the columns, so that a table with no rows still has its schema. */
    static void writeEmpty(String folder, String writeId, Schema schema) {
        StagedFile staged = new StagedFile(folder, writeId, "empty");
        try (VortexWriter w = VortexWriter.create(staged.local(), schema)) {
            w.finish();
        } catch (RuntimeException e) {
            staged.abort();
            throw new TrinoException(VORTEX_WRITE_ERROR, staged.location() + ": " + e.getMessage(), e);
        }
        commit(folder, List.of(io.airlift.slice.Slices.utf8Slice(staged.finish())));
    }
}
