package io.keyline.ui.common;

import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * Fonts that keep bold and monospace text with Chinese. JavaFX's logical fonts ("System", "monospace")
 * fall back, for CJK text, to whatever fontconfig offers first — often a face without a bold weight and a
 * proportional one for "monospace": the console then lost all bold text and its payload preview no longer
 * lined up. In Chinese the console names its families itself: the first installed of a list of CJK faces
 * that have bold weights (and their monospaced companions).
 */
public final class Fonts {

    /** CJK sans-serif faces with bold weights, best first (Linux, then Windows and macOS). */
    static final List<String> SANS = List.of("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC",
            "Source Han Sans CN", "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "Microsoft YaHei", "PingFang SC");
    /** Monospaced faces that carry CJK glyphs, best first. */
    static final List<String> MONO = List.of("Noto Sans Mono CJK SC", "Sarasa Mono SC", "WenQuanYi Zen Hei Mono",
            "WenQuanYi Micro Hei Mono");

    /** The selectors of the console's stylesheets that ask for a monospaced face. */
    static final String MONO_SELECTORS = ".code, .inbox-item .evidence, .credential-input, .plan-detail, "
            + ".timeline-time, .timeline-since, .timeline-step, .timeline-detail .text-area, "
            + ".confirm-dialog .text-area.code, .login-window .login-address";

    private Fonts() {
    }

    /**
     * The stylesheet (a {@code data:} URL) that names the CJK faces found among {@code installed}, or
     * {@code null} when none is installed (then JavaFX's own fallback stays).
     */
    public static String chineseStylesheet(Set<String> installed) {
        String sans = chineseSans(installed);
        if (sans == null) {
            return null;
        }
        String mono = MONO.stream().filter(installed::contains).findFirst().orElse(sans);
        String css = ".root { -fx-font-family: \"" + sans + "\"; }\n" + MONO_SELECTORS
                + " { -fx-font-family: \"" + mono + "\"; }\n";
        return "data:text/css;base64," + Base64.getEncoder().encodeToString(css.getBytes(StandardCharsets.UTF_8));
    }

    /** The sans-serif face named for Chinese among {@code installed}, or {@code null} when none is installed. */
    static String chineseSans(Set<String> installed) {
        return SANS.stream().filter(installed::contains).findFirst().orElse(null);
    }

    private static volatile String installedSans;

    /**
     * The face the console's text is drawn in, at {@code size} and {@code weight}: in Chinese the CJK face its
     * stylesheet names, else JavaFX's "System". A column measured in another face than its cells draw in is too
     * narrow (cut) or too wide.
     */
    public static Font text(FontWeight weight, double size) {
        String family = null;
        if (io.keyline.text.Text.chinese()) {
            String sans = installedSans;
            if (sans == null) {
                sans = java.util.Objects.requireNonNullElse(chineseSans(Set.copyOf(Font.getFamilies())), "");
                installedSans = sans;
            }
            family = sans.isEmpty() ? null : sans;
        }
        return Font.font(family == null ? Font.getDefault().getFamily() : family, weight, size);
    }

    /** {@link #text(FontWeight, double)} at the normal weight. */
    public static Font text(double size) {
        return text(FontWeight.NORMAL, size);
    }

    /** {@link #chineseStylesheet} over the fonts installed on this machine. */
    public static String chineseStylesheet() {
        return chineseStylesheet(Set.copyOf(Font.getFamilies()));
    }
}
