package io.keyline.ui.confirm;

import atlantafx.base.theme.Styles;
import io.keyline.domain.KeyState;
import io.keyline.text.Text;
import io.keyline.ui.common.StateChip;
import io.keyline.ui.common.Widgets;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextArea;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The content of the confirm dialog: why the key waits, what will be sent, a note, and the
 * buttons. Nothing is sent by a stray key: the note is a multi-line field (Enter is a new line),
 * "Confirm and run" is not the default button, and it fires only when clicked, or with Space or
 * Ctrl+Enter while it has the focus. "Cancel" sends nothing. "Confirm and run" is disabled from the
 * first click until the dialog is done, so a double click never executes twice (the ViewModel
 * ignores a second call as well).
 */
public final class ConfirmPane extends BorderPane {

    private final ConfirmViewModel vm;
    private final TextArea note = new TextArea();
    private final Button confirm = new Button(Text.t("ui.confirm.confirmAndRun"));
    private final Button markDone = new Button(Text.t("ui.confirm.markDone"));
    private final Button cancel = new Button(Text.t("common.cancel"));
    private final Button plan = new Button(io.keyline.ui.common.Format.move(io.keyline.domain.Trigger.APPROVE));
    private final java.util.function.BiConsumer<String, java.util.List<String>> planner;
    private final java.util.function.Consumer<String> renew;

    /**
     * @param close closes the window the pane is in
     */
    public ConfirmPane(ConfirmViewModel vm, Runnable close) {
        this(vm, close, null);
    }

    /**
     * @param close closes the window the pane is in
     * @param renew opens the Renew dialog of a credential (from the rejected-login warning), or {@code null}
     */
    public ConfirmPane(ConfirmViewModel vm, Runnable close, java.util.function.Consumer<String> renew) {
        this(vm, close, renew, null);
    }

    /**
     * @param close   closes the window the pane is in
     * @param renew   opens the Renew dialog of a credential (from the rejected-login warning), or {@code null}
     * @param planner opens the Plan dialog of a job's keys (for a key that waits for its job's review), or
     *                {@code null}
     */
    public ConfirmPane(ConfirmViewModel vm, Runnable close, java.util.function.Consumer<String> renew,
                       java.util.function.BiConsumer<String, java.util.List<String>> planner) {
        this.renew = renew;
        this.planner = planner;
        this.vm = vm;
        getStyleClass().add("confirm-dialog");
        setTop(title());
        setCenter(sections());
        setBottom(buttons(close));
    }

    public TextArea noteField() {
        return note;
    }

    private Region title() {
        Label heading = new Label();
        heading.getStyleClass().add("confirm-title");
        heading.textProperty().bind(Bindings.createStringBinding(() -> {
            io.keyline.core.operations.ConfirmAndRun.Preview i = vm.infoProperty().get();
            return i == null || i.step() == null ? Text.t("ui.confirm.title") : Text.t("ui.confirm.titleStep", i.step().id());
        }, vm.infoProperty()));
        Label sub = new Label();
        sub.getStyleClass().add("page-subtitle");
        sub.textProperty().bind(vm.titleProperty());
        StateChip chip = new StateChip();
        vm.infoProperty().addListener((o, a, i) -> chip.showKey(i == null ? null : i.record()));
        vm.outcomeProperty().addListener((o, a, rec) -> {
            if (rec != null) {
                chip.showKey(rec);
            }
        });
        chip.show(null);
        ProgressIndicator loading = new ProgressIndicator();
        loading.setPrefSize(16, 16);
        loading.visibleProperty().bind(vm.loadingProperty());
        HBox row = new HBox(10, heading, chip, loading);
        row.setAlignment(Pos.CENTER_LEFT);
        VBox box = new VBox(2, row, sub);
        box.getStyleClass().add("confirm-header");
        return box;
    }

