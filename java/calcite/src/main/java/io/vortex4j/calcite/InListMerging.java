package io.vortex4j.calcite;

import io.vortex4j.reader.predicate.Predicate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Equalities (or, in a conjunction, inequalities) on one column merged into one IN (NOT IN) leaf. */
final class InListMerging {
    private InListMerging() {}

    /**
     * OR of children, flattened, with the equalities on one column merged into one IN; or, for a
     * {@code conjunction}, AND of children with the inequalities on one column merged into one NOT
     * IN. Lists holding NULL are not merged, nor (in a conjunction) an empty NOT IN.
     */
    static Predicate merged(List<Predicate> children, boolean conjunction) {
        List<Predicate> flat = new ArrayList<>();
        for (Predicate p : children) {
            if (!conjunction && p instanceof Predicate.Or or) {
                flat.addAll(or.children());
            } else if (conjunction && p instanceof Predicate.And and) {
                flat.addAll(and.children());
            } else {
                flat.add(p);
            }
        }
        Predicate.Op pointOp = conjunction ? Predicate.Op.NE : Predicate.Op.EQ;
        Map<String, List<Object>> points = new LinkedHashMap<>();
        List<Predicate> out = new ArrayList<>();
        for (Predicate p : flat) {
            if (p instanceof Predicate.Compare cmp && cmp.op() == pointOp && cmp.value() != null) {
                points.computeIfAbsent(cmp.column(), k -> new ArrayList<>()).add(cmp.value());
            } else if (p instanceof Predicate.In in && in.negated() == conjunction && !in.values().contains(null)
                    && !(conjunction && in.values().isEmpty())) {
                points.computeIfAbsent(in.column(), k -> new ArrayList<>()).addAll(in.values());
            } else {
                out.add(p);
            }
        }
        for (Map.Entry<String, List<Object>> e : points.entrySet()) {
            List<Object> values = e.getValue();
            out.add(values.size() == 1
                    ? new Predicate.Compare(e.getKey(), pointOp, values.get(0))
                    : new Predicate.In(e.getKey(), values, conjunction));
        }
        return out.size() == 1 ? out.get(0) : conjunction ? Predicate.and(out) : Predicate.or(out);
    }
}
