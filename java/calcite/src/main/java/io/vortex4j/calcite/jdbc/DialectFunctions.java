package io.vortex4j.calcite.jdbc;

import static org.apache.calcite.util.Static.RESOURCE;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorException;

/**
 * Functions DuckDB users write that Calcite's libraries lack, each rewritten while the statement
 * is validated into Calcite's own operators (so both engines and the push-down rules see only
 * those):
 *
 * <ul>
 *   <li>{@code date_trunc('unit', x)}: {@code x} truncated to the start of its {@code unit}
 *       ({@code millisecond}, {@code second}, {@code minute}, {@code hour}, {@code day},
 *       {@code week} (starting on Monday), {@code month}, {@code quarter}, {@code year},
 *       {@code decade}), as {@code FLOOR(x TO unit)}. From a day up the result has the type of
 *       {@code x}, as in Trino (DuckDB and PostgreSQL make a TIMESTAMP of a DATE); below a day it
 *       is a TIMESTAMP(3).</li>
 *   <li>{@code strftime(x, 'format')}: a DATE or TIMESTAMP as text, with the format elements of
 *       {@link #STRFTIME_ELEMENTS} (Calcite's {@code FORMAT_DATETIME}); other elements are an
 *       error, not a different text.</li>
 *   <li>{@code regexp_matches(s, 'pattern')}: whether the pattern (a Java regular expression)
 *       matches part of {@code s} ({@code REGEXP_LIKE}).</li>
 *   <li>{@code contains(s, t)}: whether {@code t} occurs in {@code s} ({@code POSITION(t IN s) > 0}).</li>
 *   <li>{@code ends_with(s, t)}: whether {@code s} ends with {@code t} (BigQuery's, which Calcite has).</li>
 *   <li>{@code ifnull(a, b)}: {@code COALESCE(a, b)}.</li>
 * </ul>
 *
 * <p>PostgreSQL's functions ({@code length}, {@code to_char}, {@code string_agg}, {@code
 * regexp_like}, {@code left}, {@code split_part}, …) come from Calcite's PostgreSQL library, which
 * {@code jdbc:vortex:} connections load beside the standard functions (the {@code fun} property).
 */
public final class DialectFunctions {
    private DialectFunctions() {}

    /** The units {@code date_trunc} takes, by their names (and plurals) in DuckDB and PostgreSQL. */
    private static final Map<String, TimeUnit> TRUNC_UNITS = Map.ofEntries(
            Map.entry("millisecond", TimeUnit.MILLISECOND), Map.entry("milliseconds", TimeUnit.MILLISECOND),
            Map.entry("second", TimeUnit.SECOND), Map.entry("seconds", TimeUnit.SECOND),
            Map.entry("minute", TimeUnit.MINUTE), Map.entry("minutes", TimeUnit.MINUTE),
            Map.entry("hour", TimeUnit.HOUR), Map.entry("hours", TimeUnit.HOUR),
            Map.entry("day", TimeUnit.DAY), Map.entry("days", TimeUnit.DAY),
            Map.entry("week", TimeUnit.WEEK), Map.entry("weeks", TimeUnit.WEEK),
            Map.entry("month", TimeUnit.MONTH), Map.entry("months", TimeUnit.MONTH),
            Map.entry("quarter", TimeUnit.QUARTER), Map.entry("quarters", TimeUnit.QUARTER),
            Map.entry("year", TimeUnit.YEAR), Map.entry("years", TimeUnit.YEAR),
            Map.entry("decade", TimeUnit.DECADE), Map.entry("decades", TimeUnit.DECADE));

    private static final Set<TimeUnit> BELOW_A_DAY = EnumSet.of(TimeUnit.MILLISECOND, TimeUnit.SECOND,
            TimeUnit.MINUTE, TimeUnit.HOUR);

    /**
     * The {@code strftime} format elements whose text Calcite's {@code FORMAT_DATETIME} writes as
     * DuckDB does: year, two-digit year, month, day, day of the year, hours (24 and 12), minutes,
     * seconds, AM/PM, weekday and month names (short and full).
     */
    public static final Set<Character> STRFTIME_ELEMENTS = Set.of('Y', 'y', 'm', 'd', 'j', 'H', 'I', 'M', 'S', 'p',
            'a', 'A', 'b', 'B');

