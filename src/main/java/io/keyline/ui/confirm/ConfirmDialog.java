package io.keyline.ui.confirm;

import io.keyline.text.Text;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Theme;
import io.keyline.ui.common.Threads;
import javafx.stage.Stage;
import javafx.stage.Window;

import java.util.concurrent.atomic.AtomicReference;

/** The modal confirm dialog of a key whose unsafe step waits for a person. */
public final class ConfirmDialog {

    private ConfirmDialog() {
    }

    /**
     * Opens the dialog (modal to {@code owner}) and loads the key in the background.
     *
     * @param onChanged called on the UI thread after the dialog confirmed and ran the key or marked it done
     */
    public static void show(Window owner, ConsoleServices services, Threads threads, String job, String key,
                            Runnable onChanged) {
        show(owner, services, threads, job, key, onChanged, null);
    }

    /**
     * As {@link #show(Window, ConsoleServices, Threads, String, String, Runnable)}, with {@code renew}
     * opening the Renew dialog of a rejected credential (the dialog then closes).
     */
    public static void show(Window owner, ConsoleServices services, Threads threads, String job, String key,
                            Runnable onChanged, java.util.function.Consumer<String> renew) {
        show(owner, services, threads, job, key, onChanged, renew, null);
    }

    /**
     * As {@link #show(Window, ConsoleServices, Threads, String, String, Runnable, java.util.function.Consumer)}, with
     * {@code plan} opening the Plan dialog of the job's key when the key waits for its job's review (the dialog then
     * closes).
     */
    public static void show(Window owner, ConsoleServices services, Threads threads, String job, String key,
                            Runnable onChanged, java.util.function.Consumer<String> renew,
                            java.util.function.BiConsumer<String, java.util.List<String>> plan) {
        ConfirmViewModel vm = new ConfirmViewModel(services, threads);
        vm.setOnChanged(onChanged);
        Stage stage = stage(owner, vm, renew, plan);
        vm.load(job, key);
        stage.show();
        // the note is a multi-line field: typing there (Enter included) never confirms
        ((ConfirmPane) stage.getScene().getRoot()).noteField().requestFocus();
    }

    /** Builds the dialog's window without showing it. */
    static Stage stage(Window owner, ConfirmViewModel vm) {
        return stage(owner, vm, null);
    }

    static Stage stage(Window owner, ConfirmViewModel vm, java.util.function.Consumer<String> renew) {
        return stage(owner, vm, renew, null);
    }

    static Stage stage(Window owner, ConfirmViewModel vm, java.util.function.Consumer<String> renew,
                       java.util.function.BiConsumer<String, java.util.List<String>> plan) {
        AtomicReference<Stage> window = new AtomicReference<>();
        ConfirmPane pane = new ConfirmPane(vm, () -> window.get().close(), renew == null ? null : name -> {
            window.get().close();
            renew.accept(name);
        }, plan);
        Stage stage = Theme.dialog(owner, pane, 760, 720, 560, 520);
        window.set(stage);
        stage.titleProperty().bind(vm.titleProperty().map(t -> Text.t("ui.confirm.windowTitle", t)));
        return stage;
    }
}
