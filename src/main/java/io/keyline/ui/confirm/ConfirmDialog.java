package io.keyline.ui.confirm;

import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import javafx.scene.Scene;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.stage.Window;

import java.util.Objects;

/** The modal confirm dialog of a key whose unsafe step waits for a person. */
public final class ConfirmDialog {

    static final String KEYLINE_CSS = Objects.requireNonNull(
            ConfirmDialog.class.getResource("/io/keyline/ui/keyline.css")).toExternalForm();
    static final String OWN_CSS = Objects.requireNonNull(
            ConfirmDialog.class.getResource("/io/keyline/ui/timeline-confirm.css")).toExternalForm();

    private ConfirmDialog() {
    }

    /**
     * Opens the dialog (modal to {@code owner}) and loads the key in the background.
     *
     * @param onChanged called on the UI thread after the dialog confirmed and ran the key or marked it done
     */
    public static void show(Window owner, ConsoleServices services, Threads threads, String job, String key,
                            Runnable onChanged) {
        ConfirmViewModel vm = new ConfirmViewModel(services, threads);
        vm.setOnChanged(onChanged);
        Stage stage = stage(owner, vm);
        vm.load(job, key);
        stage.show();
        ((ConfirmPane) stage.getScene().getRoot()).noteField().requestFocus();
    }

    /** Builds the dialog's window without showing it. */
    static Stage stage(Window owner, ConfirmViewModel vm) {
        Stage stage = new Stage();
        if (owner != null) {
            stage.initOwner(owner);
            stage.initModality(Modality.WINDOW_MODAL);
        } else {
            stage.initModality(Modality.APPLICATION_MODAL);
        }
        ConfirmPane pane = new ConfirmPane(vm, stage::close);
        Scene scene = new Scene(pane, 760, 720);
        if (owner != null && owner.getScene() != null) {
            scene.getStylesheets().addAll(owner.getScene().getStylesheets());
            if (owner.getScene().getRoot().getStyleClass().contains("kl-dark")) {
                pane.getStyleClass().add("kl-dark");
            }
        }
        if (!scene.getStylesheets().contains(KEYLINE_CSS)) {
            scene.getStylesheets().add(KEYLINE_CSS);
        }
        scene.getStylesheets().add(OWN_CSS);
        stage.setScene(scene);
        stage.setMinWidth(560);
        stage.setMinHeight(520);
        stage.titleProperty().bind(vm.titleProperty().map(t -> "Keyline · Confirm · " + t));
        return stage;
    }
}
