package io.keyline.core.exec;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.domain.BodyFields;

import io.keyline.text.Said;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Encodes a body given by its fields, each value for its place: a form value percent-encoded on its own
 * ({@code &} and {@code =} in a value stay in that value), a multipart part framed by a boundary that no part
 * contains, a JSON string escaped by Jackson (a value never adds a field). The result depends only on the
 * values, so the plan, the confirmation and the send hash the same bytes.
 */
final class BodyEncoding {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    private BodyEncoding() {
    }

    /**
     * An encoded body.
     *
     * @param bytes       what is sent
     * @param contentType the Content-Type it is sent with
     */
    record Encoded(byte[] bytes, String contentType) {
    }

    static Encoded encode(BodyFields fields, StepContext ctx) throws Rendering.RenderException {
        if (fields instanceof BodyFields.Form form) {
            return form(form, ctx);
        }
        if (fields instanceof BodyFields.Multipart multipart) {
            return multipart(multipart, ctx);
        }
        return json((BodyFields.Json) fields, ctx);
    }

    private static Encoded form(BodyFields.Form form, StepContext ctx) throws Rendering.RenderException {
        StringBuilder out = new StringBuilder();
        for (BodyFields.Field f : form.fields()) {
            for (String template : f.values()) {
                if (out.length() > 0) {
                    out.append('&');
                }
                out.append(URLEncoder.encode(f.name(), StandardCharsets.UTF_8)).append('=')
                        .append(URLEncoder.encode(Rendering.render(template, ctx, Rendering.Place.BODY),
                                StandardCharsets.UTF_8));
            }
        }
        return new Encoded(out.toString().getBytes(StandardCharsets.US_ASCII), form.contentType());
    }

    private record RenderedPart(String name, byte[] content, String filename, String contentType) {
    }

    private static Encoded multipart(BodyFields.Multipart multipart, StepContext ctx) throws Rendering.RenderException {
        List<RenderedPart> parts = new ArrayList<>();
        for (BodyFields.Part p : multipart.parts()) {
            if (p.file() == null) {
                parts.add(new RenderedPart(p.name(), Rendering.render(p.value(), ctx, Rendering.Place.BODY)
                        .getBytes(StandardCharsets.UTF_8), null, null));
                continue;
            }
            String rel = Rendering.render(p.file(), ctx, Rendering.Place.PATH);
            Path file = Rendering.inside(ctx.job().folder(), ctx.job().folder().resolve(rel),
                    Said.of("core.render.multipartFile", rel));
            if (!Files.isRegularFile(file)) {
                boolean earlier = ctx.job().stepIndex(ctx.step().id()) > 0;
                throw new Rendering.RenderException(Said.of(earlier ? "core.render.multipartNotYet"
                        : "core.render.multipartMissing", rel), earlier);
            }
            try {
                parts.add(new RenderedPart(p.name(), Files.readAllBytes(file), file.getFileName().toString(),
                        p.contentType()));
            } catch (IOException e) {
                throw new Rendering.RenderException(Said.of("core.render.cannotReadMultipart", rel,
                        String.valueOf(e.getMessage())), false);
            }
        }
        String boundary = boundary(parts);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (RenderedPart p : parts) {
            StringBuilder head = new StringBuilder("--").append(boundary).append("\r\n")
                    .append("Content-Disposition: form-data; name=\"").append(quoted(p.name())).append('"');
            if (p.filename() != null) {
                head.append("; filename=\"").append(quoted(p.filename())).append('"').append("\r\n")
                        .append("Content-Type: ").append(p.contentType());
            }
            head.append("\r\n\r\n");
            out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
            out.writeBytes(p.content());
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        return new Encoded(out.toByteArray(), multipart.contentType() + "; boundary=" + boundary);
    }

    /** A boundary made from the parts themselves (the same parts, the same bytes), found in none of them. */
    private static String boundary(List<RenderedPart> parts) {
        for (int round = 0; ; round++) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            all.writeBytes(Integer.toString(round).getBytes(StandardCharsets.US_ASCII));
            for (RenderedPart p : parts) {
                all.writeBytes(p.name().getBytes(StandardCharsets.UTF_8));
                all.write(0);
                all.writeBytes(p.content());
                all.write(0);
            }
            String boundary = "keyline-" + Rendering.sha256(all.toByteArray()).substring(0, 32);
            byte[] b = boundary.getBytes(StandardCharsets.US_ASCII);
            if (parts.stream().noneMatch(p -> contains(p.content(), b) || p.name().contains(boundary))) {
                return boundary;
            }
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** A name or file name inside a quoted Content-Disposition parameter (as browsers write them). */
    private static String quoted(String s) {
        return s.replace("\"", "%22").replace("\r", "%0D").replace("\n", "%0A");
    }

    private static Encoded json(BodyFields.Json json, StepContext ctx) throws Rendering.RenderException {
        JsonNode tree;
        try {
            tree = JSON.readTree(json.template());
        } catch (IOException e) {
            throw new IllegalStateException("a json body's template is JSON: " + e.getMessage(), e);
        }
        JsonNode rendered = render(tree, ctx);
        try {
            return new Encoded(JSON.writeValueAsBytes(rendered), json.contentType());
        } catch (IOException e) {
            throw new Rendering.RenderException(Said.of("core.render.cannotWriteJson", String.valueOf(e.getMessage())),
                    false);
        }
    }

    private static JsonNode render(JsonNode node, StepContext ctx) throws Rendering.RenderException {
        if (node.isTextual()) {
            return JSON.getNodeFactory().textNode(Rendering.render(node.textValue(), ctx, Rendering.Place.BODY));
        }
        if (node.isObject()) {
            ObjectNode out = JSON.createObjectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                out.set(f.getKey(), render(f.getValue(), ctx));
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JSON.createArrayNode();
            for (JsonNode item : node) {
                out.add(render(item, ctx));
            }
            return out;
        }
        return node;
    }
}
