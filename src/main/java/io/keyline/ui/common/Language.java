package io.keyline.ui.common;

import io.keyline.text.Text;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * The language the operator chose in the console, kept for the next start in a small settings file of the
 * user ({@code $XDG_CONFIG_HOME/keyline/console.properties}, else {@code ~/.config/keyline/console.properties};
 * the system property {@code keyline.settings} names another file). {@code KEYLINE_LANG}, when set, wins
 * over the saved choice.
 */
public final class Language {

    private static final String KEY = "language";

    private Language() {
    }

    /** The settings file. */
    public static Path file() {
        String given = System.getProperty("keyline.settings");
        if (given != null && !given.isBlank()) {
            return Path.of(given);
        }
        String xdg = System.getenv("XDG_CONFIG_HOME");
        Path config = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".config");
        return config.resolve("keyline").resolve("console.properties");
    }

    /** The language saved by the console's switch, or {@code null} when none was chosen (or it cannot be read). */
    public static Locale saved() {
        Path f = file();
        if (!Files.isRegularFile(f)) {
            return null;
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
        String tag = p.getProperty(KEY);
        return tag == null || tag.isBlank() ? null : Text.initial(tag, Locale.ENGLISH);
    }

    /**
     * Uses the saved language at start, unless {@code KEYLINE_LANG} ({@code keylineLang}) chooses one.
     *
     * @return the language in use afterwards
     */
    public static Locale atStart(String keylineLang) {
        Locale saved = keylineLang == null || keylineLang.isBlank() ? saved() : null;
        Text.use(saved != null ? saved : Text.initial(keylineLang, Locale.getDefault()));
        return Text.locale();
    }

    /**
     * Switches to {@code l} and keeps the choice for the next start (other settings in the file stay). A file
     * that cannot be written leaves the switch in force until the console closes.
     */
    public static void choose(Locale l) {
        Text.use(l);
        Path f = file();
        Properties p = new Properties();
        try {
            if (Files.isRegularFile(f)) {
                try (Reader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                    p.load(in);
                }
            }
            p.setProperty(KEY, Text.chinese() ? "zh-CN" : "en");
            if (f.getParent() != null) {
                Files.createDirectories(f.getParent());
            }
            try (Writer out = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
                p.store(out, null);
            }
        } catch (IOException | IllegalArgumentException e) {
            // a read-only home: the language holds until the console closes
        }
    }
}
