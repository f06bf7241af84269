package io.vortex4j.tpch;

import io.vortex4j.reader.convert.ConvertOptions;
import io.vortex4j.reader.convert.Converter;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The TPC-H tables of one scale factor, laid out as {@code bench/tpch/generate.sh} lays them
 * out: {@code ROOT/tpch-sfSF/parquet/TABLE.parquet}, written by {@code tpchgen-cli} (PyPI package
 * {@code tpchgen-cli}: decimals as DECIMAL(15, 2), dates as DATE, keys as BIGINT), and {@code
 * ROOT/tpch-sfSF/vortex/TABLE.vortex}, each converted from its Parquet file by the reader's
 * {@link Converter} (what {@code vortex4j convert} runs). Whatever already exists is kept.
 */
public final class TpchData {
    /** The eight tables, smallest first. */
    public static final List<String> TABLES =
            List.of("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem");

    /** The folder of this scale factor ({@code ROOT/tpch-sfSF}). */
    public final Path dir;
    /** The Parquet files, one per table. */
    public final Path parquet;
    /** The Vortex files, one per table: a {@code jdbc:vortex:} folder. */
    public final Path vortex;
    /** The scale factor as the folder names it ({@code 0.01}, {@code 1}). */
    public final String scaleFactor;

    private TpchData(Path root, String scaleFactor) {
        this.scaleFactor = scaleFactor;
        this.dir = root.resolve("tpch-sf" + scaleFactor);
        this.parquet = dir.resolve("parquet");
        this.vortex = dir.resolve("vortex");
    }

    /** The Parquet file of {@code table}. */
    public Path parquet(String table) {
        return parquet.resolve(table + ".parquet");
    }

    /** The Vortex file of {@code table}. */
    public Path vortex(String table) {
        return vortex.resolve(table + ".vortex");
    }

    /** A scale factor as folder names spell it: {@code 1.0} and {@code 1} are {@code 1}. */
    public static String scaleFactor(String sf) {
        BigDecimal v = new BigDecimal(sf.trim());
        if (v.signum() <= 0) {
            throw new IllegalArgumentException("scale factor must be positive: " + sf);
        }
        return v.stripTrailingZeros().toPlainString();
    }

    /**
     * The tables of scale factor {@code sf} under {@code root}, generating the missing Parquet
     * files and converting the missing Vortex files; {@code log} hears what is being done.
     *
     * @throws IllegalStateException if Parquet files are missing and {@code tpchgen-cli} is not installed
     */
    public static TpchData ensure(Path root, String sf, Consumer<String> log) throws IOException, InterruptedException {
        TpchData d = new TpchData(root, scaleFactor(sf));
        List<String> noParquet = new ArrayList<>();
        for (String t : TABLES) {
            if (!Files.isRegularFile(d.parquet(t))) {
                noParquet.add(t);
            }
        }
        if (!noParquet.isEmpty()) {
            d.generate(noParquet, log);
        }
        Files.createDirectories(d.vortex);
        for (String t : TABLES) {
            if (!Files.isRegularFile(d.vortex(t))) {
                log.accept("converting " + d.parquet(t) + " to " + d.vortex(t));
                // Written under NAME.partial and renamed when complete.
                Converter.convert(List.of(d.parquet(t)), d.vortex(t), ConvertOptions.defaults(), p -> {});
            }
        }
        return d;
    }

    /** Runs tpchgen-cli for {@code tables} into a scratch folder, then moves each file into place. */
    private void generate(List<String> tables, Consumer<String> log) throws IOException, InterruptedException {
        String cli = tpchgen();
        Files.createDirectories(parquet);
        Path scratch = Files.createTempDirectory(dir, ".generating-");
        try {
            log.accept("generating TPC-H SF " + scaleFactor + " " + tables + " with " + cli + " into " + parquet);
            List<String> command = List.of(cli, "parquet", "--scale-factor", scaleFactor, "--tables",
                    String.join(",", tables), "--output-dir", scratch.toString(), "--quiet", "--no-progress");
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output;
            try (InputStream in = p.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            int rc = p.waitFor();
            if (rc != 0) {
                throw new IOException(String.join(" ", command) + " failed (exit " + rc + "):\n" + output);
            }
            for (String t : tables) {
                Path out = scratch.resolve(t + ".parquet");
                if (!Files.isRegularFile(out)) {
                    throw new IOException(String.join(" ", command) + " wrote no " + out.getFileName() + ":\n" + output);
                }
                Files.move(out, parquet(t), StandardCopyOption.ATOMIC_MOVE);
            }
        } finally {
            try (Stream<Path> s = Files.walk(scratch)) {
                for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /**
     * The {@code tpchgen-cli} executable: {@code $TPCHGEN_CLI}, else the first on {@code PATH},
     * else in Python's script folders ({@code pip install} and {@code pip install --user} put it
     * there, and the latter is often not on {@code PATH}).
     *
     * @throws IllegalStateException if there is none, saying how to install it
     */
    public static String tpchgen() {
        String explicit = System.getenv("TPCHGEN_CLI");
        if (explicit != null && !explicit.isEmpty()) {
            return explicit;
        }
        Set<Path> candidates = new LinkedHashSet<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(File.pathSeparator)) {
                if (!d.isEmpty()) {
                    candidates.add(Paths.get(d));
                }
            }
        }
        candidates.addAll(pythonScriptFolders());
        candidates.add(Paths.get(System.getProperty("user.home"), ".local", "bin"));
        for (Path d : candidates) {
            Path exe = d.resolve("tpchgen-cli");
            if (Files.isRegularFile(exe) && Files.isExecutable(exe)) {
                return exe.toString();
            }
        }
        throw new IllegalStateException("tpchgen-cli is not installed; it generates the TPC-H data: "
                + "python3 -m pip install --user tpchgen-cli (or python3 -m pip install --break-system-packages tpchgen-cli; "
                + ".ci/run installs it), or set TPCHGEN_CLI to its path");
    }

    /** Where python3's pip puts scripts, system-wide and per user; none when there is no python3. */
    private static List<Path> pythonScriptFolders() {
        List<Path> out = new ArrayList<>();
        try {
            Process p = new ProcessBuilder("python3", "-c",
                    "import site, sysconfig; print(sysconfig.get_path('scripts')); print(site.USER_BASE + '/bin')")
                    .redirectErrorStream(true).start();
            String text;
            try (InputStream in = p.getInputStream()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (p.waitFor() == 0) {
                text.lines().map(String::trim).filter(l -> !l.isEmpty()).forEach(l -> out.add(Paths.get(l)));
            }
        } catch (IOException e) {
            // no python3
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out;
    }
}
