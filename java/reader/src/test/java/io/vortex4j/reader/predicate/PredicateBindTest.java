package io.vortex4j.reader.predicate;


import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.List;
import org.junit.Test;

/** Parameters ({@link Predicate.Parameter}): printed as {@code ?N}, bound by {@link Predicate#bind}, never encoded unbound. */
public class PredicateBindTest {
    private static final Predicate.Parameter P0 = new Predicate.Parameter(0, "VARCHAR");
    private static final Predicate.Parameter P1 = new Predicate.Parameter(1, null);

    @Test
    public void bindReplacesEveryParameterAndKeepsTheRest() {
        Predicate p = Predicate.or(
                Predicate.and(Predicate.eq("sym", P0), Predicate.not(Predicate.lt("volume", P1))),
                new Predicate.Between("price", P1, 2.5),
                new Predicate.In("sym", List.of("A", P0), true),
                Predicate.isNull("sym"));
        assertEquals("((sym = ?0 AND NOT (volume < ?1)) OR price BETWEEN ?1 AND 2.5 OR sym NOT IN ('A', ?0) OR sym IS NULL)",
                p.toString());
        Predicate bound = p.bind(q -> q.index() == 0 ? "AAPL" : (Object) 7);
        Predicate expected = Predicate.or(
                Predicate.and(Predicate.eq("sym", "AAPL"), Predicate.not(Predicate.lt("volume", 7L))),
                new Predicate.Between("price", 7L, 2.5),
                new Predicate.In("sym", List.of("A", "AAPL"), true),
                Predicate.isNull("sym"));
        assertEquals(expected, bound);
        // Integers are normalized to Long as for any literal; null is SQL NULL.
        assertEquals(Predicate.eq("volume", null), Predicate.eq("volume", P0).bind(q -> null));
        Predicate plain = Predicate.eq("sym", "x");
        assertSame(plain, plain.bind(q -> {
            throw new AssertionError("no parameter to bind");
        }));
        Predicate tree = Predicate.or(plain, Predicate.not(Predicate.and(Predicate.in("sym", "a", "b"), Predicate.isNull("s"))));
        assertSame(tree, tree.bind(q -> {
            throw new AssertionError("no parameter to bind");
        }));
    }

    @Test
    public void anUnboundParameterIsNotEncoded() {
        try {
            PredicateCodec.encode(Predicate.and(Predicate.gt("volume", 1), Predicate.eq("sym", P1)));
            fail("encoded an unbound parameter");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("?1 is not bound"));
        }
        byte[] bytes = PredicateCodec.encode(Predicate.eq("sym", P1).bind(q -> "MSFT"));
        assertEquals(Predicate.eq("sym", "MSFT"), PredicateCodec.decode(bytes));
    }
}
