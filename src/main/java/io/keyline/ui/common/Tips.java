package io.keyline.ui.common;

import javafx.scene.control.Control;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseEvent;

import java.util.function.Supplier;

/**
 * Tooltips made when the pointer first comes over their control. A tooltip is a popup window with a scene of
 * its own; the console's frame has a dozen controls with one, and making them all before the first frame cost
 * a tenth of the time to it. The text is read again on every hover, so it is always the current one.
 */
public final class Tips {

    private Tips() {
    }

    /** Shows {@code text} (read on each hover; nothing when it is empty) when the pointer rests on {@code c}. */
    public static <C extends Control> C on(C c, Supplier<String> text) {
        c.addEventHandler(MouseEvent.MOUSE_ENTERED, e -> {
            String s = text.get();
            if (s == null || s.isBlank()) {
                c.setTooltip(null);
                return;
            }
            Tooltip t = c.getTooltip();
            if (t == null) {
                t = new Tooltip();
                t.setWrapText(true);
                t.setMaxWidth(640);
                c.setTooltip(t);
            }
            t.setText(s);
        });
        return c;
    }

    /** Shows {@code text} when the pointer rests on {@code c}. */
    public static <C extends Control> C on(C c, String text) {
        return on(c, () -> text);
    }
}
