package io.vortex4j.reader.convert;

import io.vortex4j.reader.internal.NativeHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Converts Parquet, CSV and Arrow IPC files (or folders of them) into a Vortex file or a folder
 * of Vortex files, natively with the arrow-rs readers and vortex's default write strategy
 * (low-cardinality strings become dictionaries). Streams in bounded memory.
 *
 * <pre>{@code
 * Converter.Summary s = Converter.convert(List.of(Paths.get("trades.parquet")), Paths.get("trades.vortex"),
 *         ConvertOptions.defaults(), p -> {});
 * }</pre>
 *
 * <p>Drive it step by step to show progress ({@link #step}, {@link #progress}), then {@link
 * #finish}. Closing an unfinished converter deletes the file being written. Errors are {@link
 * io.vortex4j.VortexException}s naming the file (and line and column for CSV).
 */
public final class Converter implements AutoCloseable {
    /** Batches converted per {@link #step}. */
    private static final int BATCHES_PER_STEP = 4;

    private final NativeHandle handle;
    /** Store inputs downloaded and a store output written locally first (nothing for local files). */
    private final Staging staging;
    private final String out;
    private boolean finished;

    /** How far a conversion is: rows written, input bytes read of the total, CSV records skipped. */
    public record Progress(long rows, long bytesDone, long bytesTotal, long badRows) {}

    /** One written file: its path, or its location in an object store. */
    public record WrittenFile(String location, long rows, long bytes) {}

    /** What a conversion wrote. */
    public record Summary(long rows, long badRows, List<WrittenFile> files) {}

    private Converter(long handle, String out, Staging staging) {
        this.handle = new NativeHandle(handle, ConvertNative::freeConverter, "conversion into " + out);
        this.staging = staging;
        this.out = out;
    }

    /**
     * Starts converting {@code inputs} into {@code out}: a {@code .vortex} file, or a folder when
     * the options ask for several files ({@code maxRowsPerFile}, {@code partitionBy}) or {@code
     * out} does not end in {@code .vortex}. Every input must have the first one's columns.
     */
    public static Converter open(List<Path> inputs, Path out, ConvertOptions options) {
        return open(inputs.stream().map(p -> p.toAbsolutePath().toString()).toList(), out.toAbsolutePath().toString(), options);
    }

    /**
     * As {@link #open(List, Path, ConvertOptions)}, for locations: local paths or objects in a
     * store ({@link io.vortex4j.reader.Stores}). Store inputs (an object, a prefix or a glob) are
     * downloaded to a temporary folder first; a store output is written there and uploaded when
     * {@link #finish} completes it, each object atomically.
     */
    public static Converter open(List<String> inputs, String out, ConvertOptions options) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no input files");
        }
        Staging staging = new Staging();
        try {
            List<String> in = new ArrayList<>();
            for (String input : inputs) {
                for (Path p : staging.inputs(input)) {
                    in.add(p.toString());
                }
            }
            Path local = staging.output(out);
            return new Converter(ConvertNative.openConverter(in.toArray(new String[0]), local.toString(), options.toNative()),
                    out, staging);
        } catch (RuntimeException e) {
            staging.close();
            throw e;
        }
    }

    /** Converts all of {@code inputs} into {@code out}, reporting progress after every step. */
    public static Summary convert(List<Path> inputs, Path out, ConvertOptions options, Consumer<Progress> onProgress) {
        try (Converter c = open(inputs, out, options)) {
            while (c.step()) {
                onProgress.accept(c.progress());
            }
            onProgress.accept(c.progress());
            return c.finish();
        }
    }

    /** Converts a few more batches; false when every input has been read. */
    public boolean step() {
        long h = handle.acquire();
        try {
            return ConvertNative.stepConverter(h, BATCHES_PER_STEP);
        } finally {
            handle.release();
        }
    }

    /** How far the conversion is. */
    public Progress progress() {
        long h = handle.acquire();
        try {
            long[] p = ConvertNative.converterProgress(h);
            return new Progress(p[0], p[1], p[2], p[3]);
        } finally {
            handle.release();
        }
    }

    /** Reads what is left, finishes every output file and closes the converter. */
    public Summary finish() {
        Object[] r;
        long h = handle.acquire();
        try {
            r = ConvertNative.finishConverter(h);
            finished = true;
        } finally {
            handle.release();
        }
        handle.close();
        try {
            long[] totals = (long[]) r[0];
            String[] paths = (String[]) r[1];
            long[] rows = (long[]) r[2];
            long[] bytes = (long[]) r[3];
            List<Path> written = new ArrayList<>();
            for (String p : paths) {
                written.add(Path.of(p));
            }
            List<String> locations = staging.publish(out, written);
            List<WrittenFile> files = new ArrayList<>();
            for (int i = 0; i < paths.length; i++) {
                files.add(new WrittenFile(locations.get(i), rows[i], bytes[i]));
            }
            return new Summary(totals[0], totals[1], List.copyOf(files));
        } finally {
            staging.close();
        }
    }

    /** Abandons an unfinished conversion (the file being written is deleted). Idempotent. */
    @Override
    public void close() {
        handle.close();
        staging.close();
    }

    @Override
    public String toString() {
        return "Converter[" + handle.what() + (finished ? ", finished" : "") + "]";
    }
}
