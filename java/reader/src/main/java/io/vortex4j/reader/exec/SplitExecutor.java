package io.vortex4j.reader.exec;

import io.vortex4j.reader.Cancellation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Runs independent pieces of work (the splits of a dataset, say) side by side on a shared pool of
 * daemon threads named {@code vortex4j-scan-N}, at most {@code threads} at once per call, the
 * calling thread being one of them.
 *
 * <p>Each worker runs under the {@link Cancellation} current on the calling thread, so cancelling
 * or timing out the statement stops every worker within one chunk. The first failure (in item
 * order: the one a sequential loop would have raised) stops the workers from taking more items
 * and is rethrown once every worker has finished; a call never returns, normally or not, while one
 * of its workers still runs. Idle pool threads exit after {@value #KEEP_ALIVE_SECONDS} s.
 */
public final class SplitExecutor {
    /** The system property giving the default parallelism ({@link #defaultThreads()}). */
    public static final String THREADS_PROPERTY = "vortex4j.threads";

    static final long KEEP_ALIVE_SECONDS = 30;

    private static final AtomicInteger THREAD_NUMBER = new AtomicInteger();

    private static final ThreadFactory FACTORY = r -> {
        Thread t = new Thread(r, "vortex4j-scan-" + THREAD_NUMBER.incrementAndGet());
        t.setDaemon(true);
        return t;
    };

    // Unbounded in threads, bounded per call: a call submits at most threads - 1 workers.
    private static final ThreadPoolExecutor POOL = new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_ALIVE_SECONDS,
            TimeUnit.SECONDS, new SynchronousQueue<>(), FACTORY);

    private SplitExecutor() {}

    /**
     * The default parallelism: the system property {@value #THREADS_PROPERTY} when set, else the
     * number of available processors.
     *
     * @throws IllegalArgumentException when the property is not a positive integer
     */
    public static int defaultThreads() {
        String p = System.getProperty(THREADS_PROPERTY);
        return p == null || p.isBlank() ? Runtime.getRuntime().availableProcessors() : parseThreads(THREADS_PROPERTY, p);
    }

    /** {@code value} as a thread count; {@code name} (a property) is named in the error. */
    public static int parseThreads(String name, String value) {
        int n;
        try {
            n = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            n = 0;
        }
        if (n <= 0) {
            throw new IllegalArgumentException(name + " must be a positive integer, not '" + value + "'");
        }
        return n;
    }

    /**
     * {@code work} applied to every item, at most {@code threads} items at once; the results in
     * item order. Throws what the first failing item (in item order) threw.
     */
    public static <T, R> List<R> map(List<T> items, int threads, Function<? super T, ? extends R> work) {
        if (threads <= 0) {
            throw new IllegalArgumentException("threads must be positive, not " + threads);
        }
        int n = items.size();
        Object[] results = new Object[n];
        Throwable[] failures = new Throwable[n];
        AtomicInteger next = new AtomicInteger();
        Cancellation cancellation = Cancellation.current();
        Runnable worker = () -> cancellation.call(() -> {
            int i;
            while ((i = next.getAndIncrement()) < n) {
                try {
                    results[i] = work.apply(items.get(i));
                } catch (Throwable t) {
                    failures[i] = t;
                    next.set(n); // no worker takes another item
                }
            }
            return null;
        });
        // The calling thread is a worker too: the pool runs the others.
        int pooled = Math.min(threads, n) - 1;
        List<Future<?>> running = new ArrayList<>(Math.max(0, pooled));
        try {
            for (int h = 0; h < pooled; h++) {
                running.add(POOL.submit(worker));
            }
        } finally {
            worker.run();
            awaitAll(running);
        }
        for (Throwable t : failures) {
            if (t != null) {
                throw rethrow(t);
            }
        }
        @SuppressWarnings("unchecked")
        List<R> out = (List<R>) Arrays.asList(results);
        return out;
    }

    /** Waits for every worker, even when interrupted (the interrupt is kept for the caller). */
    private static void awaitAll(List<Future<?>> running) {
        boolean interrupted = false;
        for (Future<?> f : running) {
            while (true) {
                try {
                    f.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    break; // workers record their failures themselves
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
