package io.vortex4j.reader.compute;

import static org.junit.Assert.assertEquals;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.array.Values;
import io.vortex4j.reader.compute.GroupAggregate.Aggregate;
import io.vortex4j.reader.compute.GroupAggregate.Function;
import io.vortex4j.reader.predicate.Predicate;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The fused filter-aggregate against a brute-force aggregation of the rows read one by one. */
public class GroupAggregateTest {
    private static final List<Aggregate> AGGS = List.of(Aggregate.countStar(), Aggregate.of(Function.COUNT, "v"),
            Aggregate.of(Function.SUM, "v"), Aggregate.of(Function.MIN, "v"), Aggregate.of(Function.MAX, "v"),
            Aggregate.of(Function.MIN, "s"), Aggregate.of(Function.MAX, "s"));

    /** Every row of the fixture as {s, v}. */
    private static List<Object[]> rows(VortexFile file) {
        List<Object[]> out = new ArrayList<>();
        try (Scan scan = file.scan("s", "v")) {
            for (Chunk c : scan) {
                try (c) {
                    for (int i = 0; i < c.length(); i++) {
                        out.add(new Object[] {Values.valueAt(c.column(0), i), Values.valueAt(c.column(1), i)});
                    }
                }
            }
        }
        return out;
    }

    /** Brute force: key → {count, countV, sum, min, max, minS, maxS}. */
    private static Map<Object, Object[]> expected(List<Object[]> rows, java.util.function.Predicate<Object[]> keep, boolean grouped) {
        Map<Object, Object[]> groups = new LinkedHashMap<>();
        if (!grouped) {
            groups.put(null, new Object[] {0L, 0L, null, null, null, null, null});
        }
        for (Object[] r : rows) {
            if (!keep.test(r)) {
                continue;
            }
            Object[] a = groups.computeIfAbsent(grouped ? r[0] : null, k -> new Object[] {0L, 0L, null, null, null, null, null});
            a[0] = (Long) a[0] + 1;
            Long v = (Long) r[1];
            if (v != null) {
                a[1] = (Long) a[1] + 1;
                a[2] = a[2] == null ? v : (Long) a[2] + v;
                a[3] = a[3] == null || v < (Long) a[3] ? v : a[3];
                a[4] = a[4] == null || v > (Long) a[4] ? v : a[4];
            }
            String s = (String) r[0];
            if (s != null) {
                a[5] = a[5] == null || codePointOrder(s, (String) a[5]) < 0 ? s : a[5];
                a[6] = a[6] == null || codePointOrder(s, (String) a[6]) > 0 ? s : a[6];
            }
        }
        return groups;
    }

    /** Code-point order, independently of the reader's: UTF-8 bytes compare in code-point order. */
    private static int codePointOrder(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static void check(VortexFile file, Predicate filter, java.util.function.Predicate<Object[]> keep, boolean grouped) {
        Map<Object, Object[]> want = expected(rows(file), keep, grouped);
        GroupAggregate.Result got = GroupAggregate.run(file, grouped ? "s" : null, filter, AGGS);
        Map<Object, Object[]> have = new HashMap<>();
        for (int g = 0; g < got.size(); g++) {
            Object[] vals = new Object[AGGS.size()];
            for (int a = 0; a < vals.length; a++) {
                vals[a] = got.value(g, a);
            }
            have.put(got.key(g), vals);
        }
        assertEquals("groups for " + filter, want.keySet(), have.keySet());
        for (Object k : want.keySet()) {
            Object[] w = want.get(k);
            Object[] h = have.get(k);
            for (int a = 0; a < AGGS.size(); a++) {
                String where = AGGS.get(a) + " of group " + k + " for " + filter;
                // Values and their classes: a count that came back as an Integer or a string
                // minimum that came back as bytes is a wrong answer even when it prints the same.
                assertEquals(where, w[a], h[a]);
                if (w[a] != null) {
                    assertEquals(where + " class", w[a].getClass(), h[a].getClass());
                }
            }
        }
    }

    /** GROUP BY without aggregates (SELECT DISTINCT) still yields every group, null included. */
    @Test
    public void groupsWithoutAggregates() {
        for (Fixtures.DictFile f : List.of(Fixtures.flatDict(), Fixtures.referenceDict())) {
            try (VortexFile file = VortexFile.open(f.path)) {
                GroupAggregate.Result r = GroupAggregate.run(file, "s", null, List.of());
                java.util.Set<Object> keys = new java.util.HashSet<>();
                for (int g = 0; g < r.size(); g++) {
                    keys.add(r.key(g));
                }
                assertEquals(new java.util.HashSet<>(f.s), keys);
                assertEquals(keys.size(), r.size());
            }
        }
    }

    @Test
    public void matchesBruteForceOnBothFixtures() {
        for (Fixtures.DictFile f : List.of(Fixtures.flatDict(), Fixtures.referenceDict())) {
            try (VortexFile file = VortexFile.open(f.path)) {
                check(file, null, r -> true, true);
                check(file, null, r -> true, false);
                check(file, Predicate.in("s", "AAPL", "Zürich", "nope"), r -> "AAPL".equals(r[0]) || "Zürich".equals(r[0]), true);
                check(file, Predicate.isNull("s"), r -> r[0] == null, true);
                check(file, Predicate.gt("v", 100L), r -> r[1] != null && (Long) r[1] > 100, true);
                check(file, Predicate.and(Predicate.ne("s", "AAPL"), Predicate.lt("v", 0L)),
                        r -> r[0] != null && !"AAPL".equals(r[0]) && r[1] != null && (Long) r[1] < 0, false);
                check(file, Predicate.eq("s", "absent"), r -> false, false);
            }
        }
    }
}
