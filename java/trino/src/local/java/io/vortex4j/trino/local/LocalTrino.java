package io.vortex4j.trino.local;

import io.trino.testing.QueryRunner;
import io.vortex4j.reader.Stores;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code bin/vortex4j-trino DIR [--workers N]}: starts a local Trino (a coordinator and N
 * workers, default 2) with the {@code vortex} catalog over DIR, a folder or an object store
 * location (credentials from the environment), runs the {@code ;}-separated
 * statements read from standard input, and prints each result as CSV with a header line. Exits 1
 * naming the failed statement and Trino's message.
 */
public final class LocalTrino {
    private LocalTrino() {}

    public static void main(String[] args) throws Exception {
        String dir = null;
        int workers = 2;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--workers") && i + 1 < args.length) {
                workers = Integer.parseInt(args[++i]);
            } else if (args[i].startsWith("-") || dir != null) {
                usage("unknown argument " + args[i]);
            } else {
                dir = args[i];
            }
        }
        if (dir == null) {
            usage("no folder or store location given");
        }
        if (!Stores.isRemote(dir)) {
            if (!Files.isDirectory(Path.of(dir))) {
                usage(dir + " is not a folder");
            }
            dir = Path.of(dir).toAbsolutePath().toString();
        }
        if (workers < 0) {
            usage("--workers must be 0 or more");
        }
        List<String> statements = Statements.split(read(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        int status = 0;
        try (QueryRunner runner = VortexQueryRunner.create(dir, workers, List.of())) {
            for (String sql : statements) {
                try {
                    Csv.print(runner.execute(sql), out);
                } catch (RuntimeException e) {
                    out.flush();
                    System.err.println("failed: " + sql + "\n" + e.getMessage());
                    status = 1;
                    break;
                }
            }
        }
        out.flush();
        System.exit(status);
    }

    private static String read(Reader in) throws IOException {
        StringBuilder sb = new StringBuilder();
        char[] buf = new char[8192];
        for (int n = in.read(buf); n > 0; n = in.read(buf)) {
            sb.append(buf, 0, n);
        }
        return sb.toString();
    }

    private static void usage(String problem) {
        System.err.println(problem + "\nusage: vortex4j-trino DIR|LOCATION [--workers N] < statements.sql");
        System.exit(2);
    }
}
