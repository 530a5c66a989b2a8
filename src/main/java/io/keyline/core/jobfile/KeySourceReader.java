package io.keyline.core.jobfile;

import io.keyline.domain.ConfirmPolicy;
import io.keyline.domain.Effect;
import io.keyline.domain.Extraction;
import io.keyline.domain.HttpRequestSpec;
import io.keyline.domain.KeySource;
import io.keyline.domain.KeySpec;
import io.keyline.domain.KeyType;
import io.keyline.domain.Redirects;
import io.keyline.domain.ResponseRules;
import io.keyline.domain.RetryPolicy;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.domain.Template;
import io.keyline.text.Said;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Reads a job's {@code "keys": {"source": …, "maxKeys": N}}: a command that lists the keys, or an http GET with
 * {@code "extract": {"json": POINTER, "each": POINTER}} whose answer holds them.
 */
final class KeySourceReader {

    static final List<String> FIELDS = List.of("source", "maxKeys");
    static final List<String> SOURCE_FIELDS = List.of("command", "url", "method", "headers", "response", "extract",
            "timeout");
    static final List<String> EXTRACT_FIELDS = List.of("json", "each");
    /** The id the source's step has in messages, the run log and its environment ({@code KEYLINE_STEP}). */
    static final String STEP_ID = "keys-source";
    /** The most keys a listing may be bounded to. */
    static final int MAX_KEYS = 100_000;

    private KeySourceReader() {
    }

    /**
     * The source, or {@code null} when it is invalid (the problems are reported).
     *
     * @param key the job's key (a source is for manual keys), or {@code null} when it is invalid itself
     */
    static KeySource read(ObjectView job, KeySpec key) {
        return job.readObject("keys", FIELDS, keys -> source(job, key, keys));
    }

    private static KeySource source(ObjectView job, KeySpec key, ObjectView keys) {
        if (key != null && key.type() != KeyType.MANUAL) {
            job.problems().atName(job.field("keys"), Said.of("core.jobfile.keysNotManual", "keys", key.type().jsonName()));
        }
        Integer max = keys.integer("maxKeys", 1, MAX_KEYS);
        if (!keys.require("source", Said.of("core.jobfile.hint.source"))) {
            return null;
        }
        ObjectView src = keys.objectField("source", SOURCE_FIELDS);
        if (src == null) {
            return null;
        }
        boolean command = src.has("command");
        if (command == src.has("url")) {
            src.problems().at(src.node(), Said.of(command ? "core.jobfile.sourceBoth" : "core.jobfile.sourceNeither",
                    src.label(), "{\"outputs\": {\"keys\": [...]}}"));
            return null;
        }
        StepTemplates templates = new StepTemplates(src.problems(), Map.of(), 0, src.label());
        Duration timeout = src.duration("timeout");
        StepDefinition step;
        String each = null;
        if (command) {
            for (String httpOnly : List.of("method", "headers", "response", "extract")) {
                src.forbid(httpOnly, "core.jobfile.notOnCommandSource");
            }
            List<SourceNode.Str> args = src.strings("command");
            List<String> argv = null;
            if (args != null && noKey(src, args, src.pathOf("command"))) {
                if (args.get(0).value().isBlank()) {
                    src.problems().at(args.get(0), Said.of("core.jobfile.noProgram", src.pathOf("command") + "[0]"));
                } else {
                    argv = templates.command(args, src.pathOf("command"));
                }
            }
            step = argv == null ? null : new StepDefinition(STEP_ID, StepKind.COMMAND, Effect.NONE,
                    ConfirmPolicy.NEVER, null, argv, Map.of(), null, null, null,
                    timeout == null ? Duration.ofMinutes(1) : timeout, RetryPolicy.DEFAULT);
        } else {
            src.choice("method", List.of("GET"), true);
            SourceNode.Str urlStr = src.string("url");
            String url = urlStr == null || !noKey(src, List.of(urlStr), src.pathOf("url")) ? null
                    : templates.url(urlStr, src.pathOf("url"));
            Map<String, String> headers = src.has("headers") ? templates.headers(src, "headers") : Map.of();
            if (headers != null && src.stringFields("headers") != null) {
                noKey(src, src.stringFields("headers").stream().map(f -> (SourceNode.Str) f.value()).toList(),
                        src.pathOf("headers"));
            }
            ResponseRules response = ConditionReader.response(src);
            String pointer = null;
            if (src.require("extract", Said.of("core.jobfile.hint.sourceExtract", "{\"json\": \"/items\"}"))) {
                ObjectView extract = src.objectField("extract", EXTRACT_FIELDS);
                if (extract != null && extract.require("json", Said.of("core.jobfile.hint.listPointer"))) {
                    pointer = extract.pointer("json", "\"/items\"");
                    each = extract.has("each") ? extract.pointer("each", "\"/items\"") : null;
                }
            }
            step = url == null || headers == null || pointer == null ? null : new StepDefinition(STEP_ID,
                    StepKind.HTTP, Effect.NONE, ConfirmPolicy.NEVER, null, null, null, null,
                    new HttpRequestSpec("GET", url, headers, null, null, response, Redirects.NEVER, null,
                            Map.of(KeySource.OUTPUT, new Extraction.Json(pointer, false, false))),
                    null, timeout == null ? Duration.ofSeconds(30) : timeout, RetryPolicy.DEFAULT);
        }
        return step == null ? null : new KeySource(step, each, max == null ? KeySource.DEFAULT_MAX_KEYS : max);
    }

    /** A source lists the keys: {@code {key}} and {@code {runId}} have no value in it ({@code {job}} has). */
    private static boolean noKey(ObjectView src, List<SourceNode.Str> strs, String path) {
        boolean ok = true;
        for (SourceNode.Str s : strs) {
            try {
                for (Template.Placeholder p : Template.scan(s.value())) {
                    if (p.name().equals("key") || p.name().equals("runId")) {
                        src.problems().atChar(s, p.column() - 1, Said.of("core.jobfile.keyInSource", path,
                                "{" + p.name() + "}", "{job}"));
                        ok = false;
                    }
                }
            } catch (Template.SyntaxException e) {
                // reported with the template itself
            }
        }
        return ok;
    }
}
