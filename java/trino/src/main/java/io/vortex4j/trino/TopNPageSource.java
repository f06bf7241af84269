package io.vortex4j.trino;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.Type;
import io.vortex4j.reader.array.Array;
import io.vortex4j.reader.array.VarBinDictArray;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.exec.SortKey;
import io.vortex4j.reader.exec.TopN;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;

/**
 * A split's best rows under a pushed top-n ({@link PushedTopN}), as one page: the reader's {@code
 * TopN} over the split (the pushed filter applied exactly, chunks zone maps rule out skipped),
 * each kept row's values copied into blocks; partition columns are the split's values.
 */
final class TopNPageSource implements ConnectorPageSource {
    private final VortexTableHandle table;
    private final Split split;
    private final List<VortexColumnHandle> columns;
    private long readNanos;
    private long completedPositions;
    private boolean finished;

    TopNPageSource(VortexTableHandle table, Split split, List<VortexColumnHandle> columns) {
        this.table = table;
        this.split = split;
        this.columns = columns;
    }

    @Override
    public SourcePage getNextSourcePage() {
        if (finished) {
            return null;
        }
        finished = true;
        long start = System.nanoTime();
        try {
            Page page = page();
            completedPositions = page.getPositionCount();
            return page.getPositionCount() == 0 ? null : SourcePage.create(page);
        } finally {
            readNanos = System.nanoTime() - start;
        }
    }

    private Page page() {
        PushedTopN topN = table.topN().orElseThrow();
        List<String> read = new ArrayList<>();
        int[] positions = new int[columns.size()];
        for (int i = 0; i < positions.length; i++) {
            VortexColumnHandle c = columns.get(i);
            positions[i] = c.partition() ? -1 : indexOf(read, c.name());
        }
        if (read.isEmpty()) {
            read.add(table.firstFileColumn());
        }
        Type[] types = new Type[read.size()];
        for (int i = 0; i < positions.length; i++) {
            if (positions[i] >= 0) {
                types[positions[i]] = columns.get(i).type();
            }
        }
        List<SortKey> keys = topN.keys().stream()
                .map(k -> new SortKey(k.column().name(), k.descending(), k.nullsFirst()))
                .toList();
        Predicate filter = Filters.predicate(table);
        DictionaryBlocks dictionaries = new DictionaryBlocks();
        // Each kept row as one-position blocks (the arrays are valid only during the call).
        List<Block[]> rows = Datasets.with(table.location(), dataset -> TopN.run(dataset, List.of(split), read, filter, keys,
                0, topN.count(), 1, (s, arrays, row) -> {
                    Block[] cells = new Block[types.length];
                    int[] at = {row};
                    for (int i = 0; i < cells.length; i++) {
                        if (types[i] == null) {
                            continue;
                        }
                        Array a = arrays[i];
                        cells[i] = a instanceof VarBinDictArray d ? dictionaries.of(d, at, 1) : Blocks.of(types[i], a, at, 1);
                    }
                    return cells;
                }));
        int n = rows.size();
        Block[] blocks = new Block[columns.size()];
        for (int i = 0; i < blocks.length; i++) {
            VortexColumnHandle c = columns.get(i);
            if (positions[i] < 0) {
                BlockBuilder one = c.type().createBlockBuilder(null, 1);
                Values.write(c.type(), one, split.partitionValues().get(c.name()));
                blocks[i] = RunLengthEncodedBlock.create(one.build(), n);
                continue;
            }
            BlockBuilder out = c.type().createBlockBuilder(null, n);
            for (Block[] row : rows) {
                Block cell = row[positions[i]];
                out.append(cell.getUnderlyingValueBlock(), cell.getUnderlyingValuePosition(0));
            }
            blocks[i] = out.build();
        }
        return new Page(n, blocks);
    }

    /** The index of {@code name} in {@code names}, added at the end when absent. */
    private static int indexOf(List<String> names, String name) {
        int i = names.indexOf(name);
        if (i < 0) {
            names.add(name);
            i = names.size() - 1;
        }
        return i;
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
    }
}
