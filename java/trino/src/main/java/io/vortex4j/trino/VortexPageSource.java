package io.vortex4j.trino;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.Bitmap;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.predicate.Predicate;
import java.util.List;

/**
 * The pages of one split: a page per chunk that has selected rows, holding only those rows.
 * Chunk columns become blocks ({@link Blocks}, dictionary strings as {@link DictionaryBlocks});
 * partition columns are run-length blocks of the split's value. The pushed filter is applied
 * exactly ({@code Compute.selection} with the scan's chunk filter); a pushed limit stops the split
 * after that many rows. With no chunk column to read and no filter, pages only count rows.
 */
final class VortexPageSource implements ConnectorPageSource {
    private static final int COUNT_PAGE_ROWS = 1 << 16;

    private final String path;
    private final List<VortexColumnHandle> columns;
    /** Position of each output column in the scan, or -1 for a partition column. */
    private final int[] positions;
    /** Each partition column's value as a one-position block. */
    private final Block[] constants;
    private final Scan scan;
    private final Predicate filter;
    private final DictionaryBlocks dictionaries = new DictionaryBlocks();
    private long remaining;
    private long readNanos;
    private long completedPositions;
    private boolean finished;

    /** {@code scanned}: the file columns to scan (outputs first); null to only count rows. */
    VortexPageSource(Split split, List<VortexColumnHandle> columns, List<String> scanned, Predicate pushed, long limit) {
        this.path = split.path();
        this.columns = columns;
        this.positions = new int[columns.size()];
        this.constants = new Block[columns.size()];
        this.remaining = limit;
        for (int i = 0; i < positions.length; i++) {
            VortexColumnHandle c = columns.get(i);
            positions[i] = c.partition() || scanned == null ? -1 : scanned.indexOf(c.name());
            if (c.partition()) {
                BlockBuilder b = c.type().createBlockBuilder(null, 1);
                Values.write(c.type(), b, split.partitionValues().get(c.name()));
                constants[i] = b.build();
            }
        }
        if (scanned == null) {
            this.scan = null;
            this.filter = null;
            this.remaining = Math.min(remaining, split.rowCount());
        } else {
            this.scan = Errors.reading(path, () -> io.vortex4j.reader.dataset.VortexDataset.scanSplit(split, scanned, pushed));
            this.filter = scan.chunkFilter();
        }
    }

    @Override
    public SourcePage getNextSourcePage() {
        if (finished) {
            return null;
        }
        long start = System.nanoTime();
        try {
            if (scan == null) {
                int n = (int) Math.min(remaining, COUNT_PAGE_ROWS);
                remaining -= n;
                finished = remaining == 0;
                return n == 0 ? null : page(null, null, n);
            }
            while (remaining > 0 && Errors.reading(path, scan::hasNext)) {
                try (Chunk chunk = Errors.reading(path, scan::next)) {
                    int[] rows = null;
                    int n = chunk.length();
                    if (filter != null) {
                        Bitmap selected = Errors.reading(path, () -> Compute.selection(chunk, filter));
                        int m = selected.cardinality();
                        if (m < n) {
                            rows = rowsOf(selected, m);
                            n = m;
                        }
                    }
                    if (n == 0) {
                        continue;
                    }
                    n = (int) Math.min(n, remaining);
                    remaining -= n;
                    int[] chosen = rows;
                    int count = n;
                    return Errors.reading(path, () -> page(chunk, chosen, count));
                }
            }
            finished = true;
            return null;
        } finally {
            readNanos += System.nanoTime() - start;
        }
    }

    private SourcePage page(Chunk chunk, int[] rows, int count) {
        Block[] blocks = new Block[columns.size()];
        for (int i = 0; i < blocks.length; i++) {
            if (positions[i] < 0) {
                blocks[i] = RunLengthEncodedBlock.create(constants[i], count);
                continue;
            }
            Array array = chunk.column(positions[i]);
            blocks[i] = array instanceof VarBinDictArray d
                    ? dictionaries.of(d, rows, count)
                    : Blocks.of(columns.get(i).type(), array, rows, count);
        }
        completedPositions += count;
        return SourcePage.create(new Page(count, blocks));
    }

    private static int[] rowsOf(Bitmap selected, int count) {
        int[] rows = new int[count];
        int k = 0;
        for (int r = selected.nextSetBit(0); r >= 0; r = selected.nextSetBit(r + 1)) {
            rows[k++] = r;
        }
        return rows;
    }

    @Override
    public long getCompletedBytes() {
        return 0;
    }

    @Override
    public java.util.OptionalLong getCompletedPositions() {
        return java.util.OptionalLong.of(completedPositions);
    }

    @Override
    public long getReadTimeNanos() {
        return readNanos;
    }

    @Override
    public boolean isFinished() {
        return finished;
    }

    @Override
    public void close() {
        finished = true;
        if (scan != null) {
            scan.close();
        }
    }
}
