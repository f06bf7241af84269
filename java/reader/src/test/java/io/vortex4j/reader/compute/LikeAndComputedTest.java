package io.vortex4j.reader.compute;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Fixtures;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import io.vortex4j.reader.compute.GroupAggregate.Aggregate;
import io.vortex4j.reader.predicate.Predicate;
import io.vortex4j.reader.predicate.RowFilter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.Test;

/**
 * LIKE and computed leaves on the generic path: LIKE against java.util.regex built from the
 * pattern (an independent matcher), computed leaves and computed group keys against the rows
 * read one by one.
 */
public class LikeAndComputedTest {
    /** The pattern as a regex, escaping every literal: the oracle. */
    static Pattern regex(String pattern, Character escape, boolean caseInsensitive) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < pattern.length(); ) {
            int c = pattern.codePointAt(i);
            i += Character.charCount(c);
            if (escape != null && c == escape) {
                c = pattern.codePointAt(i);
                i += Character.charCount(c);
                sb.append(Pattern.quote(new String(Character.toChars(c))));
            } else if (c == '%') {
                sb.append(".*");
            } else if (c == '_') {
                sb.append('.');
            } else {
                sb.append(Pattern.quote(new String(Character.toChars(c))));
            }
        }
        int flags = Pattern.DOTALL | (caseInsensitive ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
        return Pattern.compile(sb.toString(), flags);
    }

    private static final String ALPHABET = "ab%_\\.*+?[](){}|^$xé😀Ab";

    private static String random(Random r, int max) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(max + 1);
        for (int i = 0; i < n; i++) {
            int at = r.nextInt(ALPHABET.length());
            int cp = ALPHABET.codePointAt(at);
            if (Character.isLowSurrogate(ALPHABET.charAt(at))) {
                cp = ALPHABET.codePointAt(at - 1);
            }
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }

    @Test
    public void likeAgreesWithARegexOnRandomPatterns() {
        Random r = new Random(8);
        int checked = 0;
        for (int k = 0; k < 20_000; k++) {
            String pattern = random(r, 6);
            Character escape = r.nextBoolean() ? null : '\\';
            Predicate.Like like;
            try {
                like = new Predicate.Like("s", pattern, escape, false, false);
            } catch (IllegalArgumentException e) {
                continue; // a dangling escape, rejected as SQL rejects it
            }
            String value = random(r, 8);
            boolean expected = regex(pattern, escape, false).matcher(value).matches();
            assertEquals(pattern + " on " + value, expected, like.matches(value));
            checked++;
        }
        assertEquals(true, checked > 10_000);
    }

    @Test
    public void escapesAndEdgeCases() {
        assertEquals(true, new Predicate.Like("s", "", null, false, false).matches(""));
        assertEquals(false, new Predicate.Like("s", "", null, false, false).matches("a"));
        assertEquals(true, new Predicate.Like("s", "%", null, false, false).matches(""));
        assertEquals(true, new Predicate.Like("s", "a!%", '!', false, false).matches("a%"));
        assertEquals(false, new Predicate.Like("s", "a!%", '!', false, false).matches("ab"));
        assertEquals(true, new Predicate.Like("s", "_", null, false, false).matches("😀"));
        assertEquals(true, new Predicate.Like("s", "É%", null, true, false).matches("été"));
        assertThrows(IllegalArgumentException.class, () -> new Predicate.Like("s", "a!", '!', false, false));
        assertThrows(IllegalArgumentException.class, () -> new Predicate.Like("s", "!a", '!', false, false));
    }

    @Test
    public void likeComputedAndGroupKeysOnAFile() {
        Fixtures.DictFile f = Fixtures.flatDict();
        Predicate.ValueTest upperIsB = v -> v == null ? null : ((String) v).toUpperCase().startsWith("B");
        List<Predicate> filters = List.of(Predicate.like("s", "b%"), Predicate.notLike("s", "%a%"),
                new Predicate.Computed("s", "UPPER(s) LIKE 'B%'", upperIsB, false),
                Predicate.not(new Predicate.Computed("s", "UPPER(s) LIKE 'B%'", upperIsB, false)));
        try (VortexFile file = VortexFile.open(f.path)) {
            for (Predicate filter : filters) {
                Predicate leaf = filter.normalize();
                long expected = 0;
                for (String s : f.s) {
                    expected += s != null && RowFilter.test(leaf, s) ? 1 : 0;
                }
                long got = 0;
                try (Scan scan = file.scan("s")) {
                    for (Chunk c : scan) {
                        try (c) {
                            got += Compute.count(c, filter);
                        }
                    }
                }
                assertEquals(filter.toString(), expected, got);
            }
            // GROUP BY the first letter: groups merge codes with equal keys.
            java.util.function.Function<Object, Object> first = v -> v == null ? "?" : ((String) v).isEmpty() ? "" : ((String) v).substring(0, 1);
            GroupAggregate.Result result = GroupAggregate.run(file, "s", first, null, List.of(Aggregate.countStar()));
            Map<Object, Long> expected = new HashMap<>();
            for (String s : f.s) {
                expected.merge(first.apply(s), 1L, Long::sum);
            }
            Map<Object, Long> got = new HashMap<>();
            for (int g = 0; g < result.size(); g++) {
                got.put(result.key(g), (Long) result.value(g, 0));
            }
            assertEquals(expected, got);
        }
    }
}
