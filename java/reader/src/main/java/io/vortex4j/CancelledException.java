package io.vortex4j;

/**
 * A scan stopped because its {@link io.vortex4j.reader.Cancellation} asked it to: the flag was
 * set (e.g. by JDBC's {@code Statement.cancel()}) or the deadline passed ({@link #isTimeout()},
 * e.g. {@code Statement.setQueryTimeout}). The scan's chunks read so far stay valid; the scan
 * itself should be closed.
 */
public class CancelledException extends VortexException {
    private static final long serialVersionUID = 1L;

    private final boolean timeout;

    /** Creates the exception; {@code timeout} tells a passed deadline from a cancel request. */
    public CancelledException(String message, boolean timeout) {
        super(message);
        this.timeout = timeout;
    }

    /** True when the deadline passed, false when the query was cancelled. */
    public boolean isTimeout() {
        return timeout;
    }
}
