package io.keyline.cli;

import io.keyline.text.Text;

import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.ResourceBundle;
import java.util.Set;

/**
 * The words of {@code --help} for picocli, in the language of {@link Text}: picocli reads a command's description,
 * its options' descriptions and the help's headings from a {@link ResourceBundle} under its own keys
 * ({@code keyline.run.usage.description}, {@code keyline.run.max-time}, {@code usage.synopsisHeading}); they are
 * the {@code cli} bundle's messages {@code cli.help.} + that key. Each is a message like any other (two apostrophes
 * for one), and then picocli's format: {@code %n} ends a line, {@code %%} is a percent sign. A text made of several
 * lines has numbered keys ({@code usage.description.0}, {@code .1}, …).
 */
final class HelpBundle extends ResourceBundle {

    /** What the {@code cli} bundle's help keys start with. */
    static final String PREFIX = "cli.help.";

    private final Set<String> keys = new LinkedHashSet<>();

    private HelpBundle(ResourceBundle cli) {
        for (String k : cli.keySet()) {
            if (k.startsWith(PREFIX)) {
                keys.add(k.substring(PREFIX.length()));
            }
        }
    }

    /** The help's words in the language in use. */
    static HelpBundle current() {
        return new HelpBundle(Text.bundle("cli"));
    }

    @Override
    protected Object handleGetObject(String key) {
        return keys.contains(key) ? Text.t(PREFIX + key) : null;
    }

    @Override
    protected Set<String> handleKeySet() {
        return keys;
    }

    @Override
    public Enumeration<String> getKeys() {
        return Collections.enumeration(keys);
    }
}
