package io.keyline.domain;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A read-only check whether an unsafe step's effect already exists ("query before create").
 * HTTP: {@code presentWhen} (required) decides on a 2xx, 404 or 410 answer; any other answer is
 * inconclusive, a rejected credential (401/403, a redirect to the login page, {@code authWhen}) parks the
 * key. Command: the last stdout line {@code {"present": true|false}} with exit 0 answers; exit 77 or
 * {@code {"outcome": "auth"}} is a rejected credential; anything else is inconclusive.
 *
 * @param kind        http or command
 * @param method      HTTP method (GET, HEAD, PROPFIND, or POST with a body by fields), http only
 * @param url         URL template, http only
 * @param headers     header templates, http only
 * @param presentWhen when the effect is present, http only (required there)
 * @param response    response rules, http only
 * @param redirects   whether same-origin redirects are followed, http only
 * @param command     argument templates, command only
 * @param timeout     probe timeout (the whole exchange)
 * @param extract     values taken from a 2xx or 3xx answer that answered present or absent, by name, http only
 * @param fields      the body of a POST probe given by its fields ({@code json} or {@code form}), or {@code null}
 */
public record ProbeSpec(StepKind kind, String method, String url, Map<String, String> headers,
                        Condition presentWhen, ResponseRules response, Redirects redirects, List<String> command,
                        Duration timeout, Map<String, Extraction> extract, BodyFields fields) {
    public ProbeSpec {
        headers = headers == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(headers));
        command = command == null ? List.of() : List.copyOf(command);
        response = response == null ? ResponseRules.NONE : response;
        redirects = redirects == null ? Redirects.NEVER : redirects;
        extract = extract == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(extract));
    }

    /** A probe without a body. */
    public ProbeSpec(StepKind kind, String method, String url, Map<String, String> headers, Condition presentWhen,
                     ResponseRules response, Redirects redirects, List<String> command, Duration timeout,
                     Map<String, Extraction> extract) {
        this(kind, method, url, headers, presentWhen, response, redirects, command, timeout, extract, null);
    }

    /** A probe without extraction. */
    public ProbeSpec(StepKind kind, String method, String url, Map<String, String> headers, Condition presentWhen,
                     ResponseRules response, Redirects redirects, List<String> command, Duration timeout) {
        this(kind, method, url, headers, presentWhen, response, redirects, command, timeout, Map.of(), null);
    }
}
