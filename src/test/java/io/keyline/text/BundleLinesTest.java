package io.keyline.text;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bundles' lines as written. A key is defined once: {@link java.util.Properties} keeps the last of two lines with
 * the same key without a word, so two edits of a bundle that both add a key leave one of them silently unused.
 * A message never starts with a space: {@link java.util.Properties} drops the spaces after {@code =}, so
 * {@code key= and more} would read "and more" and glue itself to the word before it. The space belongs to the
 * code that joins two messages.
 */
class BundleLinesTest {

    @Test
    void noMessageStartsWithASpace() throws IOException {
        List<String> found = new ArrayList<>();
        for (String area : Text.AREAS) {
            for (String name : List.of(area + ".properties", area + "_zh_CN.properties")) {
                try (InputStream in = BundleLinesTest.class.getResourceAsStream("/io/keyline/text/" + name)) {
                    assertThat(in).as(name).isNotNull();
                    int line = 0;
                    for (String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1)) {
                        line++;
                        if (!l.startsWith("#") && l.matches("[^=\\s]+\\s*[=:][ \\t]+\\S.*")) {
                            found.add(name + ":" + line + " " + l);
                        }
                    }
                }
            }
        }
        assertThat(found).as("messages that start with a space (lost when the bundle is read)").isEmpty();
    }

    @Test
    void noKeyIsDefinedTwice() throws IOException {
        List<String> found = new ArrayList<>();
        for (String area : Text.AREAS) {
            for (String name : List.of(area + ".properties", area + "_zh_CN.properties")) {
                Map<String, Integer> first = new HashMap<>();
                try (InputStream in = BundleLinesTest.class.getResourceAsStream("/io/keyline/text/" + name)) {
                    assertThat(in).as(name).isNotNull();
                    int line = 0;
                    boolean continued = false;
                    for (String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1)) {
                        line++;
                        boolean entry = !continued && !l.isBlank() && !l.stripLeading().startsWith("#");
                        continued = l.endsWith("\\") && (continued || entry);
                        if (entry) {
                            String key = l.strip().split("\\s*[=:]", 2)[0];
                            Integer before = first.putIfAbsent(key, line);
                            if (before != null) {
                                found.add(name + ":" + line + " " + key + " (first at line " + before + ")");
                            }
                        }
                    }
                }
            }
        }
        assertThat(found).as("keys defined twice (the first definition is silently lost)").isEmpty();
    }
}
