package io.vortex4j.spark.read;

import io.vortex4j.reader.Schema;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.spark.SparkTypes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.StructType;

/**
 * The pushed Spark predicates of a scan, sent to the executors and translated there into one
 * reader predicate over the dataset's columns (partition columns included). The executor
 * translates against the reader types of the table's Spark columns, which take exactly the
 * predicates the driver took against the files' own types: {@link FilterTranslator} only needs a
 * column's type family (integer, string, binary, decimal, date, boolean), which the type mapping
 * keeps.
 */
final class Filters implements Serializable {
    private static final long serialVersionUID = 1L;

    private final org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates;
    private final StructType schema;

    Filters(org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates, StructType schema) {
        this.predicates = predicates.clone();
        this.schema = schema;
    }

    org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates() {
        return predicates.clone();
    }

    /** The conjunction of the predicates translated against {@code schema} (null for none). */
    static Predicate conjunction(Schema schema, org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
        if (predicates.length == 0) {
            return null;
        }
        FilterTranslator translator = new FilterTranslator(schema);
        List<Predicate> parts = new ArrayList<>();
        for (org.apache.spark.sql.connector.expressions.filter.Predicate f : predicates) {
            Predicate p = translator.translate(f);
            if (p == null) {
                throw new IllegalStateException("the pushed filter " + f + " does not apply to the columns " + schema);
            }
            parts.add(p);
        }
        return parts.size() == 1 ? parts.get(0) : Predicate.and(parts);
    }

    /** The reader predicate on an executor. */
    Predicate toReader() {
        return conjunction(SparkTypes.toVortex(schema), predicates);
    }
}
