package io.zerocopy;

/**
 * Keeps a transfer at or below a rate limit: it says whether the bytes moved so far are ahead of the
 * schedule, and for how long; how large a step may be is {@link TransferFacts#maxStep()}'s to say.
 * It never waits itself.
 */
final class RatePacer {
    private final long bytesPerSecond;
    private boolean running;
    private long started;
    private long pausedUntil;

    /** @param bytesPerSecond the limit, at least 1 */
    RatePacer(long bytesPerSecond) {
        this.bytesPerSecond = bytesPerSecond;
    }

    /**
     * Whether {@code moved} bytes are ahead of the schedule; if so, {@link #delayNanos} says for how
     * long. The schedule starts at the first call, the transfer's first step: a transfer opened and
     * advanced later gets no credit for the time between.
     */
    boolean ahead(long moved) {
        long now = System.nanoTime();
        if (!running) {
            running = true;
            started = now;
        }
        pausedUntil = started + (long) (moved * (1e9 / bytesPerSecond));
        return pausedUntil - now > 0;
    }

    /** How long until the schedule catches up with the bytes moved when last asked; 0 if it has, or has not started. */
    long delayNanos() {
        return running ? Math.max(0, pausedUntil - System.nanoTime()) : 0;
    }
}
