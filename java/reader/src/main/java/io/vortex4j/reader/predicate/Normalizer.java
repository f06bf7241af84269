package io.vortex4j.reader.predicate;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Negation normal form for {@link Predicate#normalize()}.
 *
 * <p>Public for the reader's own packages; not a user API.
 */
public final class Normalizer {
    private Normalizer() {}

    static Predicate positive(Predicate p) {
        if (p instanceof Predicate.Not n) {
            return negative(n.child());
        } else if (p instanceof Predicate.And a) {
            return new Predicate.And(map(a.children(), false));
        } else if (p instanceof Predicate.Or o) {
            return new Predicate.Or(map(o.children(), false));
        }
        return p;
    }

    /** The normalized form of {@code NOT p}. */
    static Predicate negative(Predicate p) {
        if (p instanceof Predicate.Not n) {
            return positive(n.child());
        } else if (p instanceof Predicate.And a) {
            return new Predicate.Or(map(a.children(), true));
        } else if (p instanceof Predicate.Or o) {
            return new Predicate.And(map(o.children(), true));
        } else if (p instanceof Predicate.Compare c) {
            return new Predicate.Compare(c.column(), c.op().negate(), c.value());
        } else if (p instanceof Predicate.Between b) {
            // NOT (x BETWEEN lo AND hi) is x < lo OR x > hi; unknown stays unknown either way.
            return Predicate.or(Predicate.lt(b.column(), b.low()), Predicate.gt(b.column(), b.high()));
        } else if (p instanceof Predicate.In in) {
            return new Predicate.In(in.column(), in.values(), !in.negated());
        } else if (p instanceof Predicate.Like l) {
            return new Predicate.Like(l.column(), l.pattern(), l.escape(), l.caseInsensitive(), !l.negated());
        } else if (p instanceof Predicate.Computed c) {
            return new Predicate.Computed(c.column(), c.description(), c.test(), !c.negated());
        } else if (p instanceof Predicate.ListContains l) {
            return new Predicate.ListContains(l.column(), l.value(), l.sqlNulls(), !l.negated());
        } else if (p instanceof Predicate.ListLength l) {
            return new Predicate.ListLength(l.column(), l.op().negate(), l.length());
        } else {
            Predicate.IsNull n = (Predicate.IsNull) p;
            return new Predicate.IsNull(n.column(), !n.negated());
        }
    }

    private static List<Predicate> map(List<Predicate> children, boolean negate) {
        List<Predicate> out = new ArrayList<>(children.size());
        for (Predicate c : children) {
            out.add(negate ? negative(c) : positive(c));
        }
        return out;
    }

    /**
     * A predicate the native side can carry that every row {@code p} selects also satisfies: for
     * zone-map pruning, where a weaker filter only prunes less. The conjuncts it cannot carry (a
     * {@link Predicate.Computed} leaf, a java.time literal) are dropped from an AND; an OR with
     * such a branch, or such a leaf alone, gives null (prune nothing).
     */
    public static Predicate prunable(Predicate p) {
        return carried(p.normalize());
    }

    private static Predicate carried(Predicate p) {
        if (p instanceof Predicate.And a) {
            List<Predicate> kept = new ArrayList<>();
            for (Predicate c : a.children()) {
                Predicate k = carried(c);
                if (k != null) {
                    kept.add(k);
                }
            }
            return kept.isEmpty() ? null : new Predicate.And(kept);
        }
        if (p instanceof Predicate.Or o) {
            List<Predicate> kept = new ArrayList<>();
            for (Predicate c : o.children()) {
                Predicate k = carried(c);
                if (k == null) {
                    return null;
                }
                kept.add(k);
            }
            return new Predicate.Or(kept);
        }
        try {
            PredicateCodec.encode(p);
            return p;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static void collectColumns(Predicate p, Set<String> out) {
        if (p instanceof Predicate.Not n) {
            collectColumns(n.child(), out);
        } else if (p instanceof Predicate.And a) {
            a.children().forEach(c -> collectColumns(c, out));
        } else if (p instanceof Predicate.Or o) {
            o.children().forEach(c -> collectColumns(c, out));
        } else {
            out.add(p.column());
        }
    }
}
