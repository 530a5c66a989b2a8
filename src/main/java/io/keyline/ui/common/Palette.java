package io.keyline.ui.common;

import io.keyline.domain.KeyState;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.scene.paint.Color;

/**
 * The state colours for what is drawn on a Canvas (which CSS cannot reach); the same values as
 * the looked-up colours in keyline.css, light and dark.
 */
public final class Palette {
    private static final BooleanProperty DARK = new SimpleBooleanProperty(false);

    private Palette() {
    }

    public static BooleanProperty darkProperty() {
        return DARK;
    }

    public static Color of(KeyState s) {
        boolean d = DARK.get();
        return switch (s) {
            case DONE -> Color.web(d ? "#3fb950" : "#1a7f37");
            case FAILED -> Color.web(d ? "#f85149" : "#cf222e");
            case NEEDS_CONFIRMATION -> Color.web(d ? "#d29922" : "#9a6700");
            case NEEDS_CREDENTIAL -> Color.web(d ? "#a371f7" : "#8250df");
            case RETRY_WAIT -> Color.web(d ? "#db6d28" : "#bc4c00");
            case RUNNING -> Color.web(d ? "#58a6ff" : "#0969da");
            case PENDING -> Color.web(d ? "#8b949e" : "#57606a");
            case SKIPPED -> Color.web(d ? "#6e7681" : "#8c959f");
        };
    }

    public static Color gap() {
        return Color.web(DARK.get() ? "#21262d" : "#eaeef2");
    }

    public static Color gapBorder() {
        return Color.web(DARK.get() ? "#484f58" : "#afb8c1");
    }

    public static Color muted() {
        return Color.web(DARK.get() ? "#8b949e" : "#57606a");
    }
}
