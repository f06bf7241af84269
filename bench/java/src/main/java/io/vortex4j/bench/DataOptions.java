package io.vortex4j.bench;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The options of a harness over the trades sample: {@code --data DIR} (under {@code
 * ~/.cache/vortex4j} by default), {@code --rows N} (10 million by default), {@code --runs N} and
 * {@code --markdown} (read by {@link Report}).
 */
record DataOptions(Path dir, long rows, int runs) {
    /** The options in {@code args}; prints {@code usage} and exits 2 on any other. */
    static DataOptions parse(String[] args, String cacheFolder, int runs, String usage) {
        Path dir = Paths.get(System.getProperty("user.home"), ".cache", "vortex4j", cacheFolder);
        long rows = 10_000_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--data": dir = Paths.get(args[++i]); break;
                case "--rows": rows = Long.parseLong(args[++i]); break;
                case "--runs": runs = Integer.parseInt(args[++i]); break;
                case Report.MARKDOWN: break;
                default:
                    System.err.println("usage: " + usage);
                    System.exit(2);
            }
        }
        return new DataOptions(dir, rows, runs);
    }
}
