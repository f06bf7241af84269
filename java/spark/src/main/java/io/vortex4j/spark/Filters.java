package io.vortex4j.spark;

import io.vortex4j.reader.Predicate;
import io.vortex4j.reader.Schema;
import java.util.ArrayList;
import java.util.List;

/** The pushed Spark predicates of a scan as one reader predicate over a file. */
final class Filters {
    private Filters() {}

    /**
     * The conjunction of {@code filters} translated against {@code schema} (null for none). Every
     * one was translated on the driver; a file that does not take one has another schema.
     */
    static Predicate conjunction(Schema schema, org.apache.spark.sql.connector.expressions.filter.Predicate[] filters,
            SourceFile source) {
        if (filters.length == 0) {
            return null;
        }
        FilterTranslator translator = new FilterTranslator(schema);
        List<Predicate> parts = new ArrayList<>();
        for (org.apache.spark.sql.connector.expressions.filter.Predicate f : filters) {
            Predicate p = translator.translate(f);
            if (p == null) {
                throw new IllegalStateException(source.path() + ": the pushed filter " + f
                        + " does not apply to this file's columns " + schema);
            }
            parts.add(p);
        }
        return parts.size() == 1 ? parts.get(0) : Predicate.and(parts);
    }
}
