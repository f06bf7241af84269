package io.vortex4j.trino;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.VarcharType;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dictionary-encoded string column reaches Trino as {@link DictionaryBlock}s whose dictionary
 * is one block per reader dictionary, shared by the pages of the chunks using it; the values
 * (nulls included), and the rows a filter selects, are those written.
 */
public class DictionaryPagesTest {
    private static final String[] SYMBOLS = {"AAPL", "MSFT", "GOOG", "ÉCLAIR", "IBM"};
    private static final int ROWS = 300_000;

    private static String sym(int r) {
        return r % 11 == 5 ? null : SYMBOLS[(r / 3) % SYMBOLS.length];
    }

    private static Path write() throws Exception {
        Path dir = Files.createTempDirectory("vortex-trino-dict");
        Schema schema = Schema.of(new Field("id", DataType.INT64, false), new Field("sym", DataType.UTF8, true));
        long[] id = new long[ROWS];
        String[] sym = new String[ROWS];
        for (int r = 0; r < ROWS; r++) {
            id[r] = r;
            sym[r] = sym(r);
        }
        Path file = dir.resolve("t.vortex");
        try (VortexWriter w = VortexWriter.create(file, schema)) {
            w.write(new Batch(schema, ROWS).set("id", id).set("sym", sym));
            w.finish();
        }
        return file;
    }

    private static List<Page> pages(Path file, Predicate filter) {
        List<VortexColumnHandle> columns = List.of(new VortexColumnHandle("id", BigintType.BIGINT, false),
                new VortexColumnHandle("sym", VarcharType.VARCHAR, false));
        List<Page> pages = new ArrayList<>();
        try (VortexDataset d = VortexDataset.open(file)) {
            for (Split split : d.splits(filter)) {
                VortexPageSource source = new VortexPageSource(split, columns, List.of("id", "sym"), filter, Long.MAX_VALUE);
                while (!source.isFinished()) {
                    SourcePage p = source.getNextSourcePage();
                    if (p != null) {
                        pages.add(p.getPage());
                    }
                }
                source.close();
            }
        }
        return pages;
    }

    @Test
    public void dictionaryBlocksSharedAcrossPages() throws Exception {
        List<Page> pages = pages(write(), null);
        assertThat(pages.size()).as("pages (chunks)").isGreaterThan(1);
        Set<Block> dictionaries = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        int rows = 0;
        for (Page page : pages) {
            Block ids = page.getBlock(0);
            Block syms = page.getBlock(1);
            assertThat(syms).isInstanceOf(DictionaryBlock.class);
            dictionaries.add(((DictionaryBlock) syms).getDictionary());
            for (int i = 0; i < page.getPositionCount(); i++) {
                int r = (int) BigintType.BIGINT.getLong(ids, i);
                String want = sym(r);
                if (want == null) {
                    assertThat(syms.isNull(i)).as("row %s", r).isTrue();
                } else {
                    assertThat(VarcharType.VARCHAR.getSlice(syms, i).toStringUtf8()).as("row %s", r).isEqualTo(want);
                }
            }
            rows += page.getPositionCount();
        }
        assertThat(rows).isEqualTo(ROWS);
        // The writer shares one dictionary across the column's chunks: one entry block for all pages.
        assertThat(dictionaries.size()).isLessThan(pages.size());
    }

    @Test
    public void filteredPagesHoldOnlySelectedRows() throws Exception {
        Predicate filter = Predicate.and(Predicate.in("sym", "MSFT", "ÉCLAIR"), Predicate.lt("id", 200_000L));
        Set<Long> seen = new HashSet<>();
        for (Page page : pages(write(), filter)) {
            for (int i = 0; i < page.getPositionCount(); i++) {
                long r = BigintType.BIGINT.getLong(page.getBlock(0), i);
                assertThat(VarcharType.VARCHAR.getSlice(page.getBlock(1), i).toStringUtf8()).isIn("MSFT", "ÉCLAIR");
                seen.add(r);
            }
        }
        Set<Long> want = new HashSet<>();
        for (int r = 0; r < 200_000; r++) {
            if ("MSFT".equals(sym(r)) || "ÉCLAIR".equals(sym(r))) {
                want.add((long) r);
            }
        }
        assertThat(seen).isEqualTo(want);
    }
}
