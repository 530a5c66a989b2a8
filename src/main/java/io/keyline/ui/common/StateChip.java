package io.keyline.ui.common;

import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.WaitReason;
import io.keyline.text.Text;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;

import java.util.function.Function;

/**
 * A small rounded label in the colour of a key state, in the state's label ({@link Format#chip}); the state in full
 * is its accessible text and, where the label is shorter, its tooltip (made the first time the pointer comes).
 */
public final class StateChip extends Label {

    public StateChip() {
        getStyleClass().add("state-chip");
        // a state is a word or two: it keeps them, whatever the space around it
        setMinWidth(USE_PREF_SIZE);
        Tips.on(this, () -> getAccessibleText() == null || getAccessibleText().equals(getText()) ? null
                : getAccessibleText());
    }

    public void show(KeyState state) {
        show(state, null);
    }

    /** The chip of {@code state}, waiting for {@code why}: a wait for the job's review wears its own. */
    public void show(KeyState state, WaitReason why) {
        getStyleClass().removeIf(c -> c.startsWith("state-") && !c.equals("state-chip"));
        if (state == null) {
            setText("");
            setAccessibleText(null);
            setVisible(false);
            return;
        }
        setVisible(true);
        setText(Format.chip(state, why));
        setAccessibleText(Format.state(state, why));
        getStyleClass().add(Format.styleClass(state, why));
    }

    /** The chip of a key's state and why it waits, or none without a key. */
    public void showKey(KeyRecord key) {
        show(key == null ? null : key.state(), key == null ? null : key.waitReason());
    }

    /**
     * A table cell showing the chip of {@code state} of its item and why it waits (one chip per cell, reused as it
     * scrolls).
     */
    public static <S, T> TableCell<S, T> cell(Function<T, KeyState> state, Function<T, WaitReason> why) {
        return new TableCell<>() {
            private final StateChip chip = new StateChip();

            @Override
            protected void updateItem(T item, boolean empty) {
                super.updateItem(item, empty);
                if (empty || item == null) {
                    setGraphic(null);
                } else {
                    chip.show(state.apply(item), why.apply(item));
                    setGraphic(chip);
                }
            }
        };
    }

    /**
     * The width of the widest chip in the language in use (its 11 px bold words and its padding): a column
     * of chips needs no more (a chip says a state in a word or two).
     */
    public static double widest() {
        java.util.List<String> words = new java.util.ArrayList<>();
        for (KeyState s : KeyState.values()) {
            words.add(Format.chip(s, null));
        }
        words.add(Format.chip(KeyState.NEEDS_CONFIRMATION, WaitReason.REVIEW));
        words.add(Format.chipMissing());
        return widest(words);
    }

    /** The width of the widest chip of {@code words} (its 11 px bold words and its padding). */
    public static double widest(java.util.Collection<String> words) {
        return Widgets.textWidth(words, Fonts.text(javafx.scene.text.FontWeight.BOLD, 11)) + 16;
    }

    /** Keys that should exist but never ran. */
    public void showMissing() {
        getStyleClass().removeIf(c -> c.startsWith("state-") && !c.equals("state-chip"));
        setVisible(true);
        setText(Format.chipMissing());
        setAccessibleText(Text.t("ui.chip.missingInFull"));
        getStyleClass().add("state-missing");
    }
}
