package io.vortex4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a harness prints. By default the notes on the run (rows, runs, versions) come first, as
 * text, then its table. With {@code --markdown} only the table prints, as one Markdown table,
 * followed by one line naming the command, the machine and the notes, so a page of results can
 * be generated from the output as it is.
 */
final class Report {
    static final String MARKDOWN = "--markdown";

    private final String command;
    private final boolean markdown;
    private final List<String> notes = new ArrayList<>();

    /** The report of {@code command} run with {@code args}; Markdown when they hold {@code --markdown}. */
    Report(String command, String[] args) {
        this.command = Stream.concat(Stream.of(command), Arrays.stream(args)).reduce((a, b) -> a + " " + b).get();
        this.markdown = Arrays.asList(args).contains(MARKDOWN);
    }

    boolean markdown() {
        return markdown;
    }

    /** A note on the run: printed now as text, or kept for the closing line of the Markdown. */
    void note(String text) {
        if (markdown) {
            notes.add(text);
        } else {
            System.out.println(text);
            System.out.println();
        }
    }

    /** The table's header: the first column left-aligned, the others (figures) right-aligned. */
    void header(String... columns) {
        System.out.println("| " + String.join(" | ", columns) + " |");
        System.out.println("|---|" + "---:|".repeat(columns.length - 1));
    }

    void row(String... cells) {
        System.out.println("| " + String.join(" | ", cells) + " |");
    }

    /** With {@code --markdown}: the line naming the command, the machine and the notes. */
    void end() {
        if (!markdown) {
            return;
        }
        StringBuilder line = new StringBuilder("\nCommand: `").append(command).append("`. Machine: ").append(machine())
                .append('.');
        for (String n : notes) {
            line.append(' ').append(n.endsWith(".") ? n : n + ".");
        }
        System.out.println(line);
    }

    /** Cores ({@code nproc}), CPU model where Linux names it, OS, and Java. */
    static String machine() {
        StringBuilder sb = new StringBuilder();
        sb.append(Runtime.getRuntime().availableProcessors()).append(" cores (nproc)");
        String cpu = cpuModel();
        if (cpu != null) {
            sb.append(", ").append(cpu);
        }
        sb.append(", ").append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.version"))
                .append(' ').append(System.getProperty("os.arch"));
        sb.append(", Java ").append(System.getProperty("java.version")).append(" (")
                .append(System.getProperty("java.vm.name")).append(')');
        return sb.toString();
    }

    private static String cpuModel() {
        Path info = Paths.get("/proc/cpuinfo");
        if (!Files.isReadable(info)) {
            return null;
        }
        try (Stream<String> lines = Files.lines(info)) {
            return lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse(null);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
