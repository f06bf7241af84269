package io.vortex4j.calcite;

import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's default type system with decimals of up to 38 digits (Calcite's default is 19), so
 * that Vortex decimals (precision up to 38) and u64 columns (DECIMAL(20, 0)) keep their types
 * and every value fits. {@link VortexSql#connect} uses it; with a model, add {@code
 * typeSystem=io.vortex4j.calcite.VortexTypeSystem} to the connection properties.
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
}
