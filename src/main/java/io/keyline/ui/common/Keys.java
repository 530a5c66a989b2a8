package io.keyline.ui.common;

import javafx.event.Event;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;

/**
 * Keys that work the same in every window of the console. In a text area, Tab and Shift+Tab move the
 * focus on, as in every other field (a note is never a place to type a tab character); Ctrl+Tab inserts
 * one where a tab is data (a pasted cookies.txt).
 */
public final class Keys {

    private static final String MOVING = "keyline.tab-moves";

    private Keys() {
    }

    /** Installs the console's keys on {@code scene}. */
    public static void install(Scene scene) {
        scene.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() != KeyCode.TAB || !(e.getTarget() instanceof TextArea area) || e.isAltDown()
                    || e.isMetaDown() || area.getProperties().containsKey(MOVING)) {
                return;
            }
            e.consume();
            if (e.isControlDown()) {
                if (area.isEditable()) {
                    area.replaceSelection("\t");
                }
                return;
            }
            // the text area's own traversal keys are Ctrl+Tab and Ctrl+Shift+Tab: hand it those
            area.getProperties().put(MOVING, Boolean.TRUE);
            try {
                Event.fireEvent(area, new KeyEvent(KeyEvent.KEY_PRESSED, "", "", KeyCode.TAB, e.isShiftDown(), true,
                        false, false));
            } finally {
                area.getProperties().remove(MOVING);
            }
        });
    }

    /**
     * The keys of a list of keys (the Attention list, a job's key table), the same on every page: J and K move
     * down and up, Enter acts on the highlighted row, T opens its timeline. With Ctrl, Alt or Cmd they are the
     * window's shortcuts, not the list's.
     */
    public static void rows(Node list, Runnable down, Runnable up, Runnable act, Runnable timeline) {
        list.addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (e.isShortcutDown() || e.isAltDown() || e.isControlDown() || e.isMetaDown()) {
                return;
            }
            Runnable r = switch (e.getCode()) {
                case J -> down;
                case K -> up;
                case ENTER -> act;
                case T -> timeline;
                default -> null;
            };
            if (r != null) {
                r.run();
                e.consume();
            }
        });
    }

    /** Whether typing goes into {@code n} (a text field or area): single keys are its, not the console's. */
    public static boolean typesInto(Node n) {
        return n instanceof javafx.scene.control.TextInputControl t && t.isEditable();
    }
}
