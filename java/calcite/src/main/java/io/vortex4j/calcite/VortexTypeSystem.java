package io.vortex4j.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's default type system with these changes, so that Vortex values keep their types and
 * sums never wrap around:
 *
 * <ul>
 *   <li>DECIMAL of up to 38 digits (Calcite's default is 19), so that Vortex decimals (precision
 *       up to 38) and u64 columns (DECIMAL(20, 0)) keep their types and every value fits;
 *   <li>integer sums widened as PostgreSQL does: {@code SUM} (and {@code $SUM0}) of TINYINT,
 *       SMALLINT and INTEGER is BIGINT, and of DECIMAL(p, s) DECIMAL(38, s). Calcite's default
 *       keeps the argument's type, and its generated code then adds in that Java type, wrapping
 *       around on overflow. A BIGINT sum
 *       stays BIGINT here; {@link ExactBigintSums}, which {@code jdbc:vortex:} connections use,
 *       makes it DECIMAL(38, 0);
 *   <li>{@code AVG} of integers and decimals is DOUBLE, as in DuckDB: Calcite computes AVG as
 *       {@code CAST(SUM AS <AVG type>) / COUNT}, so with its default (the argument's type) an
 *       integer average is truncated and fails once the sum outgrows the argument's type ("out
 *       of range"), and a decimal one is divided with 16 significant digits. The sum is exact,
 *       the quotient the double nearest to it;
 *   <li>a quotient with a DECIMAL operand ({@code price / qty}, {@code SUM(a) / SUM(b)}) is DOUBLE,
 *       as in DuckDB; Calcite's default is a DECIMAL of at most 6 fractional digits, so a ratio
 *       such as 0.0361 came out with 3 significant digits.
 * </ul>
 *
 * <p>Use it with {@code jdbc:calcite:} connections ({@link VortexSql#connectionProperties}).
 */
public class VortexTypeSystem extends RelDataTypeSystemImpl {
    /** The instance Calcite's plugin loader picks up. */
    public static final RelDataTypeSystem INSTANCE = new VortexTypeSystem();

    /** The maximum precision and scale of DECIMAL. */
    public static final int MAX_DECIMAL_DIGITS = 38;

    /** Calcite may also instantiate the class itself. */
    public VortexTypeSystem() {}

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL_DIGITS : super.getMaxPrecision(typeName);
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL_DIGITS : super.getMaxScale(typeName);
    }

    /** See the class comment: integer sums widen, so that they are exact. */
    @Override
    public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        RelDataType widened;
        switch (argumentType.getSqlTypeName()) {
            case TINYINT:
            case SMALLINT:
            case INTEGER:
                widened = typeFactory.createSqlType(SqlTypeName.BIGINT);
                break;
            default:
                return super.deriveSumType(typeFactory, argumentType);
        }
        return typeFactory.createTypeWithNullability(widened, argumentType.isNullable());
    }

    /**
     * {@link VortexTypeSystem} with BIGINT sums of type DECIMAL(38, 0), so that they never wrap
     * either. Calcite's code generator (1.42) cannot compile such a sum on its own (the driver's
     * {@code SumArgumentCasts} makes it compilable), so this type system is for {@code
     * jdbc:vortex:} connections ({@link io.vortex4j.calcite.jdbc.VortexDriver}, {@link
     * VortexSql#connect}), whose statement preparation applies that fix.
     */
    public static final class ExactBigintSums extends VortexTypeSystem {
        /** The instance Calcite's plugin loader picks up (it would otherwise find the inherited one). */
        public static final RelDataTypeSystem INSTANCE = new ExactBigintSums();

        /** Calcite may also instantiate the class itself. */
        public ExactBigintSums() {}

        @Override
        public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
            if (argumentType.getSqlTypeName() == SqlTypeName.BIGINT) {
                return typeFactory.createTypeWithNullability(
                        typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_DIGITS, 0), argumentType.isNullable());
            }
            return super.deriveSumType(typeFactory, argumentType);
        }
    }

    /** See the class comment: averages of exact numbers are DOUBLE. */
    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        switch (argumentType.getSqlTypeName()) {
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case DECIMAL:
                return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE),
                        argumentType.isNullable());
            default:
                return super.deriveAvgAggType(typeFactory, argumentType);
        }
    }

    /** See the class comment: a quotient with a DECIMAL operand is DOUBLE. */
    @Override
    public RelDataType deriveDecimalDivideType(RelDataTypeFactory typeFactory, RelDataType type1, RelDataType type2) {
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE),
                type1.isNullable() || type2.isNullable());
    }
}
