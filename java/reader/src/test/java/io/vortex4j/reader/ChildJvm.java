package io.vortex4j.reader;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a test harness ({@code main} of a test class) in a fresh JVM with this JVM's classpath
 * and native library: a crash there (SIGSEGV, abort) is a failed check, not a dead test run.
 */
public final class ChildJvm {
    /** How the child ended: its exit code, everything it printed, and whether it was killed. */
    public record Result(int exit, String output, boolean timedOut) {
        /** The output's last line starting with {@code prefix}, or null. */
        String last(String prefix) {
            String found = null;
            for (String line : output.split("\n")) {
                if (line.startsWith(prefix)) {
                    found = line;
                }
            }
            return found;
        }

        @Override
        public String toString() {
            String tail = output.length() > 4000 ? "…" + output.substring(output.length() - 4000) : output;
            return "exit " + exit + (timedOut ? " (killed after the timeout)" : "") + ", output:\n" + tail;
        }
    }

    private ChildJvm() {}

    /**
     * Runs {@code main} with {@code jvmOptions} and extra environment {@code env}, killing it after
     * {@code timeoutSeconds}; stdout and stderr are merged.
     */
    public static Result run(Class<?> main, List<String> jvmOptions, Map<String, String> env, long timeoutSeconds,
            String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        command.addAll(jvmOptions);
        String library = System.getProperty("vortex4j.library");
        if (library != null && jvmOptions.stream().noneMatch(o -> o.startsWith("-Dvortex4j.library"))) {
            command.add("-Dvortex4j.library=" + library);
        }
        String fixtureWriter = System.getProperty("vortex4j.test.fixtureWriter");
        if (fixtureWriter != null) {
            command.add("-Dvortex4j.test.fixtureWriter=" + fixtureWriter);
        }
        command.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
        // A crash report goes to the temporary folder, not into the source tree.
        command.add("-XX:ErrorFile=" + System.getProperty("java.io.tmpdir") + File.separator + "vortex4j-hs_err_%p.log");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        Path out = Files.createTempFile("vortex4j-child", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            boolean finished = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (!finished) {
                p.destroyForcibly().waitFor();
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), !finished);
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
