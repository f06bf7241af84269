package io.vortex4j.trino;

import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import io.vortex4j.reader.DataType;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.write.Batch;
import io.vortex4j.reader.write.VortexWriter;
import io.vortex4j.trino.local.VortexQueryRunner;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Vortex type read through Trino: a file written with the reader's writer, its rows read
 * back with SELECT and compared with the values written; filters on each column with push-down
 * on and off select the same rows.
 */
public class VortexTypesTest extends AbstractTestQueryFramework {
    private static final int ROWS = 300;

    @Override
    protected QueryRunner createQueryRunner() throws Exception {
        Path dir = Files.createTempDirectory("vortex-trino-types");
        writeTypes(dir.resolve("types.vortex"));
        return VortexQueryRunner.create(dir, 1, List.of());
    }

    private static boolean isNull(int r) {
        return r % 7 == 3;
    }

    private static void writeTypes(Path path) {
        DataType point = DataType.struct(List.of(new Field("x", DataType.INT32, true), new Field("label", DataType.UTF8, true)));
        Schema schema = Schema.of(
                new Field("id", DataType.INT64, false),
                new Field("i8", DataType.INT8, true),
                new Field("i16", DataType.INT16, true),
                new Field("u8", DataType.UINT8, true),
                new Field("u16", DataType.UINT16, true),
                new Field("u32", DataType.UINT32, true),
                new Field("u64", DataType.UINT64, true),
                new Field("f32", DataType.FLOAT32, true),
                new Field("f64", DataType.FLOAT64, true),
                new Field("flag", DataType.BOOL, true),
                new Field("sym", DataType.UTF8, true),
                new Field("bytes", DataType.BINARY, true),
                new Field("price", DataType.decimal(10, 2), true),
                new Field("big", DataType.decimal(30, 5), true),
                new Field("day", DataType.DATE, true),
                new Field("at", DataType.timestamp(DataType.TimeUnit.MICROSECONDS, null), true),
                new Field("at_ns", DataType.timestamp(DataType.TimeUnit.NANOSECONDS, "UTC"), true),
                new Field("at_ms", DataType.timestamp(DataType.TimeUnit.MILLISECONDS, "UTC"), true),
                new Field("tod", DataType.time(DataType.TimeUnit.MILLISECONDS), true),
                new Field("pt", point, true),
                new Field("tags", DataType.list(DataType.INT64, true), true));
        Batch b = new Batch(schema, ROWS);
        long[] id = new long[ROWS];
        byte[] i8 = new byte[ROWS];
        short[] i16 = new short[ROWS];
        byte[] u8 = new byte[ROWS];
        short[] u16 = new short[ROWS];
        int[] u32 = new int[ROWS];
        long[] u64 = new long[ROWS];
        float[] f32 = new float[ROWS];
        double[] f64 = new double[ROWS];
        boolean[] flag = new boolean[ROWS];
        String[] sym = new String[ROWS];
        byte[][] bytes = new byte[ROWS][];
        BigDecimal[] price = new BigDecimal[ROWS];
        BigDecimal[] big = new BigDecimal[ROWS];
        int[] day = new int[ROWS];
        long[] at = new long[ROWS];
        long[] atNs = new long[ROWS];
        long[] atMs = new long[ROWS];
        long[] tod = new long[ROWS];
        List<Object> pt = new ArrayList<>();
        List<Object> tags = new ArrayList<>();
        boolean[] valid = new boolean[ROWS];
        for (int r = 0; r < ROWS; r++) {
            valid[r] = !isNull(r);
            id[r] = r;
            i8[r] = (byte) (r - 128);
            i16[r] = (short) (r * 100 - 15000);
            u8[r] = (byte) (r + 100);
            u16[r] = (short) (r * 200);
            u32[r] = r * 14_000_000;
            u64[r] = r == 5 ? -1L : r * 1_000_000_007L;
            f32[r] = r / 4f;
            f64[r] = r / 8.0 - 10;
            flag[r] = r % 3 == 0;
            sym[r] = isNull(r) ? null : new String[] {"AAPL", "MSFT", "ÉCLAIR", "zz"}[r % 4];
            bytes[r] = isNull(r) ? null : new byte[] {(byte) r, (byte) 0xff, 0};
            price[r] = isNull(r) ? null : BigDecimal.valueOf(r * 137L - 9000, 2);
            big[r] = isNull(r) ? null : new BigDecimal("1234567890123456789012.00000").add(BigDecimal.valueOf(r, 5)).negate();
            day[r] = r * 40 - 3000;
            at[r] = r * 3_600_000_123L;
            atNs[r] = r * 86_400_000_000_123L + 7;
            atMs[r] = r * 1_000_001L;
            tod[r] = r * 281_000L;
            if (isNull(r)) {
                pt.add(null);
                tags.add(null);
            } else {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("x", r % 5 == 0 ? null : r);
                p.put("label", "p" + (r % 3));
                pt.add(p);
                tags.add(r % 4 == 0 ? List.of() : Arrays.asList((long) r, null, (long) -r));
            }
        }
        b.set("id", id).set("i8", i8, valid).set("i16", i16, valid).set("u8", u8, valid).set("u16", u16, valid)
                .set("u32", u32, valid).set("u64", u64, valid).set("f32", f32, valid).set("f64", f64, valid)
                .set("flag", flag, valid).set("sym", sym).set("bytes", bytes).set("price", price).set("big", big)
                .set("day", day, valid).set("at", at, valid).set("at_ns", atNs, valid).set("at_ms", atMs, valid)
                .set("tod", tod, valid).set("pt", pt).set("tags", tags);
        try (VortexWriter w = VortexWriter.create(path, schema)) {
            w.write(b);
            w.finish();
        }
    }

