package io.vortex4j.engine;

import io.substrait.isthmus.expression.FunctionMappings;
import io.vortex4j.calcite.jdbc.DialectFunctions;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's date truncation and date formatting as DataFusion's {@code date_trunc} and {@code
 * to_char} ({@code functions_datetime_text.yaml}), where both compute what Calcite does:
 *
 * <ul>
 *   <li>{@code FLOOR(x TO unit)} of a DATE or TIMESTAMP, for a year, quarter, month, week, day,
 *       hour, minute, second or millisecond: a DATE goes through a TIMESTAMP(3) and back; Calcite's
 *       weeks start on Sunday, DataFusion's on Monday, so a week is truncated one day later and
 *       moved back a day. (Decades and the rest stay with Calcite.)</li>
 *   <li>{@code FORMAT_DATETIME(format, x)} ({@code strftime}) with a literal format of only the
 *       elements {@link DialectFunctions#STRFTIME_ELEMENTS}, which chrono writes as Calcite does.</li>
 * </ul>
 */
final class NativeFunctions {
    private NativeFunctions() {}

    /** DataFusion's {@code date_trunc(unit, timestamp)}, typed as its timestamp. */
    static final SqlFunction DATE_TRUNC = new SqlFunction("DATAFUSION_DATE_TRUNC", SqlKind.OTHER_FUNCTION,
            ReturnTypes.ARG1, null, null, SqlFunctionCategory.TIMEDATE);

    /** DataFusion's {@code to_char(timestamp, format)}. */
    static final SqlFunction TO_CHAR = new SqlFunction("DATAFUSION_TO_CHAR", SqlKind.OTHER_FUNCTION,
            ReturnTypes.VARCHAR_NULLABLE, null, null, SqlFunctionCategory.STRING);

    /** The Substrait names isthmus writes for them. */
    static final List<FunctionMappings.Sig> SIGNATURES = List.of(new FunctionMappings.Sig(DATE_TRUNC, "date_trunc"),
            new FunctionMappings.Sig(TO_CHAR, "to_char"));

    private static final Map<TimeUnitRange, String> UNITS = Map.of(TimeUnitRange.YEAR, "year",
            TimeUnitRange.QUARTER, "quarter", TimeUnitRange.MONTH, "month", TimeUnitRange.WEEK, "week",
            TimeUnitRange.DAY, "day", TimeUnitRange.HOUR, "hour", TimeUnitRange.MINUTE, "minute",
            TimeUnitRange.SECOND, "second", TimeUnitRange.MILLISECOND, "millisecond");

    /** {@code rel} with the calls above in DataFusion's terms; other calls unchanged. */
    static RelNode of(RelNode rel) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                return visited.accept(new Calls(visited.getCluster().getRexBuilder()));
            }
        });
    }

    private static final class Calls extends RexShuttle {
        private final RexBuilder rex;

        Calls(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            RexCall visited = (RexCall) super.visitCall(call);
            if (visited.getKind() == SqlKind.FLOOR && visited.getOperands().size() == 2) {
                RexNode truncated = truncation(visited);
                return truncated == null ? visited : truncated;
            }
            if (visited.getOperator() == SqlLibraryOperators.FORMAT_DATETIME && chronoFormat(visited.getOperands().get(0))) {
                RexNode timestamp = visited.getOperands().get(1);
                return rex.makeCall(visited.getType(), TO_CHAR, List.of(timestamp, visited.getOperands().get(0)));
            }
            return visited;
        }

        private RexNode truncation(RexCall floor) {
            RexNode x = floor.getOperands().get(0);
            if (!(floor.getOperands().get(1) instanceof RexLiteral flag)
                    || !(flag.getValue() instanceof TimeUnitRange unit) || !UNITS.containsKey(unit)) {
                return null;
            }
            SqlTypeName type = x.getType().getSqlTypeName();
            boolean belowADay = DialectFunctions.belowADay(unit.startUnit);
            if (type != SqlTypeName.DATE && type != SqlTypeName.TIMESTAMP || type == SqlTypeName.DATE && belowADay) {
                return null; // Calcite floors a DATE to an hour as no DataFusion function does
            }
            RelDataType timestampType = type == SqlTypeName.DATE
                    ? rex.getTypeFactory().createTypeWithNullability(
                            rex.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, 3), x.getType().isNullable())
                    : x.getType();
            RexNode timestamp = type == SqlTypeName.DATE ? rex.makeCast(timestampType, x) : x;
            RexNode truncated;
            if (unit == TimeUnitRange.WEEK) {
                // Sunday's week: Monday's week of the next day, a day earlier.
                RexNode nextDay = plusDays(timestamp, 1);
                truncated = plusDays(rex.makeCall(timestampType, DATE_TRUNC, List.of(rex.makeLiteral("week"), nextDay)), -1);
            } else {
                truncated = rex.makeCall(timestampType, DATE_TRUNC, List.of(rex.makeLiteral(UNITS.get(unit)), timestamp));
            }
            return type == SqlTypeName.DATE ? rex.makeCast(floor.getType(), truncated) : truncated;
        }

        private RexNode plusDays(RexNode timestamp, int days) {
            RexNode interval = rex.makeIntervalLiteral(BigDecimal.valueOf(days * 86_400_000L),
                    new SqlIntervalQualifier(TimeUnit.DAY, null, SqlParserPos.ZERO));
            return rex.makeCall(timestamp.getType(), SqlStdOperatorTable.DATETIME_PLUS, List.of(timestamp, interval));
        }

        private static boolean chronoFormat(RexNode format) {
            if (!(format instanceof RexLiteral literal) || literal.getValueAs(String.class) == null) {
                return false;
            }
            return DialectFunctions.unsupportedStrftimeElement(literal.getValueAs(String.class)) == null;
        }
    }
}
