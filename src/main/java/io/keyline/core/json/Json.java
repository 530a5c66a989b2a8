package io.keyline.core.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import java.io.UncheckedIOException;

/** The one configured Jackson mapper: ISO-8601 times, no nulls, stable field order. */
public final class Json {

    public static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private Json() {
    }

    /**
     * JSON string escapes for every character {@link io.keyline.domain.Printable} escapes: Jackson escapes the C0
     * controls; these also DEL, the C1 controls (the 8-bit CSI U+009B) and the bidirectional controls, as
     * {@code \\u009b}. JSON that a terminal may show ({@code --json}, {@code export}, the run log a person tails)
     * is written with them: the text is the same once read, and none of it acts on the terminal.
     */
    public static com.fasterxml.jackson.core.io.CharacterEscapes terminalSafeEscapes() {
        return new TerminalSafeEscapes();
    }

    private static final class TerminalSafeEscapes extends com.fasterxml.jackson.core.io.CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] ascii;

        TerminalSafeEscapes() {
            ascii = standardAsciiEscapesForJSON();
            ascii[0x7f] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public com.fasterxml.jackson.core.SerializableString getEscapeSequence(int ch) {
            if (io.keyline.domain.Printable.hasAnyControl(String.valueOf((char) ch))) {
                return new com.fasterxml.jackson.core.io.SerializedString(String.format(java.util.Locale.ROOT,
                        "\\u%04x", ch));
            }
            return null;
        }
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T read(String json, Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
