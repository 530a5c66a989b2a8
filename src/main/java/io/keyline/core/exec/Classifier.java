package io.keyline.core.exec;

import io.keyline.domain.FailureClass;
import io.keyline.domain.FailureOrigin;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import javax.net.ssl.SSLHandshakeException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.function.Function;

/** The failure classification in one place: HTTP statuses, exceptions and exit codes to failure classes. */
public final class Classifier {

    /** Exit code meaning "temporary failure, try again" (sysexits EX_TEMPFAIL). */
    public static final int EXIT_RETRYABLE = 75;
    /** Exit code meaning "permission denied / credential rejected" (EX_NOPERM). */
    public static final int EXIT_AUTH = 77;

    private Classifier() {
    }

    /** The longest {@code Retry-After} taken from a server; the engine clamps it further to the retry policy. */
    public static final Duration MAX_RETRY_AFTER = Duration.ofDays(1);

    /**
     * Class of a completed HTTP exchange's status, or {@code null} for success (2xx). A 3xx is
     * {@link FailureClass#FATAL} here; the executor first tells a redirect to the login page ({@code AUTH}).
     *
     * @param keyInProgress whether a 409 says that a request with the same {@code Idempotency-Key} is still being
     *                      processed ({@link #speaksOfIdempotencyKey}): then it is
     *                      {@link FailureClass#TRANSIENT_AFTER_SEND} (wait, then resend or probe); any other 409 is a
     *                      conflict the site refused ({@link FailureClass#FATAL}: nothing was done)
     */
    public static FailureClass ofStatus(int status, boolean keyInProgress) {
        if (status >= 200 && status < 300) {
            return null;
        }
        if (status == 409) {
            return keyInProgress ? FailureClass.TRANSIENT_AFTER_SEND : FailureClass.FATAL;
        }
        return switch (status) {
            case 401, 403 -> FailureClass.AUTH;
            // 507: "the method could not be performed", and the condition "is considered to be temporary" (WebDAV)
            case 429, 503, INSUFFICIENT_STORAGE -> FailureClass.RETRYABLE;
            case 501 -> FailureClass.FATAL;
            default -> status >= 500 && status < 600 ? FailureClass.TRANSIENT_AFTER_SEND
                    : status >= 300 && status < 500 ? FailureClass.FATAL : FailureClass.UNKNOWN;
        };
    }

    /** WebDAV's {@code 507 Insufficient Storage}: the server is out of space for what the request would store. */
    public static final int INSUFFICIENT_STORAGE = 507;

    /**
     * Whether an answer speaks of the idempotency key, as a server that honours {@code Idempotency-Key} does when it
     * refuses a request whose key is still being processed: its body says so (the Idempotency-Key draft's problem
     * "A request is outstanding for this Idempotency-Key", Stripe's "another in-progress request using this Idempotent
     * Key") or its {@code Link} header points at its documentation of idempotency. WebDAV's 409 ("Parent node does
     * not exist") and other conflicts (Dropbox's {@code path/conflict}) do not. The key that was sent is left out first,
     * so a server that echoes it (a job named {@code idempotency-demo}) does not speak of it by that alone.
     *
     * @param body   the start of the answer's body, or {@code null}
     * @param header the answer's first value of a header, by name ({@code null} when absent)
     * @param sent   the {@code Idempotency-Key} the request carried
     */
    public static boolean speaksOfIdempotencyKey(String body, Function<String, String> header, String sent) {
        return speaksOf(body, sent) || speaksOf(header.apply("Link"), sent);
    }

    private static boolean speaksOf(String text, String sent) {
        if (text == null) {
            return false;
        }
        String t = sent == null || sent.isEmpty() ? text : text.replace(sent, "");
        return t.toLowerCase(java.util.Locale.ROOT).contains("idempoten");
    }

    /**
     * Class of an answer's status as {@link #ofStatus(int, boolean)}, except that a {@code 403} that says the client
     * is rate limited ({@link #rateLimited}) is {@link FailureClass#RETRYABLE}: the site refused the request for its
     * pace, did nothing, and says when to come back.
     */
    public static FailureClass ofStatus(int status, boolean keyInProgress, boolean rateLimited) {
        return status == 403 && rateLimited ? FailureClass.RETRYABLE : ofStatus(status, keyInProgress);
    }