    private static final Pattern ELEMENT = Pattern.compile("%(.?)");

    /** Whether {@code unit} is shorter than a day, where Calcite floors a DATE as no one else does. */
    public static boolean belowADay(TimeUnit unit) {
        return BELOW_A_DAY.contains(unit);
    }

    /**
     * The first format element of {@code format} outside {@link #STRFTIME_ELEMENTS} ({@code "%g"},
     * or {@code "%"} for a format ending in one), or null when every element is in it.
     */
    public static String unsupportedStrftimeElement(String format) {
        Matcher m = ELEMENT.matcher(format);
        while (m.find()) {
            String element = m.group(1);
            if (element.isEmpty() || !STRFTIME_ELEMENTS.contains(element.charAt(0))) {
                return "%" + element;
            }
        }
        return null;
    }

    /** The functions, to chain after the connection's libraries. */
    public static SqlOperatorTable table() {
        // FORMAT_DATETIME is what strftime becomes: a call's operator is looked up again by name.
        return SqlOperatorTables.of(List.of(DATE_TRUNC, STRFTIME, REGEXP_MATCHES, CONTAINS, IFNULL,
                SqlLibraryOperators.ENDS_WITH, SqlLibraryOperators.FORMAT_DATETIME));
    }

    /**
     * {@code call} with {@code date_trunc} as this class defines it when it is {@code
     * date_trunc('unit', x)}: Calcite's parser reads every {@code DATE_TRUNC} as BigQuery's
     * ({@code DATE_TRUNC(x, unit)}), before any operator table is asked.
     */
    static void claim(SqlNode node) {
        if (node instanceof SqlBasicCall call && call.getOperator().getName().equalsIgnoreCase("DATE_TRUNC")
                && call.operandCount() == 2) {
            SqlNode second = call.operand(1);
            // BigQuery's form ends with a unit: DATE_TRUNC(x, MONTH).
            boolean bigQuery = second instanceof SqlIntervalQualifier
                    || second instanceof SqlIdentifier id && id.isSimple() && isTimeUnit(id.getSimple());
            if (call.operand(0) instanceof SqlCharStringLiteral || !bigQuery) {
                call.setOperator(DATE_TRUNC);
            }
        }
    }

    private static final SqlFunction DATE_TRUNC = new Rewritten("DATE_TRUNC", 2) {
        @Override
        SqlNode rewrite(SqlValidator validator, SqlCall call, List<SqlNode> args) {
            String unitName = stringLiteral(call, args.get(0), "the unit");
            TimeUnit unit = TRUNC_UNITS.get(unitName.toLowerCase(Locale.ROOT));
            if (unit == null) {
                throw error(call, "date_trunc takes the units millisecond, second, minute, hour, day, week, month,"
                        + " quarter, year and decade, not '" + unitName + "'");
            }
            SqlParserPos pos = call.getParserPosition();
            SqlNode x = args.get(1);
            if (belowADay(unit)) {
                // Below a day a DATE is its midnight as a TIMESTAMP, as in DuckDB; FLOOR takes no
                // hour of a DATE. A TIMESTAMP keeps its value (a TIMESTAMP(0) becomes TIMESTAMP(3)).
                x = SqlStdOperatorTable.CAST.createCall(pos, x, timestampMillis(pos));
            }
            if (unit == TimeUnit.WEEK) {
                // FLOOR(x TO WEEK) starts weeks on Sunday; DuckDB's and PostgreSQL's start on Monday.
                SqlNode dayBefore = SqlStdOperatorTable.TIMESTAMP_ADD.createCall(pos, dayUnit(pos),
                        SqlLiteral.createExactNumeric("-1", pos), x);
                return SqlStdOperatorTable.TIMESTAMP_ADD.createCall(pos, dayUnit(pos),
                        SqlLiteral.createExactNumeric("1", pos), floor(dayBefore, TimeUnit.WEEK, pos));
            }
            return floor(x, unit, pos);
        }
    };

