package io.keyline.core.jobfile;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.domain.BodyFields;
import io.keyline.text.Said;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Reads a request's body given by its fields: {@code form}, {@code multipart} or {@code json}. Every value is
 * a template (checked like any other); field names are literal text.
 */
final class BodyReader {

    private static final List<String> FILE_FIELDS = List.of("file", "contentType");
    private static final Pattern MEDIA_TYPE = Pattern.compile("[!#$&^_.+0-9A-Za-z-]+/[!#$&^_.+0-9A-Za-z-]+"
            + "(\\s*;\\s*[!#$&^_.+0-9A-Za-z-]+=[^;\\s]+)*");

    private BodyReader() {
    }

    /** The request's body by fields, {@code null} when it has none or it is invalid (reported). */
    static BodyFields read(ObjectView request, StepTemplates templates) {
        if (request.has("form")) {
            return form(request, templates);
        }
        if (request.has("multipart")) {
            return multipart(request, templates);
        }
        if (request.has("json")) {
            return json(request, templates);
        }
        return null;
    }

    private static BodyFields form(ObjectView request, StepTemplates templates) {
        SourceNode.Obj obj = request.nonEmpty("form", SourceNode.Obj.class, Said.of("core.jobfile.expect.form",
                "{\"id\": \"journal:{key}\", \"do\": \"save\"}"));
        if (obj == null) {
            return null;
        }
        List<BodyFields.Field> fields = new ArrayList<>();
        boolean valid = true;
        for (SourceNode.Field f : obj.fields()) {
            String path = request.pathOf("form") + "." + f.name();
            valid &= name(request, f, path);
            List<String> values = new ArrayList<>();
            if (f.value() instanceof SourceNode.Str str) {
                values.add(templates.template(str, path));
            } else if (f.value() instanceof SourceNode.Arr arr && !arr.items().isEmpty()) {
                for (int i = 0; i < arr.items().size(); i++) {
                    SourceNode item = arr.items().get(i);
                    if (item instanceof SourceNode.Str str) {
                        values.add(templates.template(str, path + "[" + i + "]"));
                    } else {
                        request.problems().at(item, ObjectView.mustBe(path + "[" + i + "]",
                                Said.of("core.jobfile.expect.string"), Problems.type(item)));
                        values.add(null);
                    }
                }
            } else {
                request.problems().at(f.value(), ObjectView.mustBe(path, Said.of("core.jobfile.expect.formValue"),
                        f.value() instanceof SourceNode.Arr ? Said.of("core.jobfile.emptyArray")
                                : Problems.type(f.value())));
                valid = false;
            }
            valid &= !values.contains(null);
            fields.add(new BodyFields.Field(f.name(), values));
        }
        return valid ? new BodyFields.Form(fields) : null;
    }

    private static BodyFields multipart(ObjectView request, StepTemplates templates) {
        SourceNode.Obj obj = request.nonEmpty("multipart", SourceNode.Obj.class, Said.of("core.jobfile.expect.multipart",
                "{\"title\": \"{key}\", \"file\": {\"file\": \"out/{key}.pdf\"}}"));
        if (obj == null) {
            return null;
        }
        SourceNode.Field contentType = request.has("headers") && request.field("headers").value() instanceof SourceNode.Obj h
                ? h.fields().stream().filter(f -> f.name().equalsIgnoreCase("Content-Type")).findFirst().orElse(null)
                : null;
        boolean valid = true;
        if (contentType != null) {
            request.problems().atName(contentType, Said.of("core.jobfile.multipartContentType",
                    request.pathOf("headers") + "." + contentType.name()));
            valid = false;
        }
        List<BodyFields.Part> parts = new ArrayList<>();
        for (SourceNode.Field f : obj.fields()) {
            String path = request.pathOf("multipart") + "." + f.name();
            valid &= name(request, f, path);
            if (f.value() instanceof SourceNode.Str str) {
                String value = templates.template(str, path);
                valid &= value != null;
                parts.add(new BodyFields.Part(f.name(), value, null, null));
            } else if (f.value() instanceof SourceNode.Obj fileObj) {
                ObjectView file = ObjectView.of(fileObj, path, request.problems(), FILE_FIELDS);
                if (!file.require("file", Said.of("core.jobfile.hint.file"))) {
                    valid = false;
                    continue;
                }
                SourceNode.Str pathStr = file.string("file");
                String rel = pathStr == null ? null : templates.relativePath(pathStr, file.pathOf("file"));
                String type = "application/octet-stream";
                if (file.has("contentType")) {
                    SourceNode.Str t = file.string("contentType");
                    if (t != null && !MEDIA_TYPE.matcher(t.value()).matches()) {
                        request.problems().at(t, Said.of("core.jobfile.notMediaType", file.pathOf("contentType"),
                                Problems.quote(t.value())));
                        t = null;
                    }
                    type = t == null ? null : t.value().toLowerCase(Locale.ROOT);
                }
                valid &= rel != null && type != null;
                parts.add(new BodyFields.Part(f.name(), null, rel, type));
            } else {
                request.problems().at(f.value(), ObjectView.mustBe(path, Said.of("core.jobfile.expect.part",
                        "{\"file\": PATH}"), Problems.type(f.value())));
                valid = false;
            }
        }
        return valid ? new BodyFields.Multipart(parts) : null;
    }

    private static BodyFields json(ObjectView request, StepTemplates templates) {
        SourceNode value = request.field("json").value();
        boolean valid = strings(value, request.pathOf("json"), templates);
        if (!valid) {
            return null;
        }
        JsonNode tree = ConditionReader.toJson(value);
        return new BodyFields.Json(tree.toString());
    }

    /** Checks every string of a JSON body as a template. */
    private static boolean strings(SourceNode node, String path, StepTemplates templates) {
        if (node instanceof SourceNode.Str str) {
            return templates.template(str, path) != null;
        }
        boolean valid = true;
        if (node instanceof SourceNode.Obj obj) {
            for (SourceNode.Field f : obj.fields()) {
                valid &= strings(f.value(), path + "." + f.name(), templates);
            }
        } else if (node instanceof SourceNode.Arr arr) {
            for (int i = 0; i < arr.items().size(); i++) {
                valid &= strings(arr.items().get(i), path + "[" + i + "]", templates);
            }
        }
        return valid;
    }

    private static boolean name(ObjectView request, SourceNode.Field f, String path) {
        if (f.name().isEmpty() || f.name().chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            request.problems().atName(f, Said.of("core.jobfile.badFieldName", path));
            return false;
        }
        return true;
    }
}
