package io.vortex4j.engine;

import io.vortex4j.calcite.VortexScanSpec;
import io.vortex4j.calcite.jdbc.NativeExecution;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexNode;

/**
 * The native engine: a statement's logical plan, made ready ({@link LogicalPlans}), goes to
 * DataFusion as Substrait ({@link SubstraitPlans}) over our scans ({@link NativeTables}), and
 * its rows come back as Arrow batches ({@link NativeRows}). A statement is declined, and Calcite
 * runs it, when any step cannot take it: a table that is not a Vortex table or has columns the
 * scan does not hand up as Calcite reads them, a JDBC parameter, an expression isthmus cannot
 * express, or a plan DataFusion cannot read or plan (tried while the statement is prepared).
 *
 * <p>{@code -Dvortex4j.engine.memory=BYTES} (suffix {@code k}, {@code m} or {@code g}) bounds
 * the memory of a query's operators (default: unbounded); a query needing more fails with an
 * error saying so.
 */
public final class NativeEngine implements NativeExecution {
    /** The system property bounding a native query's operator memory. */
    public static final String MEMORY_PROPERTY = "vortex4j.engine.memory";

    /** For {@link java.util.ServiceLoader}. */
    public NativeEngine() {}

    @Override
    public Plan plan(RelRoot root, CalcitePrepare.Context context) {
        try {
            if (hasParameters(root.rel)) {
                return declined("the statement has parameters");
            }
            RelNode rel = LogicalPlans.prepare(root);
            NativeTables tables = NativeTables.of(rel);
            byte[] plan = SubstraitPlans.of(rel);
            List<ResultValues> columns = new ArrayList<>();
            for (RelDataTypeField f : root.validatedRowType.getFieldList()) {
                columns.add(new ResultValues(f.getName(), f.getType()));
            }
            List<String> explain = explain(plan, tables);
            return new DataFusionPlan(plan, tables, columns, explain, memoryLimit());
        } catch (NativeTables.Declined e) {
            return declined(e.getMessage());
        } catch (RuntimeException e) {
            return declined(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /** DataFusion's physical plan: planning it proves DataFusion takes the plan. */
    private static List<String> explain(byte[] plan, NativeTables tables) {
        long query = EngineNative.openQuery(tables.threads(), 0);
        try {
            tables.register(query);
            return EngineNative.explain(query, plan).lines().toList();
        } catch (RuntimeException e) {
            throw new NativeTables.Declined(e.getMessage());
        } finally {
            EngineNative.freeQuery(query);
        }
    }

    private static boolean hasParameters(RelNode rel) {
        boolean[] found = {false};
        RexShuttle finder = new RexShuttle() {
            @Override
            public RexNode visitDynamicParam(RexDynamicParam p) {
                found[0] = true;
                return p;
            }
        };
        rel.accept(new org.apache.calcite.rel.RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                other.accept(finder);
                return super.visit(other);
            }
        });
        return found[0];
    }

    /** {@value #MEMORY_PROPERTY} in bytes, 0 when unset. */
    static long memoryLimit() {
        String v = System.getProperty(MEMORY_PROPERTY);
        if (v == null || v.isBlank()) {
            return 0;
        }
        String s = v.trim().toLowerCase(Locale.ROOT);
        long unit = s.endsWith("g") ? 1L << 30 : s.endsWith("m") ? 1L << 20 : s.endsWith("k") ? 1L << 10 : 1;
        try {
            long n = Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 1));
            if (n >= 0) {
                return n * unit;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(MEMORY_PROPERTY + " must be a number of bytes (suffix k, m or g), not '" + v + "'");
    }

    private static Plan declined(String reason) {
        return new Plan() {
            @Override
            public String declined() {
                return reason;
            }

            @Override
            public Enumerable<Object> execute(DataContext root) {
                throw new IllegalStateException("declined: " + reason);
            }

            @Override
            public List<String> explain() {
                return List.of();
            }
        };
    }

    /** A statement DataFusion runs. */
    private static final class DataFusionPlan implements Plan {
        private final byte[] plan;
        private final NativeTables tables;
        private final List<ResultValues> columns;
        private final List<String> explain;
        private final long memoryLimit;

        DataFusionPlan(byte[] plan, NativeTables tables, List<ResultValues> columns, List<String> explain,
                long memoryLimit) {
            this.plan = plan;
            this.tables = tables;
            this.columns = columns;
            this.explain = explain;
            this.memoryLimit = memoryLimit;
        }

        @Override
        public String declined() {
            return null;
        }

        @Override
        public Enumerable<Object> execute(DataContext root) {
            return new AbstractEnumerable<>() {
                @Override
                public Enumerator<Object> enumerator() {
                    return new NativeRows(plan, tables, memoryLimit, columns, VortexScanSpec.cancellation(root));
                }
            };
        }

        @Override
        public List<String> explain() {
            return explain;
        }
    }
}
