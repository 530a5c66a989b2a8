package io.keyline.credentials;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Reads sample inputs from {@code src/test/resources/credentials}. */
final class TestResources {
    private TestResources() {
    }

    static String read(String name) {
        try (InputStream in = TestResources.class.getResourceAsStream("/credentials/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource credentials/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
