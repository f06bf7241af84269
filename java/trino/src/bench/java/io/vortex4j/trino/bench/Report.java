package io.vortex4j.trino.bench;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The benchmark's output, as {@code bin/bench}'s harnesses print theirs: one Markdown table, then
 * (with {@code --markdown}) one line naming the command, the machine and the notes on the run;
 * without it the notes come first, as text.
 */
final class Report {
    // Trino's logging takes over System.out once a server starts: print to the process's own.
    private final PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    private final String command;
    private final boolean markdown;
    private final List<String> notes = new ArrayList<>();

    Report(String command, boolean markdown) {
        this.command = command;
        this.markdown = markdown;
    }

    void note(String text) {
        if (markdown) {
            notes.add(text.endsWith(".") ? text : text + ".");
        } else {
            out.println(text + "\n");
        }
    }

    /** The header: the first column left-aligned, the figures right-aligned. */
    void header(String... columns) {
        row(columns);
        out.println("|---|" + "---:|".repeat(columns.length - 1));
    }

    void row(String... cells) {
        out.println("| " + String.join(" | ", cells) + " |");
    }

    void end() {
        if (markdown) {
            out.println("\nCommand: `" + command + "`. Machine: " + machine() + ". " + String.join(" ", notes));
        }
    }

    /** Cores, the CPU model Linux names, the OS and the JVM. */
    private static String machine() {
        String cpu = null;
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            cpu = lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse(null);
        } catch (IOException | RuntimeException e) {
            // not Linux: the cores and the JVM say enough
        }
        return Runtime.getRuntime().availableProcessors() + " cores (nproc)" + (cpu == null ? "" : ", " + cpu) + ", "
                + System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch") + ", Java " + System.getProperty("java.version") + " ("
                + System.getProperty("java.vm.name") + ")";
    }
}
