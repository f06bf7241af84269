package io.vortex4j.reader;

import io.vortex4j.VortexException;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.compute.Compute;
import io.vortex4j.reader.compute.GroupAggregate;
import io.vortex4j.reader.oracle.ReferenceScan;
import io.vortex4j.reader.predicate.Predicate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * The harness of {@link CorruptFileFuzzTest}, run in a child JVM: variants of a small file
 * written by vortex's own writer (bytes flipped anywhere, runs zeroed, the file truncated), each
 * opened and read through every path (every value of every column, native and dictionary filters,
 * the native aggregation, vortex's own filtered scan). A variant must read or fail with a
 * documented exception: {@link VortexException} or, for a dtype vortex4j does not read, {@link
 * UnsupportedOperationException}. Prints {@code variant N KIND} before each, so a crash or hang
 * names its variant, then {@code summary ...}; exits 0 when no variant threw anything else.
 *
 * <pre>java ... io.vortex4j.reader.CorruptFileFuzz SEED FROM TO [FILE]</pre>
 *
 * With {@code FILE} (e.g. a {@code trades} sample) that file is damaged instead.
 */
public final class CorruptFileFuzz {
    private CorruptFileFuzz() {}

    static final String[] KINDS = {"flip-1", "flip-8", "zero-run", "truncate", "flip-tail"};

    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[0]);
        int from = Integer.parseInt(args[1]);
        int to = Integer.parseInt(args[2]);
        Path dir = Fixtures.tempDir();
        Path original = dir.resolve("original.vortex");
        if (args.length > 3) {
            Files.copy(Path.of(args[3]), original);
        } else {
            DictFixture.write(original.toString(), 4, 700, seed, true);
        }
        byte[] bytes = Files.readAllBytes(original);
        List<Object[]> want = read(original);
        int clean = 0;
        int wrong = 0;
        int failedOpen = 0;
        int failedRead = 0;
        int untyped = 0;
        Path p = dir.resolve("variant.vortex");
        for (int v = from; v < to; v++) {
            SplittableRandom r = new SplittableRandom(seed * 1_000_003 + v);
            String kind = KINDS[v % KINDS.length];
            System.out.println("variant " + v + " " + kind);
            System.out.flush();
            Files.write(p, corrupt(bytes, kind, r));
            List<Object[]> got;
            try {
                VortexFile.open(p).close();
            } catch (VortexException e) {
                failedOpen++;
                continue;
            } catch (Throwable t) {
                untyped++;
                report(v, kind, t);
                continue;
            }
            try {
                got = read(p);
            } catch (VortexException | UnsupportedOperationException e) {
                failedRead++;
                continue;
            } catch (Throwable t) {
                untyped++;
                report(v, kind, t);
                continue;
            }
            if (same(want, got)) {
                clean++;
            } else {
                wrong++;
            }
        }
        System.out.println("summary variants=" + (to - from) + " failed-open=" + failedOpen + " failed-read=" + failedRead
                + " read-same=" + clean + " read-different=" + wrong + " untyped=" + untyped + " bytes=" + bytes.length);
        System.exit(untyped == 0 ? 0 : 3);
    }

    /** {@code bytes} damaged as {@code kind} says, at places drawn from {@code r}. */
    static byte[] corrupt(byte[] bytes, String kind, SplittableRandom r) {
        byte[] b = bytes.clone();
        int n = b.length;
        switch (kind) {
            case "flip-1" -> b[r.nextInt(n)] ^= (byte) (1 + r.nextInt(255));
            case "flip-8" -> {
                for (int k = 0; k < 8; k++) {
                    b[r.nextInt(n)] ^= (byte) (1 + r.nextInt(255));
                }
            }
            case "zero-run" -> {
                int at = r.nextInt(n);
                Arrays.fill(b, at, Math.min(n, at + 1 + r.nextInt(256)), (byte) 0);
            }
            case "truncate" -> b = Arrays.copyOf(b, r.nextInt(n));
            default -> b[n - 1 - r.nextInt(Math.min(n, 2048))] ^= (byte) (1 + r.nextInt(255)); // footer, layout, stats
        }
        return b;
    }

    /** Every value of every column, then the filter counts and aggregates, as one list of rows. */
    static List<Object[]> read(Path p) {
        List<Object[]> rows = new ArrayList<>();
        try (VortexFile file = VortexFile.open(p); Scan scan = file.scan()) {
            List<Predicate> filters = new ArrayList<>();
            for (Predicate f : List.of(Predicate.eq("s", "AAPL"), Predicate.in("s", "MSFT", "Ω", null),
                    Predicate.gt("id", 900L), Predicate.isNull("v"), Predicate.lt("v", 0L),
                    Predicate.eq("sym", "AAPL"), Predicate.gt("volume", 500L))) {
                if (file.schema().names().containsAll(f.columns())) {
                    filters.add(f);
                }
            }
            String key = file.schema().names().contains("s") ? "s" : "sym";
            String summed = file.schema().names().contains("v") ? "v" : "volume";
            int columns = file.schema().size();
            for (Chunk c : scan) {
                try (c) {
                    for (int i = 0; i < c.length(); i++) {
                        Object[] row = new Object[columns];
                        for (int col = 0; col < columns; col++) {
                            row[col] = Values.valueAt(c.column(col), i);
                        }
                        rows.add(row);
                    }
                    Object[] counts = new Object[filters.size()];
                    for (int k = 0; k < counts.length; k++) {
                        counts[k] = Compute.count(c, filters.get(k));
                    }
                    rows.add(counts);
                }
            }
            GroupAggregate.Result g = GroupAggregate.run(file, key, null,
                    List.of(GroupAggregate.Aggregate.countStar(), GroupAggregate.Aggregate.of(GroupAggregate.Function.SUM, summed)));
            for (int k = 0; k < g.size(); k++) {
                rows.add(new Object[] {g.key(k), g.value(k, 0), g.value(k, 1)});
            }
            for (Predicate f : filters) {
                rows.add(new Object[] {ReferenceScan.selectedRows(file, f).length});
            }
        }
        return rows;
    }

    private static boolean same(List<Object[]> a, List<Object[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.deepEquals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static void report(int v, String kind, Throwable t) {
        java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        System.out.println("UNTYPED variant " + v + " " + kind + ": " + w);
        Objects.requireNonNull(t);
    }
}
