package io.vortex4j.trino;

import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.statistics.ColumnStatistics;
import io.trino.spi.statistics.Estimate;
import io.trino.spi.statistics.TableStatistics;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.VarcharType;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The distinct counts of dictionary-encoded string columns in the table statistics: the values
 * written, united over a folder's files, nulls not counted; unknown for a column of too many
 * distinct values; read again when a file is rewritten.
 */
public class DistinctCountsTest {
    private static final int ROWS = 200_000;
    private static final String[] FIRST = {"AAPL", "MSFT", "GOOG", "ÉCLAIR", "IBM"};
    private static final String[] SECOND = {"IBM", "NVDA", "TSLA"};
    private static final VortexColumnHandle SYM = new VortexColumnHandle("sym", VarcharType.VARCHAR, false);
    private static final VortexColumnHandle NOTE = new VortexColumnHandle("note", VarcharType.VARCHAR, false);
    private static final VortexColumnHandle ID = new VortexColumnHandle("id", BigintType.BIGINT, false);

    /** Writes {@code file} with symbols cycling through {@code symbols} (every 7th row null) and a distinct note per row; returns the symbols written. */
    private static Set<String> write(Path file, String[] symbols) {
        Schema schema = Schema.of(new Field("id", DataType.INT64, false), new Field("sym", DataType.UTF8, true),
                new Field("note", DataType.UTF8, false));
        IntFunction<String> sym = r -> r % 7 == 3 ? null : symbols[(r / 5) % symbols.length];
        long[] id = new long[ROWS];
        String[] syms = new String[ROWS];
        String[] notes = new String[ROWS];
        Set<String> written = new HashSet<>();
        for (int r = 0; r < ROWS; r++) {
            id[r] = r;
            syms[r] = sym.apply(r);
            notes[r] = "note " + r + " of " + file.getFileName();
            if (syms[r] != null) {
                written.add(syms[r]);
            }
        }
        try (VortexWriter w = VortexWriter.create(file, schema)) {
            w.write(new Batch(schema, ROWS).set("id", id).set("sym", syms).set("note", notes));
            w.finish();
        }
        return written;
    }

    private static ColumnStatistics statistics(Path table, VortexColumnHandle column) {
        try (VortexDataset d = VortexDataset.open(table)) {
            TableStatistics stats = Statistics.of(Datasets.handle(new SchemaTableName("default", "t"), d), d);
            assertThat(stats.getRowCount()).isEqualTo(Estimate.of(d.rowCount()));
            return Objects.requireNonNull(stats.getColumnStatistics().get(column), column.name());
        }
    }

    @Test
    public void dictionaryColumnsCountTheirValuesOverFiles() throws Exception {
        Path table = Files.createTempDirectory("vortex-trino-distinct");
        Set<String> all = new HashSet<>(write(table.resolve("a.vortex"), FIRST));
        all.addAll(write(table.resolve("b.vortex"), SECOND));
        assertThat(all).hasSize(7);

        assertThat(statistics(table, SYM).getDistinctValuesCount()).isEqualTo(Estimate.of(all.size()));
        assertThat(statistics(table, SYM).getNullsFraction().getValue()).isBetween(0.14, 0.15);
        // A distinct text per row: more values than a dictionary column has.
        assertThat(statistics(table, NOTE).getDistinctValuesCount()).isEqualTo(Estimate.unknown());
        assertThat(statistics(table, ID).getDistinctValuesCount()).isEqualTo(Estimate.unknown());

        // A file rewritten is read again.
        Set<String> rewritten = new HashSet<>(write(table.resolve("b.vortex"), new String[] {"ZZZ", "YYY", "XXX", "WWW"}));
        rewritten.addAll(write(table.resolve("a.vortex"), FIRST));
        assertThat(statistics(table, SYM).getDistinctValuesCount()).isEqualTo(Estimate.of(rewritten.size()));
        assertThat(rewritten).hasSize(9);
    }

    @Test
    public void oneFileTable() throws Exception {
        Path file = Files.createTempDirectory("vortex-trino-distinct-one").resolve("t.vortex");
        Set<String> written = write(file, SECOND);
        assertThat(statistics(file, SYM).getDistinctValuesCount()).isEqualTo(Estimate.of(written.size()));
    }
}
