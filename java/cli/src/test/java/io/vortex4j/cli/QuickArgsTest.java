package io.vortex4j.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.Test;
import picocli.CommandLine;

/**
 * {@link QuickArgs} sets {@code sql}'s fields exactly as picocli does from the same annotations, and
 * declines every command line it does not take (picocli then parses it, usage errors included).
 */
public class QuickArgsTest {
    /** The fields of a parsed {@code sql} command, for comparison. */
    private static String fields(SqlCommand c) {
        return Arrays.asList(c.data, c.format, c.output, c.noPushdown, c.forceShell, c.timing, c.args).toString();
    }

    private static void assertSameAsPicocli(String... args) {
        SqlCommand quick = new SqlCommand();
        QuickArgs.Parsed parsed = QuickArgs.parse(quick, List.of(args));
        assertNotNull("declined: " + List.of(args), parsed);
        SqlCommand picocli = new SqlCommand();
        CommandLine cli = new CommandLine(new Main()).addSubcommand(picocli);
        String[] full = new String[args.length + 1];
        full[0] = "sql";
        System.arraycopy(args, 0, full, 1, args.length);
        CommandLine.ParseResult result = cli.parseArgs(full);
        assertEquals(List.of(args).toString(), fields(picocli), fields(quick));
        assertEquals(result.subcommand().hasMatchedOption(QuickArgs.VERBOSE), parsed.verbose());
    }

    @Test
    public void plainCommandLinesAsPicocliParsesThem() {
        assertSameAsPicocli("SELECT 1");
        assertSameAsPicocli();
        assertSameAsPicocli("--data", "/tmp/d", "--format", "csv", "SELECT COUNT(*) FROM t WHERE sym = 'A'");
        assertSameAsPicocli("--data=/tmp/d", "--format=json", "-o", "out.json", "SELECT", "1");
        assertSameAsPicocli("-o=out.csv", "x");
    }

    @Test
    public void flagsVerboseAndWordsAnywhere() {
        assertSameAsPicocli("--timing", "a.vortex", "--no-pushdown", "SELECT * FROM a", "--shell");
        assertSameAsPicocli("--verbose", "--data", "d", "SELECT 1/0");
        assertSameAsPicocli("SELECT 1", "--verbose", "--output", "o.txt");
        assertSameAsPicocli("", "SELECT 'a=b'", "x=1");
    }

    @Test
    public void declinesWhatItDoesNotTake() {
        for (List<String> args : List.of(
                List.of("--help"), List.of("-h"), List.of("--no-such-option"), List.of("--data"),
                List.of("--data", "a", "--data", "b"), List.of("--timing", "--timing"), List.of("--timing=true"),
                List.of("--format", "--timing"), List.of("--", "SELECT 1"), List.of("@args.txt"),
                List.of("-ofile.csv", "SELECT 1"), List.of("SELECT 1", "-1"), List.of("--data", "a\u0000b"))) {
            assertNull(args.toString(), QuickArgs.parse(new SqlCommand(), args));
        }
    }
}
