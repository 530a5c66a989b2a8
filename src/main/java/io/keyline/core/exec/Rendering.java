package io.keyline.core.exec;

import io.keyline.domain.HttpRequestSpec;
import io.keyline.domain.Printable;
import io.keyline.domain.ProbeSpec;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.domain.Template;
import io.keyline.text.Said;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Turns step templates into the exact request or command line a step will send, without
 * sending anything. The executors, the planner and the confirmation all use it, so the payload
 * an operator confirms is the payload that is sent (same hash).
 */
public final class Rendering {

    private Rendering() {
    }

    /** A step's template could not be rendered (missing output, missing body file, bad URL). */
    public static final class RenderException extends Exception {
        private final boolean waitsForEarlierStep;
        private final transient Said said;

        /** @param said why, as words ({@link #getMessage} is their English, for the run log and evidence) */
        public RenderException(Said said, boolean waitsForEarlierStep) {
            super(said.english());
            this.said = said;
            this.waitsForEarlierStep = waitsForEarlierStep;
        }

        /** Why, as words. */
        public Said said() {
            return said == null ? Said.plain(getMessage()) : said;
        }

        /** True when the missing piece is something an earlier step produces at run time. */
        public boolean waitsForEarlierStep() {
            return waitsForEarlierStep;
        }
    }

    /**
     * A rendered HTTP request, without credential headers.
     *
     * @param method     method
     * @param uri        URI
     * @param headers    headers from the job file plus {@code Idempotency-Key} (and the {@code Content-Type} of a
     *                   body given by its fields, unless the job file sets one)
     * @param body       body bytes (empty without a body)
     * @param bodySource where the body comes from ({@code "inline"}, {@code "file articles/x.md"}, {@code "form"},
     *                   {@code "multipart"}, {@code "json"}, or {@code "none"})
     */
    public record RenderedRequest(String method, URI uri, Map<String, String> headers, byte[] body, String bodySource) {
        public String bodySha256() {
            return sha256(body);
        }

