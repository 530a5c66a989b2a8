package io.keyline.acceptance;

/** Job file texts for the acceptance tests; {@code BASE} is replaced by the test site's URL. */
public final class Jobs {
    private Jobs() {
    }

    public static final String FAST_RETRY = """
              "retry": { "maxAttempts": 3, "initialDelay": "PT2S", "multiplier": 2.0, "maxDelay": "PT30S",
                         "jitter": 0.0, "maxElapsed": "PT10M" },
            """;

    /** write (command, none) then publish (http POST with the given effect), optionally with a probe. */
    public static String publish(String name, String effect, boolean probe, String extraStepFields) {
        return """
            {
              "name": "%s",
              "description": "write and publish the daily article",
              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
            %s
              "steps": [
                { "id": "write", "kind": "command", "effect": "none",
                  "command": ["sh", "-c", "mkdir -p out && printf 'article for %%s' {key} > out/{key}.md"] },
                { "id": "publish", "kind": "http", "effect": "%s", %s
                  "request": { "method": "POST", "url": "BASE/api/articles",
                               "headers": { "Content-Type": "text/markdown" }, "bodyFile": "out/{key}.md" },
                  %s
                  "timeout": "PT1S" }
              ]
            }
            """.formatted(name, FAST_RETRY, effect, extraStepFields == null ? "" : extraStepFields,
                probe ? """
                  "probe": { "kind": "http", "url": "BASE/api/articles?date={key}",
                             "presentWhen": { "jsonPointer": "/total", "notEquals": 0 } },
                  """ : "");
    }

    /** One command step with the given effect and shell script. */
    public static String command(String name, String effect, String script, String timeout) {
        return """
            {
              "name": "%s",
              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
            %s
              "steps": [
                { "id": "work", "kind": "command", "effect": "%s", "command": ["sh", "-c", %s],
                  "timeout": "%s" }
              ]
            }
            """.formatted(name, FAST_RETRY, effect, quote(script), timeout);
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
