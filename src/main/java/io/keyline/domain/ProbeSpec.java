package io.keyline.domain;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A read-only check whether an unsafe step's effect already exists ("query before create").
 * HTTP: without {@code presentWhen}, 2xx means present and 404 absent. Command: exit 0 means
 * present, exit 1 absent; anything else is inconclusive.
 *
 * @param kind        http or command
 * @param method      HTTP method (GET or HEAD), http only
 * @param url         URL template, http only
 * @param headers     header templates, http only
 * @param presentWhen JSON condition, http only, optional
 * @param command     argument templates, command only
 * @param timeout     probe timeout
 */
public record ProbeSpec(StepKind kind, String method, String url, Map<String, String> headers,
                        PresentWhen presentWhen, List<String> command, Duration timeout) {
    public ProbeSpec {
        headers = headers == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(headers));
        command = command == null ? List.of() : List.copyOf(command);
    }
}