    /** The row Trino should return for row {@code r}, in the table's column order. */
    private static List<Object> expected(int r) {
        List<Object> row = new ArrayList<>();
        row.add((long) r);
        if (isNull(r)) {
            for (int i = 1; i < 22; i++) {
                row.add(null);
            }
            return row;
        }
        row.add((byte) (r - 128));
        row.add((short) (r * 100 - 15000));
        row.add((short) ((r + 100) & 0xff));
        row.add((r * 200) & 0xffff);
        row.add(Integer.toUnsignedLong(r * 14_000_000));
        row.add(r == 5 ? new BigDecimal("18446744073709551615") : BigDecimal.valueOf(r * 1_000_000_007L));
        row.add(r / 4f);
        row.add(r / 8.0 - 10);
        row.add(r % 3 == 0);
        row.add(new String[] {"AAPL", "MSFT", "ÉCLAIR", "zz"}[r % 4]);
        row.add(new byte[] {(byte) r, (byte) 0xff, 0});
        row.add(BigDecimal.valueOf(r * 137L - 9000, 2));
        row.add(new BigDecimal("1234567890123456789012.00000").add(BigDecimal.valueOf(r, 5)).negate());
        row.add(LocalDate.ofEpochDay(r * 40 - 3000));
        long at = r * 3_600_000_123L;
        row.add(LocalDateTime.ofEpochSecond(Math.floorDiv(at, 1_000_000), (int) Math.floorMod(at, 1_000_000) * 1000, ZoneOffset.UTC));
        long ns = r * 86_400_000_000_123L + 7;
        row.add(ZonedDateTime.ofInstant(java.time.Instant.ofEpochSecond(0, ns), ZoneOffset.UTC));
        row.add(ZonedDateTime.ofInstant(java.time.Instant.ofEpochMilli(r * 1_000_001L), ZoneOffset.UTC));
        row.add(LocalTime.ofNanoOfDay(r * 281_000L * 1_000_000));
        row.add(r % 5 == 0 ? null : r);
        row.add("p" + (r % 3));
        row.add(r % 4 == 0 ? List.of() : Arrays.asList((long) r, null, (long) -r));
        return row;
    }

    @Test
    public void describe() {
        MaterializedResult columns = computeActual("DESCRIBE types");
        List<String> types = new ArrayList<>();
        for (MaterializedRow row : columns.getMaterializedRows()) {
            types.add(row.getField(0) + " " + row.getField(1));
        }
        assertThat(types).containsExactly("id bigint", "i8 tinyint", "i16 smallint", "u8 smallint", "u16 integer",
                "u32 bigint", "u64 decimal(20,0)", "f32 real", "f64 double", "flag boolean", "sym varchar",
                "bytes varbinary", "price decimal(10,2)", "big decimal(30,5)", "day date", "at timestamp(6)",
                "at_ns timestamp(9) with time zone", "at_ms timestamp(3) with time zone", "tod time(3)",
                "pt row(\"x\" integer, \"label\" varchar)", "tags array(bigint)");
        assertThat(computeActual("SHOW TABLES").getOnlyColumnAsSet()).containsExactly("types");
        assertThat(computeActual("SELECT table_name FROM information_schema.tables WHERE table_schema = 'default'")
                .getOnlyColumnAsSet()).containsExactly("types");
    }

