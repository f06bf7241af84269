package io.vortex4j.calcite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/** Notes about what was pushed, appended to {@code build/pushdown-report.txt} for reading after a run. */
final class Report {
    private static final Path FILE = Paths.get("build", "pushdown-report.txt");

    private Report() {}

    static synchronized void note(String text) {
        try {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, text + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // Only a diagnostic aid.
        }
    }
}
