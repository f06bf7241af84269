package io.vortex4j.trino;

import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSplit;
import io.vortex4j.reader.dataset.Split;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;

import static io.trino.spi.StandardErrorCode.GENERIC_INTERNAL_ERROR;

/**
 * One split of the reader's dataset, sent to a worker as the reader's serialized {@link Split}
 * (path, row range, the file's size and time, partition values): the worker scans exactly the
 * rows the coordinator planned, and fails naming the file if it changed since.
 */
public record VortexSplit(String path, long rows, byte[] split) implements ConnectorSplit {
    static VortexSplit of(Split split) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(split);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new VortexSplit(split.path(), split.rowCount(), bytes.toByteArray());
    }

    /** The reader's split. */
    Split toSplit() {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(split))) {
            return (Split) in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new TrinoException(GENERIC_INTERNAL_ERROR, path + ": cannot decode its split: " + e.getMessage(), e);
        }
    }

    @Override
    public long getRetainedSizeInBytes() {
        return 64L + path.length() * 2L + split.length;
    }
}