    private Region sections() {
        // why it waits
        Label headline = new Label();
        headline.getStyleClass().add("confirm-headline");
        headline.setWrapText(true);
        headline.setMinHeight(Region.USE_PREF_SIZE);
        headline.textProperty().bind(vm.reasonHeadlineProperty());
        // what the action came to reads in its state's colour (a success as a success); before it, a warning's
        vm.outcomeProperty().addListener((o, a, rec) -> {
            headline.getStyleClass().removeIf(c -> c.startsWith("state-"));
            if (rec != null) {
                headline.getStyleClass().add(io.keyline.ui.common.Format.styleClass(rec.state(), rec.waitReason()));
            }
        });
        // a key that waits for its job's review wears the review's colour, not a confirmation's warning
        vm.heldForReviewProperty().addListener((o, a, held) -> {
            headline.getStyleClass().remove("state-needs-review");
            if (held) {
                headline.getStyleClass().add("state-needs-review");
            }
        });
        Label reason = new Label();
        reason.setWrapText(true);
        reason.textProperty().bind(vm.reasonProperty());
        shownWhen(reason, reason.textProperty().isNotEmpty());
        TextArea evidence = code(7);
        evidence.getStyleClass().add("confirm-evidence");
        evidence.textProperty().bind(vm.evidenceTextProperty());
        shownWhen(evidence, vm.evidenceTextProperty().isNotEmpty());
        Label probe = new Label();
        probe.setWrapText(true);
        probe.getStyleClass().add("confirm-probe");
        probe.textProperty().bind(vm.probeAnswerProperty());
        shownWhen(probe, vm.probeAnswerProperty().isNotEmpty());
        // the login is rejected: say it before anything else, with the way out
        Label rejected = new Label();
        rejected.setId("confirm-credential-warning");
        rejected.setWrapText(true);
        rejected.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(rejected, Priority.ALWAYS);
        rejected.textProperty().bind(Bindings.createStringBinding(() -> vm.infoProperty().get() == null ? ""
                : vm.infoProperty().get().credentialWarning(), vm.infoProperty()));
        Button renewButton = Widgets.button("confirm-renew", Text.t("ui.confirm.renewLogin"), e -> {
            if (renew != null && vm.infoProperty().get() != null) {
                renew.accept(vm.infoProperty().get().rejectedCredential());
            }
        });
        renewButton.setVisible(renew != null);
        renewButton.setManaged(renew != null);
        Label sign = new Label("⚠");
        sign.setMinWidth(Region.USE_PREF_SIZE); // a CJK face draws it wider: it was cut to an ellipsis
        HBox warning = new HBox(10, sign, rejected, renewButton);
        warning.setAlignment(Pos.CENTER_LEFT);
        warning.getStyleClass().add("paused-banner");
        shownWhen(warning, rejected.textProperty().isNotEmpty());
        VBox why = section("", warning, headline, reason, evidence, probe);
        // "Why it waits" until the dialog acted, then "What happened" (the probe asked, the answer, the new state)
        ((Label) why.getChildren().get(0)).textProperty().bind(vm.whyTitleProperty());
        why.setId("confirm-why");

        // what will be sent, then what was (or was not) sent
        TextArea payload = code(12);
        payload.getStyleClass().add("confirm-payload");
        payload.textProperty().bind(vm.payloadTextProperty());
        VBox.setVgrow(payload, Priority.ALWAYS);
        Label hash = new Label();
        hash.getStyleClass().addAll("muted", "confirm-hash");
        hash.setWrapText(true);
        hash.textProperty().bind(Bindings.createStringBinding(() -> {
            String h = vm.payloadHashProperty().get();
            return h.isEmpty() ? "" : Text.t("ui.confirm.payloadHash", h.substring(0, 16));
        }, vm.payloadHashProperty()));
        hash.setTooltip(new Tooltip());
        hash.getTooltip().textProperty().bind(vm.payloadHashProperty());
        shownWhen(hash, vm.payloadHashProperty().isNotEmpty());
        VBox sent = section("", payload, hash);
        ((Label) sent.getChildren().get(0)).textProperty().bind(vm.sentTitleProperty());
        VBox.setVgrow(sent, Priority.ALWAYS);

        // note, progress, problem, outcome
        // the placeholder explains the buttons; a finished dialog offers none of them and its note is read-only
        note.promptTextProperty().bind(Bindings.when(vm.finishedProperty()).then("")
                .otherwise(Text.t("ui.confirm.notePrompt")));
        note.setId("confirm-note");
        note.setWrapText(true);
        note.setPrefRowCount(2);
        // on a short screen the payload (which scrolls) gives up room, not the note: its placeholder was cut
        note.setMinHeight(Region.USE_PREF_SIZE);
        note.disableProperty().bind(vm.busyProperty().or(vm.finishedProperty()));
        Label noteLabel = new Label(Text.t("ui.confirm.note"));
        noteLabel.getStyleClass().add("confirm-section-title");
        noteLabel.setLabelFor(note);
        VBox noteBox = new VBox(4, noteLabel, note);

        ProgressIndicator spinner = new ProgressIndicator();
        spinner.setPrefSize(18, 18);
        Label progressText = new Label();
        progressText.textProperty().bind(vm.progressProperty());
        HBox progress = new HBox(8, spinner, progressText);
        progress.setAlignment(Pos.CENTER_LEFT);
        progress.getStyleClass().add("confirm-progress");
        shownWhen(progress, vm.busyProperty());

        Label problem = new Label();
        problem.getStyleClass().addAll("error-text", "confirm-problem");
        problem.setWrapText(true);
        problem.textProperty().bind(vm.problemProperty());
        shownWhen(problem, vm.problemProperty().isNotEmpty());

        StateChip outcomeChip = new StateChip();
        Label outcomeText = new Label();
        outcomeText.setWrapText(true);
        outcomeText.getStyleClass().add("confirm-outcome-text");
        outcomeText.textProperty().bind(vm.outcomeTextProperty());
        Label outcomeLabel = new Label(Text.t("ui.confirm.outcome"));
        outcomeLabel.setMinWidth(Region.USE_PREF_SIZE);
        outcomeChip.setMinWidth(Region.USE_PREF_SIZE);
        HBox.setHgrow(outcomeText, javafx.scene.layout.Priority.ALWAYS);
        outcomeText.setMaxWidth(Double.MAX_VALUE);
        HBox outcome = new HBox(10, outcomeLabel, outcomeChip, outcomeText);
        outcome.setAlignment(Pos.CENTER_LEFT);
        outcome.getStyleClass().add("confirm-outcome");
        vm.outcomeProperty().addListener((o, a, rec) -> {
            outcomeChip.showKey(rec);
            outcome.getStyleClass().removeAll("done", "waiting");
            if (rec != null) {
                outcome.getStyleClass().add(rec.state() == KeyState.DONE ? "done" : "waiting");
            }
        });
        shownWhen(outcome, vm.outcomeProperty().isNotNull());

        VBox box = new VBox(14, why, sent, noteBox, progress, problem, outcome);
        box.setPadding(new Insets(4, 20, 8, 20));
        return box;
    }

