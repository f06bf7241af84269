package io.vortex4j.trino;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.vortex4j.reader.compute.GroupAggregate;
import io.vortex4j.reader.exec.SplitExecutor;
import java.util.ArrayList;
import java.util.List;

/**
 * The answer of a {@link PushedAggregation}: the dataset aggregated by the reader's grouped
 * aggregation over every split of the pushed filter (on this worker's threads), as one page.
 * AVG is the exact SUM over the COUNT; without GROUP BY an empty input is one row, COUNT 0.
 */
final class AggregatePageSource implements ConnectorPageSource {
    private final VortexTableHandle table;
    private final List<ColumnHandle> columns;
    private boolean finished;
    private long readNanos;

    AggregatePageSource(VortexTableHandle table, List<ColumnHandle> columns) {
        this.table = table;
        this.columns = columns;
    }

    @Override
    public SourcePage getNextSourcePage() {
        if (finished) {
            return null;
        }
        finished = true;
        long start = System.nanoTime();
        PushedAggregation agg = table.aggregation().orElseThrow();
        List<String> groupBy = agg.groupBy().stream().map(VortexColumnHandle::name).toList();
        // Reader aggregates: AVG reads as SUM then COUNT; first[i] is function i's first one.
        List<GroupAggregate.Aggregate> reads = new ArrayList<>();
        int[] first = new int[agg.aggregates().size()];
        for (int i = 0; i < first.length; i++) {
            PushedAggregation.Function f = agg.aggregates().get(i);
            first[i] = reads.size();
            String column = f.column().map(VortexColumnHandle::name).orElse(null);
            switch (f.name()) {
                case "count" -> reads.add(column == null ? GroupAggregate.Aggregate.countStar()
                        : GroupAggregate.Aggregate.of(GroupAggregate.Function.COUNT, column));
                case "sum" -> reads.add(GroupAggregate.Aggregate.of(GroupAggregate.Function.SUM, column));
                case "min" -> reads.add(GroupAggregate.Aggregate.of(GroupAggregate.Function.MIN, column));
                case "max" -> reads.add(GroupAggregate.Aggregate.of(GroupAggregate.Function.MAX, column));
                case "avg" -> {
                    reads.add(GroupAggregate.Aggregate.of(GroupAggregate.Function.SUM, column));
                    reads.add(GroupAggregate.Aggregate.of(GroupAggregate.Function.COUNT, column));
                }
                default -> throw new IllegalStateException("not a pushed aggregate: " + f.name());
            }
        }
        GroupAggregate.Result result = Datasets.with(table.location(), d -> GroupAggregate.runGrouped(d, groupBy,
                Filters.predicate(table), reads, SplitExecutor.defaultThreads()));
        int rows = result.size();
        boolean emptyGlobal = groupBy.isEmpty() && rows == 0;
        int count = emptyGlobal ? 1 : rows;
        Block[] blocks = new Block[columns.size()];
        for (int c = 0; c < blocks.length; c++) {
            ColumnHandle h = columns.get(c);
            if (h instanceof AggregateColumnHandle a) {
                PushedAggregation.Function f = agg.aggregates().get(a.index());
                BlockBuilder out = a.type().createBlockBuilder(null, count);
                for (int g = 0; g < count; g++) {
                    Object v = emptyGlobal ? null : result.value(g, first[a.index()]);
                    if (f.name().equals("avg") && v != null) {
                        long n = ((Number) result.value(g, first[a.index()] + 1)).longValue();
                        v = n == 0 ? null : ((Number) v).doubleValue() / n;
                    }
                    if (f.name().equals("count") && v == null) {
                        v = 0L;
                    }
                    Values.write(a.type(), out, v);
                }
                blocks[c] = out.build();
            } else {
                VortexColumnHandle v = (VortexColumnHandle) h;
                int k = agg.groupBy().indexOf(v);
                BlockBuilder out = v.type().createBlockBuilder(null, count);
                for (int g = 0; g < count; g++) {
                    Values.write(v.type(), out, result.key(g, k));
                }
                blocks[c] = out.build();
            }
        }
        readNanos = System.nanoTime() - start;
        return SourcePage.create(new Page(count, blocks));
    }

    @Override
    public long getCompletedBytes() {
        return 0;
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
