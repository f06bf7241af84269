package io.vortex4j.cli;

import io.vortex4j.reader.Field;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.compute.PredicateEvaluator;
import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code filter FILE --column C --op OP [--value V ...] [--path dict|rowwise|native|all]}: counts
 * the rows a predicate selects, by each evaluation path, with the best of 5 timed runs after a
 * warm-up: {@code dict} = the Java reader with the native dictionary filter, {@code rowwise} =
 * the Java generic path, {@code native} = vortex's own filtered scan.
 */
@Command(name = "filter", description = "Count the rows a predicate selects, timing each evaluation path.")
final class FilterCommand implements Callable<Integer> {
    enum Op { eq, ne, lt, gt, le, ge, between, in, not_in, is_null, is_not_null }

    @Parameters(index = "0", description = "the .vortex file (or its location in an object store)")
    String path;

    @Option(names = "--column", required = true, description = "the column to filter")
    String column;

    @Option(names = "--op", required = true,
            description = "eq, ne, lt, gt, le, ge, between, in, not-in, is-null, is-not-null")
    String op;

    @Option(names = "--value", arity = "0..*", description = "the literal(s); NULL for SQL NULL")
    List<String> values = new ArrayList<>();

    @Option(names = "--path", defaultValue = "all", description = "dict, rowwise, native or all (default)")
    String pathName;

    @Option(names = "--runs", defaultValue = "5", description = "timed runs after the warm-up (default 5)")
    int runs;

    @Override
    public Integer call() {
        Op o;
        try {
            o = Op.valueOf(op.replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown --op '" + op + "'");
        }
        List<String> paths = pathName.equals("all") ? List.of("dict", "rowwise", "native") : List.of(pathName);
        for (String p : paths) {
            if (!List.of("dict", "rowwise", "native").contains(p)) {
                throw new IllegalArgumentException("unknown --path '" + p + "'; use dict, rowwise, native or all");
            }
        }
        try (VortexFile file = VortexFile.open(path)) {
            Predicate predicate = predicate(file.schema().field(column), o);
            for (String p : paths) {
                LongSupplier run = p.equals("native")
                        ? () -> file.referenceFilteredCount(predicate, false, column)
                        : () -> javaCount(file, predicate, p.equals("dict"));
                long[] result = bestOf(run, runs);
                System.out.printf("path=%s rows=%d ms=%.3f%n", p, result[0], result[1] / 1e6);
            }
        } finally {
            PredicateEvaluator.setDictFilterEnabled(true);
        }
        return 0;
    }

    private Predicate predicate(Field field, Op o) {
        List<Object> lits = new ArrayList<>();
        for (String v : values) {
            lits.add(Literals.normalize(Literals.parse(field, v)));
        }
        int need = switch (o) {
            case is_null, is_not_null -> 0;
            case between -> 2;
            case in, not_in -> -1;
            default -> 1;
        };
        if (need >= 0 && lits.size() != need) {
            throw new IllegalArgumentException("--op " + op + " takes " + need + " --value, got " + lits.size());
        }
        return switch (o) {
            case eq -> Predicate.eq(column, lits.get(0));
            case ne -> Predicate.ne(column, lits.get(0));
            case lt -> Predicate.lt(column, lits.get(0));
            case gt -> Predicate.gt(column, lits.get(0));
            case le -> Predicate.le(column, lits.get(0));
            case ge -> Predicate.ge(column, lits.get(0));
            case between -> Predicate.between(column, lits.get(0), lits.get(1));
            case in -> Predicate.in(column, lits);
            case not_in -> Predicate.notIn(column, lits);
            case is_null -> Predicate.isNull(column);
            case is_not_null -> Predicate.isNotNull(column);
        };
    }

    /** Counts with the Java reader: the dictionary filter on ({@code dict}) or off (rowwise). */
    static long javaCount(VortexFile file, Predicate predicate, boolean dict) {
        PredicateEvaluator.setDictFilterEnabled(dict);
        try (Scan scan = file.scan(new ArrayList<>(predicate.columns()))) {
            return scan.countRemaining(predicate);
        }
    }

    /** {rows, best nanoseconds} over {@code runs} runs after one warm-up. */
    static long[] bestOf(LongSupplier run, int runs) {
        long rows = run.getAsLong();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < Math.max(1, runs); i++) {
            long t0 = System.nanoTime();
            long r = run.getAsLong();
            best = Math.min(best, System.nanoTime() - t0);
            if (r != rows) {
                throw new IllegalStateException("runs disagree: " + rows + " vs " + r + " rows");
            }
        }
        return new long[] {rows, best};
    }
}
