package io.vortex4j.calcite.jdbc;

import java.util.Locale;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * The hint for a syntax error at a reserved word. Columns named like SQL keywords parse unquoted
 * where the grammar allows (the Babel parser takes {@code day}, {@code month}, {@code year},
 * {@code value}, {@code count}, {@code user}, ...), but some cannot be names anywhere (e.g.
 * {@code timestamp}, which starts a literal): then the error says to quote the name.
 */
final class ReservedWords {
    private ReservedWords() {}

    /**
     * The quoting hint for a syntax error at {@code token} when it is a reserved word of the
     * parser configured by {@code config}; null otherwise.
     */
    static String quotingHint(String token, SqlParser.Config config) {
        if (token.isEmpty() || !Character.isLetter(token.charAt(0))
                || !SqlParser.create("", config).getMetadata().isReservedWord(token.toUpperCase(Locale.ROOT))) {
            return null;
        }
        Quoting q = config.quoting();
        String quoted = q == Quoting.BRACKET ? "[" + token + "]" : q.string + token + q.string;
        return token + " is a reserved word; to use it as a column or table name, quote it: " + quoted;
    }
}
