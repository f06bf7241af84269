package io.vortex4j.spark.write;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.apache.spark.sql.connector.expressions.IdentityTransform;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;

/**
 * Hive partition folders of a write: {@code key=value/} per partition column, with Spark's own
 * escaping ({@link ExternalCatalogUtils#getPartitionPathString}: {@code %XX} for {@code / = % :}
 * and the like; null and the empty string as {@code __HIVE_DEFAULT_PARTITION__}), so the folders
 * are what Spark's file sources write and what {@link io.vortex4j.reader.dataset.VortexDataset} reads.
 *
 * <p>Only integer, date and string columns partition a write: the dataset types a partition
 * column from its folder names as BIGINT, DATE or VARCHAR, so these read back as the same values
 * (integers widened to BIGINT); others are refused rather than read back as strings.
 */
public final class PartitionPaths {
    private PartitionPaths() {}

    /** The column names of identity transforms over {@code schema}; throws for anything else. */
    public static List<String> columns(Transform[] partitioning, StructType schema) {
        List<String> names = new ArrayList<>();
        for (Transform t : partitioning) {
            if (!(t instanceof IdentityTransform id) || id.reference().fieldNames().length != 1) {
                throw new UnsupportedOperationException("the vortex source partitions by columns (Hive folders), not by "
                        + t.describe());
            }
            String name = id.reference().fieldNames()[0];
            int i = schema.getFieldIndex(name).getOrElse(() -> -1);
            if (i < 0) {
                throw new IllegalArgumentException("partition column '" + name + "' is not a column of " + schema.simpleString());
            }
            DataType type = schema.fields()[i].dataType();
            if (!partitionable(type)) {
                throw new UnsupportedOperationException("partition column '" + name + "' has Spark type " + type.simpleString()
                        + "; vortex partition folders hold integer, date or string values (cast it to string to partition by it)");
            }
            names.add(schema.fields()[i].name());
        }
        if (!names.isEmpty() && names.size() == schema.size()) {
            throw new IllegalArgumentException("every column is a partition column: the files would have no columns");
        }
        return names;
    }

    private static boolean partitionable(DataType t) {
        return t == DataTypes.LongType || t == DataTypes.IntegerType || t == DataTypes.ShortType
                || t == DataTypes.ByteType || t == DataTypes.DateType || t instanceof StringType;
    }

    /** The relative folder of {@code row}'s partition values ({@code ""} for none), e.g. {@code "d=2024-01-01/s=a%2Fb"}. */
    static String folder(InternalRow row, int[] ordinals, String[] names, DataType[] types) {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < ordinals.length; k++) {
            if (k > 0) {
                sb.append('/');
            }
            sb.append(ExternalCatalogUtils.getPartitionPathString(names[k], text(row, ordinals[k], types[k])));
        }
        return sb.toString();
    }

    /** The value's text as Spark casts it to a string (null stays null). */
    private static String text(InternalRow row, int i, DataType t) {
        if (row.isNullAt(i)) {
            return null;
        }
        if (t == DataTypes.DateType) {
            return LocalDate.ofEpochDay(row.getInt(i)).toString();
        }
        if (t instanceof StringType) {
            return row.getUTF8String(i).toString();
        }
        if (t == DataTypes.LongType) {
            return Long.toString(row.getLong(i));
        }
        if (t == DataTypes.IntegerType) {
            return Integer.toString(row.getInt(i));
        }
        if (t == DataTypes.ShortType) {
            return Short.toString(row.getShort(i));
        }
        return Byte.toString(row.getByte(i));
    }
}
