package io.keyline.core.exec;

import io.keyline.domain.FailureClass;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** SPEC §3 in one place: HTTP statuses, exceptions and exit codes to failure classes. */
public final class Classifier {

    /** Exit code meaning "temporary failure, try again" (sysexits EX_TEMPFAIL). */
    public static final int EXIT_RETRYABLE = 75;
    /** Exit code meaning "permission denied / credential rejected" (EX_NOPERM). */
    public static final int EXIT_AUTH = 77;

    private Classifier() {
    }

    /** Class of a completed HTTP exchange's status, or {@code null} for success (2xx). */
    public static FailureClass ofStatus(int status) {
        if (status >= 200 && status < 300) {
            return null;
        }
        return switch (status) {
            case 401, 403 -> FailureClass.AUTH;
            case 429 -> FailureClass.RETRYABLE;
            case 400, 404, 409, 422 -> FailureClass.FATAL;
            case 408 -> FailureClass.TRANSIENT_AFTER_SEND;
            default -> status >= 500 && status < 600 ? FailureClass.TRANSIENT_AFTER_SEND : FailureClass.UNKNOWN;
        };
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
                    || t instanceof NoRouteToHostException) {
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

    /** Parses {@code Retry-After} (delta-seconds or HTTP-date); {@code null} when absent or unreadable. */
    public static Duration retryAfter(String value, Clock clock) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.trim();
        try {
            long seconds = Long.parseLong(v);
            return seconds < 0 ? null : Duration.ofSeconds(seconds);
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
                Duration d = Duration.between(clock.instant(), at.toInstant());
                return d.isNegative() ? Duration.ZERO : d;
            } catch (DateTimeParseException e) {
                return null;
            }
        }
    }
}
