package io.vortex4j.reader.internal;

import io.vortex4j.VortexException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The CPU features the native library is compiled for, checked against this CPU before the
 * library is loaded: code compiled for a feature the CPU lacks kills the JVM with an illegal
 * instruction at its first use, possibly while the library loads, so the check must come first.
 *
 * <p>The build writes {@code <library>.cpu} beside the library (rust/build.rs): the target
 * architecture, a space, and Rust's names of the enabled target features, comma-separated. This
 * CPU's features are the {@code flags} of {@code /proc/cpuinfo} (Linux); where that cannot be
 * read, nothing is checked.
 */
final class CpuFeatures {
    /** Rust's names of x86 features whose Linux {@code /proc/cpuinfo} flag is named differently. */
    private static final Map<String, String> LINUX_FLAG = Map.of(
            "cmpxchg16b", "cx16",
            "lzcnt", "abm",
            "sse3", "pni",
            "sse4.1", "sse4_1",
            "sse4.2", "sse4_2");
    /** Features every x86-64 CPU has, which some kernels do not list. */
    private static final Set<String> BASELINE = Set.of("fxsr", "sse", "sse2", "x87");

    private CpuFeatures() {}

    /**
     * Throws {@link VortexException} naming the features {@code library} needs that this CPU lacks.
     *
     * @param required the text of the library's {@code .cpu} file, or null when there is none
     * @param library  the library's name, for the message
     */
    static void require(String required, String library) {
        if (required == null) {
            return;
        }
        String[] parts = required.trim().split("\\s+", 2);
        String arch = System.getProperty("os.arch");
        if (!parts[0].equals("x86_64") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            return;
        }
        String features = parts.length > 1 ? parts[1] : "";
        // A baseline build (the default) needs nothing beyond what every x86-64 CPU has.
        if (missing(features, Set.of()).isEmpty()) {
            return;
        }
        Set<String> flags = linuxFlags();
        if (flags == null) {
            return;
        }
        List<String> missing = missing(features, flags);
        if (!missing.isEmpty()) {
            throw new VortexException(library + " is compiled for CPU features this CPU lacks: " + String.join(", ", missing)
                    + " (it needs " + features + "); rebuild it without a -C target-cpu in"
                    + " RUSTFLAGS, or for this CPU (docs/architecture.md, \"CPU target\")");
        }
    }

    /** The features of the comma-separated Rust names in {@code required} that {@code flags} lacks. */
    static List<String> missing(String required, Set<String> flags) {
        List<String> missing = new ArrayList<>();
        for (String feature : required.split(",")) {
            String f = feature.trim();
            if (f.isEmpty() || BASELINE.contains(f)) {
                continue;
            }
            String flag = LINUX_FLAG.getOrDefault(f, f.replace('.', '_'));
            if (!flags.contains(flag)) {
                missing.add(f);
            }
        }
        return missing;
    }

    /** The {@code flags} of the first processor in {@code /proc/cpuinfo}, or null when unreadable. */
    static Set<String> linuxFlags() {
        Path cpuinfo = Paths.get("/proc/cpuinfo");
        if (!System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux") || !Files.isReadable(cpuinfo)) {
            return null;
        }
        // The first processor's line is enough: a machine with hundreds of them lists it hundreds of times.
        try (Stream<String> lines = Files.lines(cpuinfo, StandardCharsets.UTF_8)) {
            return lines.filter(line -> line.startsWith("flags"))
                    .findFirst()
                    .map(line -> new HashSet<>(Arrays.asList(line.substring(line.indexOf(':') + 1).trim().split("\\s+"))))
                    .orElse(null);
        } catch (IOException | UncheckedIOException e) {
            return null;
        }
    }
}