    private Region buttons(Runnable close) {
        confirm.setId("confirm-and-run");
        confirm.setDefaultButton(false);
        confirm.getStyleClass().add(Styles.ACCENT);
        confirm.setTooltip(new Tooltip(Text.t("ui.confirm.confirmTip")));
        confirm.addEventHandler(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == javafx.scene.input.KeyCode.ENTER && e.isShortcutDown() && confirm.isFocused()) {
                confirm.fire();
                e.consume();
            }
        });
        confirm.disableProperty().bind(vm.canConfirmProperty().not());
        confirm.setOnAction(e -> vm.confirmAndRun(note.getText()));
        Widgets.shownWhen(confirm, vm.finishedProperty().not().and(vm.heldForReviewProperty().not()));

        markDone.disableProperty().bind(vm.canMarkDoneProperty().not());
        markDone.setOnAction(e -> {
            if (!vm.markDone(note.getText())) {
                note.requestFocus();
            }
        });
        markDone.setTooltip(new Tooltip(Text.t("ui.confirm.markDoneTip")));
        Widgets.shownWhen(markDone, vm.finishedProperty().not());

        cancel.setId("confirm-cancel");
        cancel.setCancelButton(true);
        cancel.textProperty().bind(Bindings.when(vm.finishedProperty()).then(Text.t("common.close")).otherwise(Text.t("ui.confirm.cancelNothing")));
        vm.finishedProperty().addListener((o, a, done) -> {
            cancel.setDefaultButton(done);
            if (done) {
                cancel.requestFocus();
            }
        });
        cancel.setOnAction(e -> close.run());

        // a key that waits for its job's review goes on when the job is reviewed: Plan… of the job, not a confirmation
        plan.setId("confirm-plan");
        plan.getStyleClass().add(Styles.ACCENT);
        plan.setOnAction(e -> {
            String job = vm.jobProperty().get();
            String key = vm.keyProperty().get();
            close.run();
            planner.accept(job, java.util.List.of(key));
        });
        Widgets.shownWhen(plan, planner == null ? new javafx.beans.property.SimpleBooleanProperty(false)
                : vm.heldForReviewProperty());
        ButtonBar.setButtonData(plan, ButtonBar.ButtonData.OK_DONE);
        ButtonBar.setButtonData(confirm, ButtonBar.ButtonData.OK_DONE);
        ButtonBar.setButtonData(markDone, ButtonBar.ButtonData.OTHER);
        ButtonBar.setButtonData(cancel, ButtonBar.ButtonData.CANCEL_CLOSE);
        ButtonBar bar = new ButtonBar();
        bar.getButtons().addAll(markDone, cancel, confirm, plan);
        bar.getStyleClass().add("confirm-buttons");
        bar.setPadding(new Insets(10, 20, 16, 20));
        return bar;
    }

    private static VBox section(String title, javafx.scene.Node... content) {
        Label t = new Label(title);
        t.getStyleClass().add("confirm-section-title");
        VBox box = new VBox(6, t);
        box.getChildren().addAll(content);
        box.getStyleClass().add("confirm-section");
        return box;
    }

    private static TextArea code(int rows) {
        TextArea a = new TextArea();
        a.setEditable(false);
        a.setWrapText(false);
        a.setPrefRowCount(rows);
        a.getStyleClass().add("code");
        return a;
    }

    /** {@code n} takes room only while {@code shown}; a section of text then keeps the height its lines need. */
    private static void shownWhen(javafx.scene.Node n, javafx.beans.value.ObservableBooleanValue shown) {
        if (n instanceof Region r && !(n instanceof TextArea)) {
            r.setMinHeight(Region.USE_PREF_SIZE);
        }
        Widgets.shownWhen(n, shown);
    }
}
