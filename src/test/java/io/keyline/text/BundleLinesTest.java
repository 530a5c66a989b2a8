package io.keyline.text;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
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
}
