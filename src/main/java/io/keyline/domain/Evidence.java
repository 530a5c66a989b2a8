package io.keyline.domain;

import java.time.Instant;
import java.util.List;

/**
 * What an attempt sent and received. Every text is redacted before it gets here.
 *
 * @param time         when the attempt ended
 * @param attempt      attempt number
 * @param request      request summary (http), or {@code null}
 * @param status       HTTP status, or {@code null}
 * @param responseBody first 8 KiB of the response body, or {@code null}
 * @param exitCode     command exit code, or {@code null}
 * @param stderr       last 8 KiB of stderr, or {@code null}
 * @param stdout       last 8 KiB of stdout, or {@code null}
 * @param command      the command line as executed (commands never carry secrets), or {@code null}
 * @param detail       exception or probe detail, or {@code null}
 * @param probe        {@code true} when a probe asked this, before attempt {@code attempt}: no attempt of the step;
 *                     {@code null} otherwise (and in evidence stored before probes were told apart)
 */
public record Evidence(Instant time, int attempt, RequestSummary request, Integer status, String responseBody,
                       Integer exitCode, String stderr, String stdout, List<String> command, String detail,
                       Boolean probe) {

    /** Longest text field kept in stored evidence (bodies and tails are cut at 8 KiB before this). */
    public static final int MAX_TEXT = 16 * 1024;
    /** Most command arguments kept. */
    public static final int MAX_ARGS = 100;

    /**
     * The evidence with every field bounded, so that storing it can never fail on its size (an
     * executor keeps 8 KiB of bodies and tails; this bounds what any caller passes).
     */
    public Evidence bounded() {
        List<String> cmd = command;
        if (cmd != null && (cmd.size() > MAX_ARGS || cmd.stream().anyMatch(a -> a != null && a.length() > 4096))) {
            cmd = cmd.stream().limit(MAX_ARGS).map(a -> clip(a, 4096)).toList();
        }
        RequestSummary req = request;
        if (req != null && (req.url().length() > 4096 || req.headerNames().size() > 100)) {
            req = new RequestSummary(req.method(), clip(req.url(), 4096),
                    req.headerNames().stream().limit(100).toList(), req.bodyBytes(), req.bodySha256());
        }
        return new Evidence(time, attempt, req, status, clip(responseBody, MAX_TEXT), exitCode, clip(stderr, MAX_TEXT),
                clip(stdout, MAX_TEXT), cmd, clip(detail, MAX_TEXT), probe);
    }

    /** The same evidence with {@code redact} applied to every text that may hold what an answer said or was sent. */
    public Evidence redacted(java.util.function.UnaryOperator<String> redact) {
        RequestSummary req = request == null ? null : new RequestSummary(request.method(),
                redact.apply(request.url()), request.headerNames(), request.bodyBytes(), request.bodySha256());
        return new Evidence(time, attempt, req, status, redact.apply(responseBody), exitCode, redact.apply(stderr),
                redact.apply(stdout), command == null ? null : command.stream().map(redact).toList(),
                redact.apply(detail), probe);
    }

    /** The same evidence, as a probe's. */
    public Evidence asProbe() {
        return new Evidence(time, attempt, request, status, responseBody, exitCode, stderr, stdout, command, detail,
                Boolean.TRUE);
    }

    /** Whether a probe asked this (it then precedes attempt {@link #attempt}; no attempt of the step made it). */
    public boolean fromProbe() {
        return Boolean.TRUE.equals(probe);
    }

    private static String clip(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max) + "… (cut)";
    }

    /**
     * What an HTTP request carried, without secrets.
     *
     * @param method      method
     * @param url         URL (query values of secret names are redacted)
     * @param headerNames names of the headers sent (values not recorded)
     * @param bodyBytes   body size
     * @param bodySha256  hex SHA-256 of the body, or {@code null} without a body
     */
    public record RequestSummary(String method, String url, List<String> headerNames, long bodyBytes,
                                 String bodySha256) {
    }
}
