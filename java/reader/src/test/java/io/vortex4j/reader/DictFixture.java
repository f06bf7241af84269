package io.vortex4j.reader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The dictionary fixture written by vortex alone: columns {@code id}, {@code s} (dictionary
 * strings with nulls) and {@code v}, in chunks covering every shape the dictionary kernel
 * distinguishes (rust/fixtures/dict_fixture.rs). Run as the cargo example {@code
 * write_dict_fixture}, whose path the build passes as {@code vortex4j.test.fixtureWriter}.
 */
public final class DictFixture {
    private DictFixture() {}

    /**
     * Writes {@code chunks} chunks of {@code rowsPerChunk} rows drawn from {@code seed} to {@code
     * path} (with {@code referenceStrategy}: plain strings through vortex's default strategy,
     * which dictionary-encodes them itself) and returns the value of {@code s} in every row.
     */
    public static String[] write(String path, int chunks, int rowsPerChunk, long seed, boolean referenceStrategy) {
        String writer = System.getProperty("vortex4j.test.fixtureWriter");
        if (writer == null) {
            throw new IllegalStateException("vortex4j.test.fixtureWriter is not set (the build sets it for tests)");
        }
        ProcessBuilder pb = new ProcessBuilder(writer, path, Integer.toString(chunks), Integer.toString(rowsPerChunk),
                Long.toString(seed), Boolean.toString(referenceStrategy));
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        try {
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new IllegalStateException("write_dict_fixture failed for " + path);
            }
            List<String> values = new ArrayList<>();
            String text = new String(out, StandardCharsets.UTF_8);
            for (String line : text.split("\n", -1)) {
                if (line.isEmpty()) {
                    continue; // only the end: every value line starts with N or S
                }
                values.add(line.charAt(0) == 'N' ? null : line.substring(1));
            }
            return values.toArray(new String[0]);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + writer, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
