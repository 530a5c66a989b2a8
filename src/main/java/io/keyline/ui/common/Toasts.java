package io.keyline.ui.common;

import atlantafx.base.theme.Styles;
import javafx.animation.PauseTransition;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.Duration;

/**
 * The console's notifications: a strip under the page that takes its own room in the layout (it
 * shortens the page from below instead of covering a control or moving the page's top), styled like the rest of the console,
 * with at most three notes; each closes by itself after a while or with its ×, and may carry one
 * action ("Show").
 */
public final class Toasts extends VBox {

    static final int MAX = 3;
    private final Duration shownFor;

    public Toasts(Duration shownFor) {
        this.shownFor = shownFor;
        setId("toasts");
        getStyleClass().add("toasts");
        setSpacing(6);
        managedProperty().bind(visibleProperty());
        setVisible(false);
    }

    /**
     * Shows a note.
     *
     * @param kind   "warning" (something needs attention) or "info"
     * @param action the label of its button, or {@code null}
     * @param onAction what the button does
     */
    public void show(String kind, String title, String text, String action, Runnable onAction) {
        Label t = new Label(title);
        t.getStyleClass().add("toast-title");
        t.setMinWidth(Region.USE_PREF_SIZE);
        Label body = new Label(text);
        body.getStyleClass().add("toast-text");
        body.setWrapText(true);
        body.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(body, Priority.ALWAYS);
        HBox row = new HBox(10, t, body);
        row.setAlignment(Pos.CENTER_LEFT);
        row.getStyleClass().addAll("toast", kind);
        if (action != null) {
            Button b = new Button(action);
            b.getStyleClass().addAll(Styles.SMALL);
            b.setMinWidth(Region.USE_PREF_SIZE);
            b.setOnAction(e -> {
                getChildren().remove(row);
                update();
                onAction.run();
            });
            row.getChildren().add(b);
        }
        Button close = new Button("×");
        close.getStyleClass().addAll(Styles.SMALL, Styles.FLAT, "toast-close");
        close.setMinWidth(Region.USE_PREF_SIZE);
        close.setOnAction(e -> {
            getChildren().remove(row);
            update();
        });
        row.getChildren().add(close);
        getChildren().add(0, row);
        while (getChildren().size() > MAX) {
            getChildren().remove(getChildren().size() - 1);
        }
        update();
        PauseTransition hide = new PauseTransition(shownFor);
        hide.setOnFinished(e -> {
            getChildren().remove(row);
            update();
        });
        hide.play();
    }

    private void update() {
        setVisible(!getChildren().isEmpty());
    }
}
