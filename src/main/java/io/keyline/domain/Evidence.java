package io.keyline.domain;

import java.time.Instant;
import java.util.List;

/**
 * What an attempt sent and received (SPEC §3). Every text is redacted before it gets here.
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
 */
public record Evidence(Instant time, int attempt, RequestSummary request, Integer status, String responseBody,
                       Integer exitCode, String stderr, String stdout, List<String> command, String detail) {

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