        /** Hash of everything the request carries except the credential. */
        public String payloadHash() {
            StringBuilder sb = new StringBuilder(method).append('\n').append(uri).append('\n');
            new TreeMap<>(headers).forEach((k, v) -> sb.append(k.toLowerCase(java.util.Locale.ROOT)).append(':')
                    .append(v).append('\n'));
            sb.append(bodySha256());
            return sha256(sb.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * A rendered command.
     *
     * @param argv    arguments, the program first (resolved against the working directory when relative);
     *                only {@code {key}}, {@code {job}} and {@code {runId}} are substituted in them
     * @param workdir working directory
     * @param env     the outputs of earlier steps ({@code KEYLINE_OUTPUT_*}) and the job file's environment
     *                (no credential: that is added when the command starts)
     */
    public record RenderedCommand(List<String> argv, Path workdir, Map<String, String> env) {
        public String payloadHash() {
            StringBuilder sb = new StringBuilder();
            argv.forEach(a -> sb.append(a).append('\u0000'));
            sb.append('\n').append(workdir).append('\n');
            new TreeMap<>(env).forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
            return sha256(sb.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Resolves {@code {key}}, {@code {job}}, {@code {runId}} and {@code {steps.ID.outputs.NAME}}. */
    public static Function<String, String> resolver(StepContext ctx) {
        return name -> switch (name) {
            case "key" -> ctx.key();
            case "job" -> ctx.job().name();
            case "runId" -> ctx.runId();
            default -> {
                if (!name.startsWith("steps.")) {
                    yield null;
                }
                String[] parts = name.split("\\.", 4);
                if (parts.length != 4 || !"outputs".equals(parts[2])) {
                    yield null;
                }
                Map<String, String> out = ctx.outputs().get(parts[1]);
                yield out == null ? null : out.get(parts[3]);
            }
        };
    }

    /**
     * Where a value lands. Values from outside are data: percent-encoded in a URL, one whole
     * argument of a command, never a control character where one could change the meaning
     * (a header line, a path, a command line); only a body may carry tab and line breaks.
     */
    enum Place {
        URL, HEADER, ARGUMENT, ENVIRONMENT, PATH, BODY
    }

    static String render(String template, StepContext ctx, Place place) throws RenderException {
        if (template == null) {
            return null;
        }
        try {
            String rendered = Template.render(template, resolver(ctx), (p, value, before) -> encode(p, value, place));
            if (place == Place.URL) {
                refuseOtherPaths(template, resolver(ctx));
            }
            return rendered;
        } catch (Refused e) {
            throw new RenderException(e.said, false);
        } catch (IllegalArgumentException e) {
            boolean earlier = template.contains("{steps.");
            Said why = e instanceof Template.UnknownPlaceholder u
                    ? Said.of("core.render.unknownPlaceholder", "{" + u.name() + "}") : Said.plain(e.getMessage());
            throw new RenderException(earlier ? Said.of("core.render.producedEarlier", why) : why, earlier);
        }
    }

    /** A value that may not be substituted where it would land. */
    private static final class Refused extends RuntimeException {
        private final transient Said said;

        Refused(Said said) {
            super(said.english());
            this.said = said;
        }
    }

    private static String encode(Template.Placeholder p, String value, Place place) {
        if (place == Place.ARGUMENT && p.stepId() != null) {
            // the job loader refuses these; a definition that did not come through it is refused here
            throw new Refused(Said.of("core.render.outputInArguments", "{" + p.name() + "}",
                    "$" + Template.outputVariable(p.stepId(), p.outputName())));
        }
        boolean allowed = place == Place.BODY ? !bodyControl(value) : !Printable.hasAnyControl(value);
        if (!allowed) {
            String c = firstControl(value, place == Place.BODY);
            throw new Refused(Said.of("core.render.control", "{" + p.name() + "}", c,
                    Said.of("core.render.place." + place.name())));
        }
        if (place == Place.HEADER) {
            int i = Printable.firstNotInHeader(value); // a control character was refused above
            if (i >= 0) {
                int c = value.codePointAt(i);
                throw new Refused(Said.of("core.render.notAscii", "{" + p.name() + "}",
                        "\"" + new String(Character.toChars(c)) + "\"", Printable.codePoint(c),
                        Said.of("core.render.place." + place.name())));
            }
        }
        // in a URL only unreserved characters stay as they are: a value cannot add a "/", "?", "#", "&" or "=";
        // one that would make a "." or ".." path segment is refused once the whole URL is known (refuseOtherPaths)
        return place == Place.URL ? percentEncode(value) : value;
    }

    /** Where a value was put in the URL as it is (before encoding): {@code [start, end)} of the raw text. */
    private record Span(Template.Placeholder placeholder, int start, int end) {
    }

    /**
     * Refuses a value that would make a path segment of the URL {@code .} or {@code ..}, alone or with the text
     * beside it, and an empty value that leaves a segment of the template empty. Percent-encoding cannot keep these
     * data: a server that reads URLs as browsers do resolves {@code %2E%2E} as {@code ..}, one that decodes
     * {@code %2F} first (a proxy) sees the segments of {@code ../admin}, and one that merges slashes reads
     * {@code /items//edit} as {@code /items/edit}. So the value is looked at as the server may see it: raw, split at
     * its own {@code /} and {@code \} (a slash to some servers), with {@code %2E} read as a dot.
     */
    private static void refuseOtherPaths(String template, Function<String, String> resolver) {
        List<Span> spans = new ArrayList<>();
        String raw = Template.render(template, resolver, (p, value, before) -> {
            spans.add(new Span(p, before.length(), before.length() + value.length()));
            return value;
        });
        if (spans.isEmpty()) {
            return;
        }
        int scheme = raw.indexOf("://");
        int pathStart = literalIndexOf(raw, spans, "/", scheme < 0 ? 0 : scheme + 3);
        if (pathStart < 0) {
            return;
        }
        int query = literalIndexOf(raw, spans, "?", pathStart);
        int fragment = literalIndexOf(raw, spans, "#", pathStart);
        int pathEnd = Math.min(query < 0 ? raw.length() : query, fragment < 0 ? raw.length() : fragment);
        int a = pathStart + 1;
        while (a <= pathEnd) {
            int b = a;
            while (b < pathEnd && raw.charAt(b) != '/' && raw.charAt(b) != '\\') {
                b++;
            }
            String segment = raw.substring(a, b).replaceAll("(?i)%2e", ".");
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                for (Span s : spans) {
                    // a dot segment a value is part of, or a segment of the template's that an empty value left empty
                    // ("a//b" inside one value stays in its place however a server reads it)
                    boolean touches = s.start() <= b && s.end() >= a;
                    if (touches && (!segment.isEmpty() || s.start() == s.end())) {
                        throw new Refused(Said.of("core.render.otherPath", "{" + s.placeholder().name() + "}",
                                "\"" + segment + "\""));
                    }
                }
            }
            a = b + 1;
        }
    }

    /** The first {@code c} in {@code raw} from {@code from} on that is the template's own text, not a value's. */
    private static int literalIndexOf(String raw, List<Span> spans, String c, int from) {
        for (int i = raw.indexOf(c, from); i >= 0; i = raw.indexOf(c, i + 1)) {
            int at = i;
            if (spans.stream().noneMatch(s -> at >= s.start() && at < s.end())) {
                return i;
            }
        }
        return -1;
    }

    private static boolean bodyControl(String value) {
        return firstControl(value, true) != null;
    }

    private static String firstControl(String value, boolean lineBreaksAllowed) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (lineBreaksAllowed && (c == '\n' || c == '\r' || c == '\t')) {
                continue;
            }
            if (Printable.hasAnyControl(String.valueOf(c))) {
                return String.format(java.util.Locale.ROOT, "U+%04X", (int) c);
            }
        }
        return null;
    }

    /** RFC 3986 percent-encoding (UTF-8) of every character that is not unreserved. */
    static String percentEncode(String value) {
        StringBuilder out = new StringBuilder(value.length() + 8);
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.'
                    || c == '_' || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        return out.toString();
    }

    /**
     * {@code path} (resolved and normalized) if it lies inside the job's folder, also after
     * following symbolic links; else the step fails with what it pointed at.
     */
    static Path inside(Path folder, Path path, Said what) throws RenderException {
        Path base = folder.toAbsolutePath().normalize();
        Path p = path.toAbsolutePath().normalize();
        if (!p.startsWith(base)) {
            throw new RenderException(Said.of("core.render.outside", what, base.toString(), p.toString()), false);
        }
        if (Files.exists(p)) {
            try {
                Path real = p.toRealPath();
                Path realBase = base.toRealPath();
                if (!real.startsWith(realBase)) {
                    throw new RenderException(Said.of("core.render.outsideLink", what, base.toString(),
                            real.toString()), false);
                }
            } catch (IOException e) {
                throw new RenderException(Said.of("core.render.cannotResolve", what, String.valueOf(e.getMessage())),
                        false);
            }
        }
        return p;
    }

    /**
     * The {@code Idempotency-Key} of a step's request: {@code job:key:step} in the step's first life, and
     * {@code job:key:step:redoN} in its N-th redo (the step was done, and an operator sent the key back to run it
     * again). Every send of one life carries the same key (its attempts, a resend after a crash or a lost answer, a
     * confirmed resend), so that a site that honours the key makes its effect once; a redo is a new request, which such
     * a site would otherwise answer with what the first one made, doing nothing. None of the parts holds a colon.
     */
    public static String idempotencyKey(String job, String key, String step, int redo) {
        return job + ":" + key + ":" + step + (redo > 0 ? ":redo" + redo : "");
    }

    /** The exact request an http step sends (credential headers excluded). */
    public static RenderedRequest request(StepContext ctx) throws RenderException {
        StepDefinition step = ctx.step();
        HttpRequestSpec spec = step.request();
        String idempotencyKey = idempotencyKey(ctx.job().name(), ctx.key(), step.id(), ctx.redo());
        byte[] body = new byte[0];
        String source = "none";
        String contentType = null;
        if (spec.body() != null) {
            body = render(spec.body(), ctx, Place.BODY).getBytes(StandardCharsets.UTF_8);
            source = "inline";
        } else if (spec.fields() != null) {
            BodyEncoding.Encoded encoded = BodyEncoding.encode(spec.fields(), ctx);
            body = encoded.bytes();
            source = spec.fields().kind();
            contentType = encoded.contentType();
        } else if (spec.bodyFile() != null) {
            String rel = render(spec.bodyFile(), ctx, Place.PATH);
            Path file = inside(ctx.job().folder(), ctx.job().folder().resolve(rel),
                    Said.of("core.render.bodyFile", rel));
            source = "file " + rel;
            if (!Files.isRegularFile(file)) {
                boolean earlier = ctx.job().stepIndex(step.id()) > 0;
                throw new RenderException(Said.of(earlier ? "core.render.bodyFileNotYet" : "core.render.bodyFileMissing",
                        rel), earlier);
            }
            try {
                body = Files.readAllBytes(file);
            } catch (IOException e) {
                throw new RenderException(Said.of("core.render.cannotReadBodyFile", rel, String.valueOf(e.getMessage())),
                        false);
            }
        }
        Map<String, String> headers = headers(spec.headers(), ctx, idempotencyKey);
        if (contentType != null && headers.keySet().stream().noneMatch(h -> h.equalsIgnoreCase("Content-Type"))) {
            headers.put("Content-Type", contentType);
        }
        return new RenderedRequest(spec.method(), uri(render(spec.url(), ctx, Place.URL)), headers, body, source);
    }

    /**
     * The exact request an http probe sends (credential headers excluded): a POST probe's body is encoded from its
     * fields as a step's is. A probe carries no {@code Idempotency-Key}: it is the step's, and a server that keeps the
     * answer to a key would give the step the probe's answer.
     */
    public static RenderedRequest probeRequest(StepContext ctx) throws RenderException {
        ProbeSpec probe = ctx.step().probe();
        String method = probe.method() == null ? "GET" : probe.method();
        Map<String, String> headers = headers(probe.headers(), ctx, null);
        if (probe.fields() == null) {
            return new RenderedRequest(method, uri(render(probe.url(), ctx, Place.URL)), headers, new byte[0], "none");
        }
        BodyEncoding.Encoded encoded = BodyEncoding.encode(probe.fields(), ctx);
        if (headers.keySet().stream().noneMatch(h -> h.equalsIgnoreCase("Content-Type"))) {
            headers.put("Content-Type", encoded.contentType());
        }
        return new RenderedRequest(method, uri(render(probe.url(), ctx, Place.URL)), headers, encoded.bytes(),
                probe.fields().kind());
    }

    private static Map<String, String> headers(Map<String, String> templates, StepContext ctx, String idempotencyKey)
            throws RenderException {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> h : templates.entrySet()) {
            out.put(h.getKey(), render(h.getValue(), ctx, Place.HEADER));
        }
        if (idempotencyKey != null) {
            out.put("Idempotency-Key", idempotencyKey);
        }
        return out;
    }

    private static URI uri(String text) throws RenderException {
        try {
            URI u = new URI(text);
            if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https"))
                    || u.getHost() == null) {
                throw new RenderException(Said.of("core.render.notAbsoluteUrl", text), false);
            }
            return u;
        } catch (URISyntaxException e) {
            throw new RenderException(Said.of("core.render.invalidUrl", text, e.getReason()), false);
        }
    }