    private static final SqlFunction STRFTIME = new Rewritten("STRFTIME", 2) {
        @Override
        SqlNode rewrite(SqlValidator validator, SqlCall call, List<SqlNode> args) {
            String format = stringLiteral(call, args.get(1), "the format");
            String unsupported = unsupportedStrftimeElement(format);
            if (unsupported != null) {
                throw error(call, "strftime does not take the format element '" + unsupported + "' (it takes %"
                        + String.join(", %", STRFTIME_ELEMENTS.stream().map(String::valueOf).sorted().toList())
                        + ")");
            }
            SqlParserPos pos = call.getParserPosition();
            SqlNode timestamp = SqlStdOperatorTable.CAST.createCall(pos, args.get(0), timestampMillis(pos));
            return SqlLibraryOperators.FORMAT_DATETIME.createCall(pos, args.get(1), timestamp);
        }
    };

    private static final SqlFunction REGEXP_MATCHES = new Rewritten("REGEXP_MATCHES", 2) {
        @Override
        SqlNode rewrite(SqlValidator validator, SqlCall call, List<SqlNode> args) {
            return SqlLibraryOperators.REGEXP_LIKE.createCall(call.getParserPosition(), args);
        }
    };

    private static final SqlFunction CONTAINS = new Rewritten("CONTAINS", 2) {
        @Override
        SqlNode rewrite(SqlValidator validator, SqlCall call, List<SqlNode> args) {
            SqlParserPos pos = call.getParserPosition();
            return SqlStdOperatorTable.GREATER_THAN.createCall(pos,
                    SqlStdOperatorTable.POSITION.createCall(pos, args.get(1), args.get(0)),
                    SqlLiteral.createExactNumeric("0", pos));
        }
    };

    private static final SqlFunction IFNULL = new Rewritten("IFNULL", 2) {
        @Override
        SqlNode rewrite(SqlValidator validator, SqlCall call, List<SqlNode> args) {
            return SqlStdOperatorTable.COALESCE.createCall(call.getParserPosition(), args);
        }
    };

    private static boolean isTimeUnit(String name) {
        for (TimeUnit unit : TimeUnit.values()) {
            if (unit.name().equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    private static SqlNode floor(SqlNode x, TimeUnit unit, SqlParserPos pos) {
        return SqlStdOperatorTable.FLOOR.createCall(pos, x, new SqlIntervalQualifier(unit, null, pos));
    }

    private static SqlDataTypeSpec timestampMillis(SqlParserPos pos) {
        return new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, 3, pos), pos);
    }

    private static SqlNode dayUnit(SqlParserPos pos) {
        return new SqlIntervalQualifier(TimeUnit.DAY, null, pos);
    }

    private static String stringLiteral(SqlCall call, SqlNode arg, String what) {
        if (arg instanceof SqlCharStringLiteral literal) {
            return literal.getValueAs(String.class);
        }
        throw error(call, call.getOperator().getName().toLowerCase(Locale.ROOT) + ": " + what
                + " must be a string literal");
    }

    private static RuntimeException error(SqlCall call, String message) {
        SqlParserPos pos = call.getParserPosition();
        return RESOURCE.validatorContext(pos.getLineNum(), pos.getColumnNum(), pos.getEndLineNum(),
                pos.getEndColumnNum()).ex(new SqlValidatorException(message, null));
    }

    /**
     * A function that exists only until validation rewrites it ({@link SqlValidator}'s call
     * rewriting runs before operands are typed, so the rewrite sees the syntax only).
     */
    private abstract static class Rewritten extends SqlFunction {
        private final int arity;

        Rewritten(String name, int arity) {
            super(name, SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0, null, OperandTypes.VARIADIC,
                    SqlFunctionCategory.USER_DEFINED_FUNCTION);
            this.arity = arity;
        }

        abstract SqlNode rewrite(SqlValidator validator, SqlCall call, List<SqlNode> args);

        @Override
        public SqlNode rewriteCall(SqlValidator validator, SqlCall call) {
            if (call.operandCount() != arity) {
                throw validator.newValidationError(call, RESOURCE.invalidArgCount(getName(), arity));
            }
            return rewrite(validator, call, call.getOperandList());
        }
    }
}
