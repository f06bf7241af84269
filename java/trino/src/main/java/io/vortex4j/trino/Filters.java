package io.vortex4j.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;
import io.vortex4j.reader.predicate.Predicate;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Trino's domains and LIKE filters as the reader's {@link Predicate}: the one place that decides
 * which filters the reader applies exactly. Taken: columns of integer, boolean, varchar, date
 * and decimal types (compared the same way on both sides: numbers by value, strings by their
 * UTF-8 bytes, nulls never matching a comparison). Left to Trino: floating-point columns (NaN
 * orders differently), timestamps, times, varbinary, nested columns.
 */
final class Filters {
    private Filters() {}

    /** Whether a domain on a column of {@code type} is applied exactly by the reader. */
    static boolean translatable(VortexColumnHandle column) {
        Type t = column.type();
        return t instanceof BigintType || t instanceof IntegerType || t instanceof SmallintType
                || t instanceof TinyintType || t instanceof BooleanType || t instanceof VarcharType
                || t instanceof DateType || t instanceof DecimalType;
    }

    /** The reader predicate of the handle's pushed filters, or null when there are none. */
    static Predicate predicate(VortexTableHandle table) {
        List<Predicate> parts = new ArrayList<>();
        for (Map.Entry<VortexColumnHandle, Domain> e : table.constraint().getDomains().orElseThrow().entrySet()) {
            parts.add(domain(e.getKey(), e.getValue()));
        }
        for (LikeFilter like : table.likes()) {
            parts.add(new Predicate.Like(like.column().name(), like.pattern(),
                    like.escape().map(s -> s.charAt(0)).orElse(null), false, false));
        }
        if (parts.isEmpty()) {
            return null;
        }
        return parts.size() == 1 ? parts.get(0) : Predicate.and(parts);
    }

    /** A domain known to be {@link #valuesTranslate translatable}, as a predicate. */
    static Predicate domain(VortexColumnHandle column, Domain domain) {
        String name = column.name();
        if (domain.isOnlyNull()) {
            return Predicate.isNull(name);
        }
        if (domain.getValues().isAll()) {
            return domain.isNullAllowed() ? Predicate.or(Predicate.isNull(name), Predicate.isNotNull(name)) : Predicate.isNotNull(name);
        }
        Type type = column.type();
        List<Predicate> alternatives = new ArrayList<>();
        List<Object> points = new ArrayList<>();
        for (Range r : domain.getValues().getRanges().getOrderedRanges()) {
            if (r.isSingleValue()) {
                points.add(literal(type, r.getSingleValue()));
                continue;
            }
            List<Predicate> bounds = new ArrayList<>();
            r.getLowValue().ifPresent(v -> bounds.add(r.isLowInclusive() ? Predicate.ge(name, literal(type, v)) : Predicate.gt(name, literal(type, v))));
            r.getHighValue().ifPresent(v -> bounds.add(r.isHighInclusive() ? Predicate.le(name, literal(type, v)) : Predicate.lt(name, literal(type, v))));
            alternatives.add(bounds.isEmpty() ? Predicate.isNotNull(name) : bounds.size() == 1 ? bounds.get(0) : Predicate.and(bounds));
        }
        if (points.size() == 1) {
            alternatives.add(Predicate.eq(name, points.get(0)));
        } else if (!points.isEmpty()) {
            alternatives.add(Predicate.in(name, points));
        }
        if (domain.isNullAllowed()) {
            alternatives.add(Predicate.isNull(name));
        }
        return alternatives.size() == 1 ? alternatives.get(0) : Predicate.or(alternatives);
    }

    /** Whether every value of the domain converts to a reader literal exactly (strings: valid UTF-8). */
    static boolean valuesTranslate(VortexColumnHandle column, Domain domain) {
        if (!translatable(column)) {
            return false;
        }
        if (!(column.type() instanceof VarcharType) || domain.isOnlyNull() || domain.getValues().isAll()) {
            return true;
        }
        for (Range r : domain.getValues().getRanges().getOrderedRanges()) {
            for (Object v : new Object[] {r.getLowValue().orElse(null), r.getHighValue().orElse(null)}) {
                if (v != null && !isUtf8((Slice) v)) {
                    return false;
                }
            }
        }
        return true;
    }

    static boolean isUtf8(Slice s) {
        return Slices.utf8Slice(s.toStringUtf8()).equals(s);
    }

    /** A Trino value (its stack representation) as the reader's literal. */
    static Object literal(Type type, Object value) {
        if (type instanceof VarcharType) {
            return ((Slice) value).toStringUtf8();
        }
        if (type instanceof DateType) {
            return LocalDate.ofEpochDay((Long) value);
        }
        if (type instanceof DecimalType d) {
            return d.isShort()
                    ? BigDecimal.valueOf((Long) value, d.getScale())
                    : new BigDecimal(((Int128) value).toBigInteger(), d.getScale());
        }
        return value; // Long for integers, Boolean
    }
}
