package io.keyline.core.exec;

import io.keyline.domain.RateLimit;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Per-host gates for a job's requests: a job's {@code rateLimit} is a token bucket of one
 * token per host - requests to one host are spaced {@code period / permits} apart, shared by every key
 * of the job in this process, probes included - and a 429 or 5xx with {@code Retry-After} pauses that
 * host for every key of the job, not just the one that got it.
 *
 * <p>No busy waiting: a request reserves the next free slot under a short lock, then parks until its
 * slot (or returns at once when it is due). When it leaves, a window of the last period's departures
 * is checked too: a caller that woke late does not go out together with the ones on time, so no period
 * ever sees more than its permits. A pause longer than the caller is willing to wait is not
 * waited for: the caller is told how long is left, and its key waits for a retry instead of holding a
 * thread.
 */
public final class HostLimits {

    /**
     * New gates on the real clock. A workspace makes one set (its executors are made once), so every key of a
     * job run from it — runs side by side included — meets at one gate per host; a second workspace in the
     * same process (a test, another state) has its own, so a pause it did not hear never holds it.
     */
    public static HostLimits create() {
        return new HostLimits(System::nanoTime, HostLimits::park);
    }

    /** Waits for a number of nanoseconds; interruptible. */
    @FunctionalInterface
    public interface Parker {
        void park(long nanos) throws InterruptedException;
    }

    /** Up to this many permits per period departures are also counted in a window (beyond, spacing alone). */
    static final int WINDOW_MAX = 10_000;

    private final LongSupplier nanoTime;
    private final Parker parker;
    private final ConcurrentMap<String, Gate> gates = new ConcurrentHashMap<>();

    public HostLimits(LongSupplier nanoTime, Parker parker) {
        this.nanoTime = nanoTime;
        this.parker = parker;
    }

    private static void park(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    /**
     * Waits for the host's next slot and takes it.
     *
     * @param job     the job (gates are per job and host)
     * @param limit   the job's rate limit, or {@code null} (then only a pause can hold the request)
     * @param uri     where the request goes (its scheme, host and port name the gate)
     * @param maxWait the longest the caller waits for a paused host
     * @return how long the caller waited, or, when the host is paused for longer than {@code maxWait},
     *         a negative duration whose magnitude is how long the pause has left (nothing was taken)
     */
    public Duration acquire(String job, RateLimit limit, URI uri, Duration maxWait) throws InterruptedException {
        return acquire(job, limit, uri, maxWait, null);
    }

    /**
     * As {@link #acquire(String, RateLimit, URI, Duration)}, with pauses (Retry-After) read on {@code wall},
     * the caller's clock: a Retry-After is a wall-clock time, and a run on an injected clock that has moved
     * past it is not held by it. {@code null}: the gate's own clock.
     */
    public Duration acquire(String job, RateLimit limit, URI uri, Duration maxWait, java.time.Clock wall)
            throws InterruptedException {
        Gate gate = gate(job, uri);
        long now = nanoTime.getAsLong();
        long wait = gate.reserve(now, pauseNow(wall), limit == null ? 0 : limit.intervalNanos(), maxWait.toNanos());
        if (wait < 0) {
            return Duration.ofNanos(wait);
        }
        if (wait > 0) {
            parker.park(wait);
        }
        if (limit != null && limit.permits() <= WINDOW_MAX) {
            // a caller that woke late (a busy machine) must not bunch up with the ones on time: at most
            // `permits` requests leave in any one period, counted when they leave (never before their slot)
            long at = now + wait;
            while (true) {
                long leaving = Math.max(nanoTime.getAsLong(), at);
                long more = gate.leave(leaving, limit.permits(), limit.per().toNanos());
                if (more <= 0) {
                    break;
                }
                parker.park(more);
                wait += more;
                at = leaving + more;
            }
        }
        return Duration.ofNanos(wait);
    }

    /** A 429 or 5xx with {@code Retry-After}: no request of the job goes to this host before it ends. */
    public void pause(String job, URI uri, Duration retryAfter) {
        pause(job, uri, retryAfter, null);
    }

    /** As {@link #pause(String, URI, Duration)}, the pause's end read on {@code wall} ({@code null}: the gate's clock). */
    public void pause(String job, URI uri, Duration retryAfter, java.time.Clock wall) {
        if (retryAfter == null || retryAfter.isZero() || retryAfter.isNegative()) {
            return;
        }
        gate(job, uri).pauseUntil(pauseNow(wall) + Math.min(retryAfter.toNanos(), Long.MAX_VALUE / 4));
    }

    /** How long the host is paused for the job from now (zero when it is not). */
    public Duration pausedFor(String job, URI uri) {
        Gate g = gates.get(name(job, uri));
        return g == null ? Duration.ZERO : Duration.ofNanos(g.pausedLeft(pauseNow(null)));
    }

    /** Now on the clock pauses are kept on: {@code wall}'s epoch nanoseconds, or the gate's own clock. */
    private long pauseNow(java.time.Clock wall) {
        if (wall == null) {
            return nanoTime.getAsLong();
        }
        java.time.Instant t = wall.instant();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private Gate gate(String job, URI uri) {
        return gates.computeIfAbsent(name(job, uri), n -> new Gate());
    }

    /** A gate's name: the job and the request's origin (scheme, host, port). */
    static String name(String job, URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : scheme.equals("http") ? 80 : -1;
        return job + "\n" + scheme + "://" + host + ":" + port;
    }

    /** One host of one job: when its next request may go, and until when it is paused. */
    private static final class Gate {
        private long nextFree = Long.MIN_VALUE;
        private long pausedUntil = Long.MIN_VALUE;

        /**
         * Reserves the next slot at or after {@code now}.
         *
         * @return nanoseconds to wait for it, or minus the pause left when the pause is longer than {@code maxWait}
         */
        synchronized long reserve(long now, long pauseNow, long interval, long maxWait) {
            long at = now;
            if (pausedUntil != Long.MIN_VALUE && pausedUntil - pauseNow > 0) {
                if (pausedUntil - pauseNow > maxWait) {
                    return -(pausedUntil - pauseNow);
                }
                at = now + (pausedUntil - pauseNow);
            }
            if (interval > 0) {
                if (nextFree != Long.MIN_VALUE && nextFree - at > 0) {
                    at = nextFree;
                }
                nextFree = at + interval;
            }
            return at - now;
        }

        /** When the last requests left, oldest first (at most a period's permits of them). */
        private final java.util.ArrayDeque<Long> left = new java.util.ArrayDeque<>();

        /**
         * Lets a request leave now unless {@code permits} requests already left within the last
         * {@code per}; then returns how long until the oldest of them is a period old (nothing taken).
         */
        synchronized long leave(long now, int permits, long per) {
            while (left.size() > permits || (!left.isEmpty() && now - left.peekFirst() >= per)) {
                left.pollFirst();
            }
            if (left.size() == permits) {
                return left.peekFirst() + per - now;
            }
            left.addLast(now);
            return 0;
        }

        synchronized void pauseUntil(long t) {
            if (pausedUntil == Long.MIN_VALUE || t - pausedUntil > 0) {
                pausedUntil = t;
            }
        }

        synchronized long pausedLeft(long now) {
            return pausedUntil == Long.MIN_VALUE ? 0 : Math.max(0, pausedUntil - now);
        }
    }
}