    /** The exact command a command step runs. */
    public static RenderedCommand command(StepContext ctx) throws RenderException {
        return command(ctx, ctx.step().command(), ctx.step().workdir());
    }

    /** The exact command a command probe runs. */
    public static RenderedCommand probeCommand(StepContext ctx) throws RenderException {
        return command(ctx, ctx.step().probe().command(), ctx.step().workdir());
    }

    private static RenderedCommand command(StepContext ctx, List<String> templates, String workdirTemplate)
            throws RenderException {
        Path folder = ctx.job().folder();
        // workdir is a literal (the job loader refuses placeholders there); it must stay inside all the same
        Path workdir = workdirTemplate == null ? folder
                : inside(folder, folder.resolve(workdirTemplate),
                Said.of("core.render.workdir", workdirTemplate));
        List<String> argv = new ArrayList<>();
        for (String t : templates) {
            argv.add(render(t, ctx, Place.ARGUMENT));
        }
        String program = argv.get(0);
        if (program.contains("/") && !Path.of(program).isAbsolute()) {
            argv.set(0, inside(folder, workdir.resolve(program), Said.of("core.render.program", program)).toString());
        }
        Map<String, String> env = new LinkedHashMap<>(outputVariables(ctx));
        if (ctx.step().kind() == StepKind.COMMAND) {
            for (Map.Entry<String, String> e : ctx.step().env().entrySet()) {
                env.put(e.getKey(), render(e.getValue(), ctx, Place.ENVIRONMENT));
            }
        }
        return new RenderedCommand(List.copyOf(argv), workdir, env);
    }

    /**
     * The outputs of earlier steps as {@code KEYLINE_OUTPUT_<STEP>_<NAME>} variables
     * ({@link Template#outputVariable}): the only way a value from outside reaches a command (the job
     * loader refuses output placeholders in its arguments). In step order, and within a step by name, so
     * that of two names that map to the same variable ({@code Slug} and {@code slug}) the later one wins,
     * always the same. A value with a NUL character cannot be passed and is left out.
     */
    static Map<String, String> outputVariables(StepContext ctx) {
        Map<String, String> env = new LinkedHashMap<>();
        for (StepDefinition s : ctx.job().steps()) {
            Map<String, String> out = ctx.outputs().get(s.id());
            if (out == null) {
                continue;
            }
            new TreeMap<>(out).forEach((name, value) -> {
                if (value != null && value.indexOf('\0') < 0) {
                    env.put(Template.outputVariable(s.id(), name), value);
                }
            });
        }
        return env;
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