    /**
     * Class of an exception thrown while sending a request. Only failures that prove the request
     * never reached the server are {@link FailureClass#RETRYABLE}; any doubt is
     * {@link FailureClass#TRANSIENT_AFTER_SEND}.
     */
    public static FailureClass ofException(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof HttpConnectTimeoutException || t instanceof ConnectException
                    || t instanceof UnknownHostException || t instanceof UnresolvedAddressException
                    || t instanceof NoRouteToHostException || t instanceof SSLHandshakeException) {
                // a TLS handshake precedes the request: when it fails, no byte of the request was sent
                return FailureClass.RETRYABLE;
            }
        }
        if (e instanceof HttpTimeoutException || e instanceof IOException) {
            return FailureClass.TRANSIENT_AFTER_SEND;
        }
        if (e instanceof IllegalArgumentException) {
            return FailureClass.FATAL;
        }
        return FailureClass.UNKNOWN;
    }

    /**
     * Whose doing an exception thrown while sending a request was: {@link FailureOrigin#ENVIRONMENT} when it
     * proves that nothing reached the site (the same causes that make it {@link FailureClass#RETRYABLE}:
     * a name that does not resolve, a refused or timed-out connection, no route, a failed TLS handshake),
     * {@link FailureOrigin#NO_ANSWER} for a failure after sending (a timeout, a reset), else
     * {@link FailureOrigin#ANSWER} (a request that cannot be made: the job's own doing).
     */
    public static FailureOrigin originOf(Throwable e) {
        if (ofException(e) == FailureClass.RETRYABLE) {
            return FailureOrigin.ENVIRONMENT;
        }
        if (e instanceof IOException) {
            return FailureOrigin.NO_ANSWER;
        }
        return FailureOrigin.ANSWER;
    }

    /** A shell's exit codes for "command not found" (127) and "found but cannot be executed" (126). */
    public static final int EXIT_NOT_FOUND = 127;
    public static final int EXIT_CANNOT_EXECUTE = 126;

    /**
     * Whose doing a command's failing exit was: 126 and 127 are a shell's "cannot execute" and "not found"
     * (the program is missing or not allowed to run: {@link FailureOrigin#ENVIRONMENT}); any other code is
     * the program's answer.
     */
    public static FailureOrigin originOfExit(int exit) {
        return exit == EXIT_NOT_FOUND || exit == EXIT_CANNOT_EXECUTE ? FailureOrigin.ENVIRONMENT
                : FailureOrigin.ANSWER;
    }

    /** Class of a command's exit; {@code null} for success (0). */
    public static FailureClass ofExit(int exit) {
        return switch (exit) {
            case 0 -> null;
            case EXIT_RETRYABLE -> FailureClass.RETRYABLE;
            case EXIT_AUTH -> FailureClass.AUTH;
            case 64, 65 -> FailureClass.FATAL;
            default -> FailureClass.UNKNOWN;
        };
    }

    /** A command's {@code outcome} word, or {@code null} when it is not one of ours. */
    public static FailureClass ofOutcome(String outcome) {
        if (outcome == null) {
            return null;
        }
        return switch (outcome) {
            case "retryable" -> FailureClass.RETRYABLE;
            case "fatal" -> FailureClass.FATAL;
            case "auth" -> FailureClass.AUTH;
            case "ambiguous" -> FailureClass.AMBIGUOUS;
            default -> null;
        };
    }

    /**
     * A reset given as a number at least this large is a time in seconds since the epoch (GitHub's
     * {@code x-ratelimit-reset}, "UTC epoch seconds"); a smaller one counts seconds from now. No site means a
     * wait of 31 years, and no reset since 2001 is smaller.
     */
    static final long EPOCH_SECONDS_FROM = 1_000_000_000L;

    /**
     * The wait an answer asks for: its {@code Retry-After}, else, when it says no request is left
     * ({@code X-RateLimit-Remaining: 0}), the time until {@code X-RateLimit-Reset}; capped as
     * {@link #retryAfter(String, Clock)}. The reset is an ISO-8601 time (Mastodon answers its 429 so, without a
     * {@code Retry-After}) or a whole number of seconds: since the epoch from {@link #EPOCH_SECONDS_FROM} on
     * (GitHub), else from now. {@code null} when the answer says neither, or the reset is none of these.
     *
     * @param header the answer's first value of a header, by name ({@code null} when absent)
     */
    public static Duration serverWait(Function<String, String> header, Clock clock) {
        Duration retryAfter = retryAfter(header.apply("Retry-After"), clock);
        if (retryAfter != null || !spent(header)) {
            return retryAfter;
        }
        String reset = header.apply("X-RateLimit-Reset");
        if (reset == null) {
            return null;
        }
        String v = reset.strip();
        if (!v.isEmpty() && v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            String digits = v.replaceFirst("^0+(?=.)", "");
            if (digits.length() > 18) {
                return MAX_RETRY_AFTER; // far beyond the cap either way, and no long holds it
            }
            long n = Long.parseLong(digits);
            return n >= EPOCH_SECONDS_FROM ? until(Instant.ofEpochSecond(n), clock)
                    : Duration.ofSeconds(Math.min(n, MAX_RETRY_AFTER.toSeconds()));
        }
        try {
            return until(OffsetDateTime.parse(v).toInstant(), clock);
        } catch (DateTimeParseException | ArithmeticException e) {
            return null;
        }
    }

    /**
     * Whether an answer says the client is being rate limited: it asks for a wait ({@code Retry-After}) or says
     * no request is left ({@code X-RateLimit-Remaining: 0}). GitHub answers a spent limit {@code 403} as often as
     * {@code 429}; such a {@code 403} is about the pace of requests, not the login that sent them.
     */
    public static boolean rateLimited(Function<String, String> header) {
        String retryAfter = header.apply("Retry-After");
        return retryAfter != null && !retryAfter.isBlank() || spent(header);
    }

    private static boolean spent(Function<String, String> header) {
        String remaining = header.apply("X-RateLimit-Remaining");
        return remaining != null && remaining.strip().equals("0");
    }

    private static Duration until(Instant at, Clock clock) {
        Duration d = Duration.between(clock.instant(), at);
        return d.isNegative() ? Duration.ZERO : d.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : d;
    }

    /**
     * Parses {@code Retry-After} (delta-seconds or HTTP-date), at most {@link #MAX_RETRY_AFTER} (any number of
     * digits is read without overflow); {@code null} when absent or unreadable.
     */
    public static Duration retryAfter(String value, Clock clock) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.trim();
        if (v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            String digits = v.replaceFirst("^0+(?=.)", "");
            long max = MAX_RETRY_AFTER.toSeconds();
            // more than 18 digits cannot be a long; any such number is far beyond the cap
            long seconds = digits.length() > 18 ? max : Math.min(Long.parseLong(digits), max);
            return Duration.ofSeconds(seconds);
        }
        try {
            ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
            Duration d = Duration.between(clock.instant(), at.toInstant());
            return d.isNegative() ? Duration.ZERO : d.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : d;
        } catch (DateTimeParseException | ArithmeticException e) {
            return null;
        }
    }
}
