package io.keyline.domain;

import java.util.List;

/**
 * A request body given by its fields (the request's {@code form}, {@code multipart} or {@code json}): Keyline
 * encodes each value for its place, so that a value from outside stays one value. Values are templates
 * ({@code {key}}, {@code {steps.ID.outputs.NAME}}, …); field names are literal.
 */
public sealed interface BodyFields {

    /** The content type the encoded body is sent as (a multipart body adds its boundary). */
    String contentType();

    /** How the plan and messages name the body's kind: {@code form}, {@code multipart} or {@code json}. */
    String kind();

    /**
     * {@code "form": {FIELD: VALUE | [VALUES]}}: {@code application/x-www-form-urlencoded}, each name and value
     * encoded on its own; a list repeats the field.
     */
    record Form(List<Field> fields) implements BodyFields {
        public Form {
            fields = List.copyOf(fields);
        }

        @Override
        public String contentType() {
            return "application/x-www-form-urlencoded";
        }

        @Override
        public String kind() {
            return "form";
        }
    }

    /** A form field and its value templates, in file order (one, or several for a repeated field). */
    record Field(String name, List<String> values) {
        public Field {
            values = List.copyOf(values);
        }
    }

    /** {@code "multipart": {FIELD: VALUE | {"file": PATH, "contentType": T}}}: {@code multipart/form-data}. */
    record Multipart(List<Part> parts) implements BodyFields {
        public Multipart {
            parts = List.copyOf(parts);
        }

        @Override
        public String contentType() {
            return "multipart/form-data";
        }

        @Override
        public String kind() {
            return "multipart";
        }
    }

    /**
     * One part of a multipart body: a text value, or a file of the job folder (the path a template that must
     * stay inside the folder after substitution).
     *
     * @param value       the value template, or {@code null} for a file part
     * @param file        the file's path template, relative to the job folder, or {@code null}
     * @param contentType the file part's content type ({@code application/octet-stream} when not given)
     */
    record Part(String name, String value, String file, String contentType) {
    }

    /**
     * {@code "json": VALUE}: the JSON text as written in the job file (fields in file order); each string in it
     * is a template whose result is sent as one JSON string, escaped, so that a value can never add a field.
     */
    record Json(String template) implements BodyFields {
        @Override
        public String contentType() {
            return "application/json";
        }

        @Override
        public String kind() {
            return "json";
        }
    }
}
