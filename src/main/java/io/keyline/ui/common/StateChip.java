package io.keyline.ui.common;

import io.keyline.domain.KeyState;
import io.keyline.text.Text;
import javafx.scene.control.Label;

/** A small rounded label in the colour of a key state. */
public final class StateChip extends Label {

    public StateChip() {
        getStyleClass().add("state-chip");
        // a state is a word or two: it keeps them, whatever the space around it
        setMinWidth(USE_PREF_SIZE);
    }

    public StateChip(KeyState state) {
        this();
        show(state);
    }

    public void show(KeyState state) {
        getStyleClass().removeIf(c -> c.startsWith("state-") && !c.equals("state-chip"));
        if (state == null) {
            setText("");
            setVisible(false);
            return;
        }
        setVisible(true);
        setText(Format.state(state));
        getStyleClass().add(Format.styleClass(state));
    }

    /** Keys that should exist but never ran. */
    public void showMissing() {
        getStyleClass().removeIf(c -> c.startsWith("state-") && !c.equals("state-chip"));
        setVisible(true);
        setText(Text.t("common.state.MISSING"));
        getStyleClass().add("state-missing");
    }
}
