package io.keyline.domain;

import java.util.Map;

/**
 * An HTTP request template; strings may hold placeholders ({@code {key}}, {@code {job}},
 * {@code {runId}}, {@code {steps.ID.outputs.NAME}}).
 *
 * @param method    GET, POST, PUT, PATCH or DELETE
 * @param url       absolute http(s) URL template
 * @param headers   header templates in file order (never Cookie/Authorization: those come from credentials)
 * @param body      inline body template, or {@code null}
 * @param bodyFile  body file template relative to the job folder, or {@code null}
 * @param response  what the answer means beyond its status (the step's {@code response})
 * @param redirects whether same-origin redirects are followed (the step's {@code followRedirects}; GET only)
 * @param fields    a body given by its fields ({@code form}, {@code multipart}, {@code json}), or {@code null}
 * @param extract   values taken from an answer that passed the response rules, by output name (the step's
 *                  {@code extract}), in file order
 */
public record HttpRequestSpec(String method, String url, Map<String, String> headers, String body, String bodyFile,
                              ResponseRules response, Redirects redirects, BodyFields fields,
                              Map<String, Extraction> extract) {
    public HttpRequestSpec {
        headers = headers == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(headers));
        response = response == null ? ResponseRules.NONE : response;
        redirects = redirects == null ? Redirects.NEVER : redirects;
        extract = extract == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(extract));
    }

    /** A request without a body by fields and without extraction. */
    public HttpRequestSpec(String method, String url, Map<String, String> headers, String body, String bodyFile,
                           ResponseRules response, Redirects redirects) {
        this(method, url, headers, body, bodyFile, response, redirects, null, Map.of());
    }
}
