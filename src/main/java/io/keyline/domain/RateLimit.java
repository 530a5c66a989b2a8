package io.keyline.domain;

import io.keyline.text.Said;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A job's per-host request rate ({@code "rateLimit": "10/s"} or {@code "600/min"}): at most
 * {@code permits} requests per {@code per} to each host, spread evenly (one every {@code per / permits}).
 *
 * @param permits requests per period (at least 1)
 * @param per     the period: one second or one minute
 * @param text    as written in the job file
 */
public record RateLimit(int permits, Duration per, String text) {

    /** The most a job may ask for: beyond this a limit limits nothing a loopback site could notice. */
    public static final int MAX_PER_SECOND = 100_000;

    private static final Pattern FORM = Pattern.compile("([0-9]{1,9})\\s*/\\s*(s|sec|second|m|min|minute)");

    public RateLimit {
        if (permits < 1) {
            throw new IllegalArgumentException("a rate limit needs at least 1 request per period");
        }
    }

    /** The time between two requests to one host. */
    public long intervalNanos() {
        return Math.max(1, per.toNanos() / permits);
    }

    /** A rate limit that does not parse: what is wrong, as a message said in the language of who shows it. */
    public static final class InvalidRateException extends IllegalArgumentException {
        private final transient Said said;

        InvalidRateException(Said said) {
            super(said.english());
            this.said = said;
        }

        /** What is wrong (after the value: "is not a rate: …"); {@link #getMessage()} is its English. */
        public Said said() {
            return said;
        }
    }

    /**
     * Parses {@code N/s} or {@code N/min}.
     *
     * @throws IllegalArgumentException with a message that says what is accepted
     */
    public static RateLimit parse(String text) {
        Matcher m = FORM.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new InvalidRateException(Said.of("core.rate.notRate"));
        }
        long n = Long.parseLong(m.group(1));
        boolean perSecond = m.group(2).startsWith("s");
        if (n < 1) {
            throw new InvalidRateException(Said.of("core.rate.zero"));
        }
        if (perSecond ? n > MAX_PER_SECOND : n > MAX_PER_SECOND * 60L) {
            throw new InvalidRateException(Said.of("core.rate.tooMany", String.valueOf(MAX_PER_SECOND), "rateLimit"));
        }
        return new RateLimit((int) n, perSecond ? Duration.ofSeconds(1) : Duration.ofMinutes(1), text.strip());
    }

    @Override
    public String toString() {
        return text;
    }
}
