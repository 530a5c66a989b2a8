package io.keyline.ui.common;

import atlantafx.base.theme.Styles;
import io.keyline.text.Text;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * A small dialog of the console's own for an audited action that needs a note (Skip, Mark done,
 * Rearm): what it does to which keys, a multi-line note (required; Enter is a new line), an optional
 * extra control, and the action button, which is enabled only with a note and never the default
 * button. Looks like the rest of the console (its stylesheets, light or dark).
 */
public final class NoteDialog {

    private final BorderPane root = new BorderPane();
    private final TextArea note = new TextArea();
    private final Button act;
    private final Button cancel = new Button(Text.t("common.cancel"));
    private Stage stage;

    /**
     * @param title   "Skip daily-article 2026-11-08"
     * @param explain what the action does, in a sentence or two
     * @param action  the button's label ("Skip")
     * @param extra   an extra control shown above the note (e.g. the step to rearm from), or {@code null}
     * @param onNote  gets the stripped note when the operator presses the action button
     */
    public NoteDialog(String title, String explain, String action, Node extra, Consumer<String> onNote) {
        root.getStyleClass().add("note-dialog");
        root.setPadding(new Insets(18, 20, 16, 20));
        Label heading = new Label(title);
        heading.getStyleClass().add("page-title");
        heading.setWrapText(true);
        Label text = new Label(explain);
        text.setWrapText(true);
        text.setMinHeight(Region.USE_PREF_SIZE);
        Label noteLabel = new Label(Text.t("ui.note.label"));
        noteLabel.getStyleClass().add("confirm-section-title");
        note.setId("note-text");
        note.setWrapText(true);
        note.setPrefRowCount(3);
        note.setPromptText(Text.t("ui.note.prompt"));
        noteLabel.setLabelFor(note);
        VBox body = new VBox(10, heading, text);
        if (extra != null) {
            body.getChildren().add(extra);
        }
        body.getChildren().addAll(noteLabel, note);
        VBox.setVgrow(note, Priority.ALWAYS);
        root.setCenter(body);

        act = new Button(action);
        act.setId("note-action");
        act.getStyleClass().add(Styles.ACCENT);
        act.setDefaultButton(false);
        act.disableProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(
                () -> note.getText() == null || note.getText().isBlank(), note.textProperty()));
        act.setOnAction(e -> {
            String n = note.getText().strip();
            close();
            onNote.accept(n);
        });
        cancel.setId("note-cancel");
        cancel.setCancelButton(true);
        cancel.setOnAction(e -> close());
        HBox buttons = new HBox(8, Widgets.grow(), cancel, act);
        buttons.setAlignment(Pos.CENTER_RIGHT);
        buttons.setPadding(new Insets(12, 0, 0, 0));
        root.setBottom(buttons);
    }

    /** Opens the dialog over {@code owner}, with the focus in the note. */
    public void show(Window owner) {
        stage = Theme.dialog(owner, root, 520, 340, 420, 300);
        stage.setTitle(Text.t("ui.note.windowTitle", act.getText()));
        stage.show();
        note.requestFocus();
    }

    private void close() {
        Optional.ofNullable(stage).ifPresent(Stage::close);
    }
}