    @Test
    public void values() {
        // ROW fields one by one: MaterializedResult has no plain Java form for a ROW value
        MaterializedResult result = computeActual("SELECT id, i8, i16, u8, u16, u32, u64, f32, f64, flag, sym, bytes, price, big, "
                + "day, at, at_ns, at_ms, tod, pt.x, pt.label, tags FROM types ORDER BY id");
        assertThat(result.getRowCount()).isEqualTo(ROWS);
        for (int r = 0; r < ROWS; r++) {
            List<Object> actual = result.getMaterializedRows().get(r).getFields();
            List<Object> want = expected(r);
            for (int c = 0; c < want.size(); c++) {
                Object a = actual.get(c);
                Object e = want.get(c);
                if (e instanceof byte[] eb) {
                    assertThat((byte[]) a).as("row %s column %s", r, c).isEqualTo(eb);
                } else if (e instanceof ZonedDateTime ez) {
                    // Trino names the zone "UTC" (a region), java.time's constant is an offset
                    assertThat(((ZonedDateTime) a).toInstant()).as("row %s column %s", r, c).isEqualTo(ez.toInstant());
                } else {
                    assertThat(a).as("row %s column %s", r, c).isEqualTo(e);
                }
            }
        }
    }

    @Test
    public void nestedAccess() {
        assertThat(computeActual("SELECT count(*) FROM types WHERE pt IS NULL").getOnlyValue()).isEqualTo((long) countRows(VortexTypesTest::isNull));
        assertThat(computeActual("SELECT count(*) FROM types WHERE pt.label = 'p1'").getOnlyValue())
                .isEqualTo((long) countRows(r -> !isNull(r) && r % 3 == 1));
        assertThat(computeActual("SELECT sum(cardinality(tags)) FROM types").getOnlyValue())
                .isEqualTo((long) countRows(r -> !isNull(r) && r % 4 != 0) * 3);
        assertThat(computeActual("SELECT sum(t) FROM types CROSS JOIN UNNEST(tags) AS u(t) WHERE t > 0").getOnlyValue())
                .isEqualTo(sumRows(r -> !isNull(r) && r % 4 != 0 && r > 0));
    }

    @Test
    public void nestedFieldsPushed() {
        String sql = "SELECT id, pt.x, pt.label FROM types WHERE pt.label = 'p1' AND pt.x > 100";
        MaterializedResult on = computeActual(pushdown(true), sql);
        assertThat(on.getMaterializedRows()).containsExactlyInAnyOrderElementsOf(computeActual(pushdown(false), sql).getMaterializedRows());
        assertThat(on.getRowCount()).isEqualTo(countRows(r -> !isNull(r) && r % 3 == 1 && r % 5 != 0 && r > 100));
        // the fields are read by path and the filter on them is the reader's
        assertThat(query(pushdown(true), sql)).isFullyPushedDown();
        assertThat(computeActual(pushdown(true), "EXPLAIN " + sql).getOnlyValue().toString()).contains("pt.label = 'p1'");
    }

    @Test
    public void filtersOnEveryType() {
        for (String where : List.of("i8 < -100", "i16 BETWEEN -1000 AND 1000", "u8 > 200", "u16 IN (200, 400, 59800)",
                "u32 >= 4000000000", "u64 > DECIMAL '100000000000'", "f32 > 10", "f64 < -5", "flag", "NOT flag",
                "sym = 'ÉCLAIR'", "sym > 'B'", "sym LIKE '%A%'", "sym IS NULL", "bytes = X'05ff00'",
                "price < DECIMAL '-10.00'", "price IN (DECIMAL '-88.63', DECIMAL '-87.26')",
                "big > DECIMAL '-1234567890123456789012.00100'", "day < DATE '1965-01-01'", "day IS NOT NULL",
                "at > TIMESTAMP '1970-01-05 00:00:00'", "tod < TIME '00:10:00'", "pt.x = 11", "pt IS NULL",
                "contains(tags, 12)")) {
            String sql = "SELECT id FROM types WHERE " + where;
            assertThat(computeActual(pushdown(true), sql).getOnlyColumnAsSet()).as(sql)
                    .isEqualTo(computeActual(pushdown(false), sql).getOnlyColumnAsSet());
        }
        // and an independent check of two of them
        assertThat(computeActual("SELECT count(*) FROM types WHERE sym = 'ÉCLAIR'").getOnlyValue())
                .isEqualTo((long) countRows(r -> !isNull(r) && r % 4 == 2));
        assertThat(computeActual("SELECT count(*) FROM types WHERE price < DECIMAL '-10.00'").getOnlyValue())
                .isEqualTo((long) countRows(r -> !isNull(r) && r * 137L - 9000 < -1000));
    }

    private Session pushdown(boolean on) {
        return Session.builder(getSession())
                .setCatalogSessionProperty(VortexQueryRunner.CATALOG, VortexSessionProperties.PUSHDOWN_ENABLED, String.valueOf(on))
                .build();
    }

    private static int countRows(java.util.function.IntPredicate p) {
        int n = 0;
        for (int r = 0; r < ROWS; r++) {
            n += p.test(r) ? 1 : 0;
        }
        return n;
    }

    private static long sumRows(java.util.function.IntPredicate p) {
        long s = 0;
        for (int r = 0; r < ROWS; r++) {
            s += p.test(r) ? r : 0;
        }
        return s;
    }
}
