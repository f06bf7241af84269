package io.vortex4j.trino;

import io.airlift.slice.Slice;
import io.trino.spi.TrinoException;
import io.trino.spi.type.Type;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
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
 * Staged writes and their commit. A writer writes {@code .WRITEID-UUID.vortex.tmp} in the table's
 * folder (hidden: listings skip names starting with {@code .}); the commit renames each staged
 * file to {@code WRITEID-UUID.vortex} with an atomic move, so a reader sees each file whole or not
 * at all, and a failed query leaves only hidden files.
 */
final class Staging {
    private Staging() {}

    static Path stagedFile(Path folder, String writeId, String writer) {
        return folder.resolve("." + writeId + "-" + writer + Catalog.SUFFIX + ".tmp");
    }

    /** The Vortex schema of the columns written; an unwritable type fails naming the column. */
    static Schema schema(VortexWriteHandle handle) {
        return schema(handle.names(), handle.types());
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

    /** Renames the staged files of {@code fragments} into place. */
    static void commit(Path folder, Collection<Slice> fragments) {
        for (Slice f : fragments) {
            String staged = f.toStringUtf8();
            String name = staged.substring(1, staged.length() - ".tmp".length());
            try {
                Files.move(folder.resolve(staged), folder.resolve(name), StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new TrinoException(VORTEX_WRITE_ERROR, "cannot commit " + folder.resolve(staged) + ": " + e, e);
            }
        }
    }

    /** Writes an empty file of the columns, so that a table with no rows still has its schema. */
    static void writeEmpty(Path folder, String writeId, Schema schema) {
        Path staged = stagedFile(folder, writeId, "empty");
        try (VortexWriter w = VortexWriter.create(staged, schema)) {
            w.finish();
        } catch (RuntimeException e) {
            throw new TrinoException(VORTEX_WRITE_ERROR, staged + ": " + e.getMessage(), e);
        }
        commit(folder, List.of(io.airlift.slice.Slices.utf8Slice(staged.getFileName().toString())));
    }
}
