package io.vortex4j.trino;

import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;
import io.vortex4j.reader.dataset.HivePartitions;
import java.time.LocalDate;
import java.util.List;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * The Hive folders ({@code key=value/...}) rows are written to, spelled as the reader parses them
 * ({@link HivePartitions}): BIGINT in decimal, DATE as {@code yyyy-MM-dd}, VARCHAR as written with
 * the characters a folder name cannot hold or the parsing would misread percent-encoded, null as
 * {@value HivePartitions#NULL_VALUE}.
 */
final class PartitionFolders {
    private PartitionFolders() {}

    /** The folder of row {@code position} of {@code page}, its partition values at {@code channels}, ending in {@code /}. */
    static String of(VortexWriteHandle handle, Page page, int position) {
        StringBuilder folder = new StringBuilder();
        for (int c : handle.partitionChannels()) {
            folder.append(HivePartitions.encode(handle.names().get(c))).append('=')
                    .append(value(handle.types().get(c), page.getBlock(c), position, handle.names().get(c))).append('/');
        }
        return folder.toString();
    }

    private static String value(Type type, Block block, int position, String column) {
        if (block.isNull(position)) {
            return HivePartitions.NULL_VALUE;
        }
        if (type instanceof BigintType) {
            return Long.toString(BigintType.BIGINT.getLong(block, position));
        }
        if (type instanceof DateType) {
            return LocalDate.ofEpochDay(DateType.DATE.getInt(block, position)).toString();
        }
        if (type instanceof VarcharType v) {
            String s = v.getSlice(block, position).toStringUtf8();
            if (s.equals(HivePartitions.NULL_VALUE)) {
                throw new TrinoException(NOT_SUPPORTED, "partition column " + column + ": the value " + s + " is Hive's name for null");
            }
            return HivePartitions.encode(s);
        }
        throw new TrinoException(NOT_SUPPORTED, "partition column " + column + " is " + type + ": BIGINT, DATE or VARCHAR are written");
    }
}
