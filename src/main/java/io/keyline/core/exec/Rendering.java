package io.keyline.core.exec;

import io.keyline.domain.HttpRequestSpec;
import io.keyline.domain.ProbeSpec;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.domain.Template;

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

        public RenderException(String message, boolean waitsForEarlierStep) {
            super(message);
            this.waitsForEarlierStep = waitsForEarlierStep;
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
     * @param headers    headers from the job file plus {@code Idempotency-Key}
     * @param body       body bytes (empty without a body)
     * @param bodySource where the body comes from ({@code "inline"}, {@code "file articles/x.md"}, or {@code "none"})
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
     * @param argv    arguments, the program first (resolved against the working directory when relative)
     * @param workdir working directory
     * @param env     extra environment from the job file (no secrets)
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

    static String render(String template, StepContext ctx) throws RenderException {
        if (template == null) {
            return null;
        }
        try {
            return Template.render(template, resolver(ctx));
        } catch (IllegalArgumentException e) {
            boolean earlier = template.contains("{steps.");
            throw new RenderException(e.getMessage() + (earlier ? " (an earlier step produces it at run time)" : ""),
                    earlier);
        }
    }

    /** The exact request an http step sends (credential headers excluded). */
    public static RenderedRequest request(StepContext ctx) throws RenderException {
        StepDefinition step = ctx.step();
        HttpRequestSpec spec = step.request();
        String idempotencyKey = ctx.job().name() + ":" + ctx.key() + ":" + step.id();
        byte[] body = new byte[0];
        String source = "none";
        if (spec.body() != null) {
            body = render(spec.body(), ctx).getBytes(StandardCharsets.UTF_8);
            source = "inline";
        } else if (spec.bodyFile() != null) {
            String rel = render(spec.bodyFile(), ctx);
            Path file = ctx.job().folder().resolve(rel).normalize();
            source = "file " + rel;
            if (!Files.isRegularFile(file)) {
                boolean earlier = ctx.job().stepIndex(step.id()) > 0;
                throw new RenderException("body file " + rel + " does not exist"
                        + (earlier ? " yet (an earlier step writes it)" : ""), earlier);
            }
            try {
                body = Files.readAllBytes(file);
            } catch (IOException e) {
                throw new RenderException("cannot read body file " + rel + ": " + e.getMessage(), false);
            }
        }
        return new RenderedRequest(spec.method(), uri(render(spec.url(), ctx)),
                headers(spec.headers(), ctx, idempotencyKey), body, source);
    }

    /** The exact request an http probe sends (credential headers excluded). */
    public static RenderedRequest probeRequest(StepContext ctx) throws RenderException {
        ProbeSpec probe = ctx.step().probe();
        String method = probe.method() == null ? "GET" : probe.method();
        return new RenderedRequest(method, uri(render(probe.url(), ctx)), headers(probe.headers(), ctx, null),
                new byte[0], "none");
    }

    private static Map<String, String> headers(Map<String, String> templates, StepContext ctx, String idempotencyKey)
            throws RenderException {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> h : templates.entrySet()) {
            out.put(h.getKey(), render(h.getValue(), ctx));
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
                throw new RenderException("URL " + text + " is not an absolute http(s) URL", false);
            }
            return u;
        } catch (URISyntaxException e) {
            throw new RenderException("URL " + text + " is not valid: " + e.getReason(), false);
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
        Path workdir = workdirTemplate == null ? folder : folder.resolve(render(workdirTemplate, ctx)).normalize();
        List<String> argv = new ArrayList<>();
        for (String t : templates) {
            argv.add(render(t, ctx));
        }
        String program = argv.get(0);
        if (program.contains("/") && !Path.of(program).isAbsolute()) {
            argv.set(0, workdir.resolve(program).normalize().toString());
        }
        Map<String, String> env = new LinkedHashMap<>();
        if (ctx.step().kind() == StepKind.COMMAND) {
            for (Map.Entry<String, String> e : ctx.step().env().entrySet()) {
                env.put(e.getKey(), render(e.getValue(), ctx));
            }
        }
        return new RenderedCommand(List.copyOf(argv), workdir, env);
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
