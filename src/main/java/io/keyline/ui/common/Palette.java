package io.keyline.ui.common;

import io.keyline.core.DecisionInputs;
import io.keyline.domain.KeyState;
import io.keyline.domain.WaitReason;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.scene.paint.Color;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The console's colours, in one place: the looked-up colours of the stylesheets ({@code -kl-ok},
 * {@code -kl-failed}, …) are generated from this table ({@link #stylesheet()}), and what is drawn on a
 * Canvas (which CSS cannot reach) reads the same table. Light and dark.
 */
public final class Palette {
    private static final BooleanProperty DARK = new SimpleBooleanProperty(false);

    /** Looked-up colour name → {light, dark}. */
    private static final Map<String, String[]> COLOURS = new LinkedHashMap<>();

    static {
        c("-kl-ok", "#1a7f37", "#3fb950");
        c("-kl-failed", "#cf222e", "#f85149");
        c("-kl-confirm", "#9a6700", "#d29922");
        // a key that waits for its job's review sent nothing: a calm teal, apart from the amber of a confirmation
        // (chip text on it ≥ 4.5:1 in both themes)
        c("-kl-review", "#1b7c83", "#39c5cf");
        c("-kl-credential", "#8250df", "#a371f7");
        c("-kl-retry", "#bc4c00", "#db6d28");
        c("-kl-running", "#0969da", "#58a6ff");
        c("-kl-pending", "#57606a", "#8b949e");
        c("-kl-skipped", "#8c959f", "#6e7681");
        // a key that should exist but never ran: a loud outline on the page colour (≥ 4.5:1 against it)
        c("-kl-missing", "#b35900", "#f0883e");
        c("-kl-gap", "#ffffff", "#0d1117");
        c("-kl-before-start", "#eef1f4", "#161b22");
        c("-kl-gap-border", "#d0d7de", "#30363d");
        c("-kl-chip-text", "#ffffff", "#0d1117");
        c("-kl-sidebar", "#f6f8fa", "#161b22");
        c("-kl-muted", "#57606a", "#8b949e");
        c("-kl-evidence-bg", "#f6f8fa", "#161b22");
        c("-kl-selected", "#ddf4ff", "#1f3a5f");
        c("-kl-selected-border", "#0969da", "#58a6ff");
        // the keyboard focus: the accent of each theme, as a ring a pixel away from the control (so it reads
        // beside an accent button too) or inside a row (≥ 3:1 against the page and the selected row)
        c("-kl-focus", "#0969da", "#58a6ff");
        c("-kl-hover", "#f3f5f8", "#1c2128");
        c("-kl-banner", "#fff8c5", "#3b2e00");
        c("-kl-toast", "#ffffff", "#1c2128");
        // the timeline's operator-action band: a tint of -kl-credential that keeps the text readable in both themes
        c("-kl-operator-band", "#f5f0fd", "#2a2140");
    }

    private static void c(String name, String light, String dark) {
        COLOURS.put(name, new String[] {light, dark});
    }

    private Palette() {
    }

    public static BooleanProperty darkProperty() {
        return DARK;
    }

    /** The looked-up colour name of a key state: {@code -kl-ok} for DONE, … */
    public static String name(KeyState s) {
        return switch (s) {
            case DONE -> "-kl-ok";
            case FAILED -> "-kl-failed";
            case NEEDS_CONFIRMATION -> "-kl-confirm";
            case NEEDS_CREDENTIAL -> "-kl-credential";
            case RETRY_WAIT -> "-kl-retry";
            case RUNNING -> "-kl-running";
            case PENDING -> "-kl-pending";
            case SKIPPED -> "-kl-skipped";
        };
    }

    /**
     * The looked-up colour name of a key state and why it waits: {@code -kl-review} for a key that waits for its
     * job's review, else {@link #name(KeyState)}.
     */
    public static String name(KeyState s, WaitReason why) {
        return DecisionInputs.waitsForReview(s, why) ? "-kl-review" : name(s);
    }

    /** A looked-up colour in the current theme. */
    public static Color named(String name) {
        return named(name, DARK.get());
    }

    /** A looked-up colour in the given theme. */
    public static Color named(String name, boolean dark) {
        String[] v = COLOURS.get(name);
        if (v == null) {
            throw new IllegalArgumentException(name);
        }
        return Color.web(v[dark ? 1 : 0]);
    }

    public static Color of(KeyState s) {
        return named(name(s));
    }

    /** The colour of a key state and why it waits ({@link #name(KeyState, WaitReason)}). */
    public static Color of(KeyState s, WaitReason why) {
        return named(name(s, why));
    }

    public static Color missing() {
        return named("-kl-missing");
    }

    public static Color gap() {
        return named("-kl-gap");
    }

    public static Color beforeStart() {
        return named("-kl-before-start");
    }

    public static Color gapBorder() {
        return named("-kl-gap-border");
    }

    public static Color muted() {
        return named("-kl-muted");
    }

    public static Color selectedBorder() {
        return named("-kl-selected-border");
    }

    /** The stylesheet text: {@code .root { -kl-ok: …; } .root.kl-dark { … }}. */
    public static String css() {
        StringBuilder light = new StringBuilder(".root {\n");
        StringBuilder dark = new StringBuilder(".root." + Theme.DARK + " {\n");
        COLOURS.forEach((n, v) -> {
            light.append("    ").append(n).append(": ").append(v[0].toLowerCase(Locale.ROOT)).append(";\n");
            dark.append("    ").append(n).append(": ").append(v[1].toLowerCase(Locale.ROOT)).append(";\n");
        });
        return light.append("}\n").append(dark).append("}\n").toString();
    }

    /** The colours as a stylesheet URL (a {@code data:} URL), first of the console's stylesheets. */
    public static String stylesheet() {
        return "data:text/css;base64," + Base64.getEncoder().encodeToString(css().getBytes(StandardCharsets.UTF_8));
    }
}
