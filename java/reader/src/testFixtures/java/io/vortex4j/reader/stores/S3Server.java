package io.vortex4j.reader.stores;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * An S3 API server for the tests (S3Proxy over an in-memory blob store) on 127.0.0.1, with
 * credentials of its own, and a fault-injecting proxy in front of it. Stops with {@link #close}
 * or the JVM.
 */
public final class S3Server implements AutoCloseable {
    public static final String ACCESS_KEY = "vortex4j-test";
    public static final String SECRET_KEY = "vortex4j-test-secret";

    private final BlobStoreContext context;
    private final S3Proxy proxy;
    private final Faults faults;

    private S3Server(BlobStoreContext context, S3Proxy proxy) throws IOException {
        this.context = context;
        this.proxy = proxy;
        this.faults = new Faults(proxy.getPort());
    }

    /** Starts a server. */
    public static S3Server start() {
        try {
            BlobStoreContext context = ContextBuilder.newBuilder("transient").build(BlobStoreContext.class);
            S3Proxy proxy = S3Proxy.builder()
                    .blobStore(context.getBlobStore())
                    .endpoint(URI.create("http://127.0.0.1:0"))
                    .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                    // object_store names a checksum on bulk deletes; S3Proxy 2.6 refuses such headers unless told to ignore them.
                    .ignoreUnknownHeaders(true)
                    .build();
            proxy.start();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!"STARTED".equals(proxy.getState())) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
                }
                Thread.sleep(10);
            }
            S3Server server = new S3Server(context, proxy);
            Runtime.getRuntime().addShutdownHook(new Thread(server::close));
            return server;
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the S3 test server", e);
        }
    }

    /** The server's endpoint. */
    public String endpoint() {
        return "http://127.0.0.1:" + proxy.getPort();
    }

    /** The fault-injecting endpoint in front of the server ({@link #faults()}). */
    public String faultyEndpoint() {
        return "http://127.0.0.1:" + faults.port();
    }

    /** The faults the faulty endpoint injects. */
    public Faults faults() {
        return faults;
    }

    /** Store properties reaching the server at {@code endpoint} with the server's credentials. */
    public static Map<String, String> properties(String endpoint) {
        Map<String, String> p = new TreeMap<>();
        p.put("s3.endpoint", endpoint);
        p.put("s3.region", "us-east-1");
        p.put("s3.access_key_id", ACCESS_KEY);
        p.put("s3.secret_access_key", SECRET_KEY);
        p.put("s3.allow_http", "true");
        p.put("s3.path_style", "true");
        return p;
    }

    /** Creates {@code bucket}. */
    public void createBucket(String bucket) {
        context.getBlobStore().createContainerInLocation(null, bucket);
    }

    /** Stores {@code file} as {@code key} of {@code bucket}. */
    public void put(String bucket, String key, Path file) {
        try {
            BlobStore store = context.getBlobStore();
            store.putBlob(bucket, store.blobBuilder(key).payload(Files.readAllBytes(file)).build());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Stores every file under {@code dir} as {@code prefix} + its path relative to {@code dir}. */
    public void putTree(String bucket, String prefix, Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(Files::isRegularFile).forEach(f -> put(bucket, prefix + dir.relativize(f).toString().replace('\\', '/'), f));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            faults.close();
            proxy.stop();
        } catch (Exception e) {
            // stopping twice (close, then the shutdown hook) is fine
        }
        context.close();
    }

    /**
     * A TCP proxy to the server that can answer the next connections with {@code 503 Slow Down},
     * hold them without an answer (a stalled server), or add latency to every request.
     */
    public static final class Faults implements AutoCloseable {
        private final ServerSocket socket;
        private final int target;
        private final AtomicInteger unavailable = new AtomicInteger();
        private volatile boolean stalled;
        private volatile long delayMillis;
        /** Connections accepted so far. */
        public final AtomicInteger connections = new AtomicInteger();
        /** HEAD requests forwarded so far. */
        public final AtomicInteger heads = new AtomicInteger();

        Faults(int target) throws IOException {
            this.target = target;
            this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread t = new Thread(this::accept, "s3-faults");
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        /** The next {@code n} connections are answered {@code 503} and closed. */
        public void unavailable(int n) {
            unavailable.set(n);
        }

        /** Adds {@code millis} before each request (each write of the client) reaches the server. */
        public void delay(long millis) {
            delayMillis = millis;
        }

        /** Whether new connections are held without an answer. */
        public void stalled(boolean on) {
            stalled = on;
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket client = socket.accept();
                    connections.incrementAndGet();
                    Thread t = new Thread(() -> serve(client), "s3-faults-connection");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serve(Socket client) {
            try (client) {
                if (stalled) {
                    client.getInputStream().transferTo(OutputStream.nullOutputStream());
                    return;
                }
                if (unavailable.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    readHead(client.getInputStream());
                    client.getOutputStream().write(("HTTP/1.1 503 Slow Down\r\nContent-Length: 0\r\n"
                            + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    client.getOutputStream().flush();
                    return;
                }
                try (Socket server = new Socket()) {
                    server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target));
                    Thread up = new Thread(() -> delayedPipe(client, server));
                    up.setDaemon(true);
                    up.start();
                    pipe(server, client);
                }
            } catch (IOException e) {
                // the client or the server hung up
            }
        }

        private static void readHead(InputStream in) throws IOException {
            int state = 0;
            while (state < 4) {
                int b = in.read();
                if (b < 0) {
                    return;
                }
                state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
            }
        }

        /** {@link #pipe}, waiting {@link #delay} before forwarding each read of the client's. */
        private void delayedPipe(Socket from, Socket to) {
            byte[] buffer = new byte[1 << 16];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    if (n >= 5 && new String(buffer, 0, 5, StandardCharsets.US_ASCII).equals("HEAD ")) {
                        heads.incrementAndGet();
                    }
                    long d = delayMillis;
                    if (d > 0) {
                        Thread.sleep(d);
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
                to.shutdownOutput();
            } catch (IOException | InterruptedException e) {
                // closed
            }
        }

        private static void pipe(Socket from, Socket to) {
            try {
                from.getInputStream().transferTo(to.getOutputStream());
                to.shutdownOutput();
            } catch (IOException e) {
                // closed
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
