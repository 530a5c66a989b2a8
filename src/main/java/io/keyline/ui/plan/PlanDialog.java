package io.keyline.ui.plan;

import atlantafx.base.theme.Styles;
import io.keyline.text.Text;
import io.keyline.core.Plan;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.StateChip;
import io.keyline.ui.common.Theme;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.Widgets;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.stage.Stage;
import javafx.stage.Window;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The dry-run plan of a job: choose the keys, see per key the planned action and the
 * exact requests of its http steps, and apply exactly that plan. Thin: everything it shows comes from a
 * {@link PlanViewModel}.
 */
public final class PlanDialog {

    /** Row height of the key table: fixed, so that thousands of keys scroll smoothly. */
    static final double ROW_HEIGHT = 30;

    private final PlanViewModel vm;
    private final BorderPane root = new BorderPane();

    /** Builds the dialog's content on a view model (the job is chosen on the view model). */
    public PlanDialog(PlanViewModel vm, Runnable onChanged) {
        this.vm = vm;
        Widgets.dialog(root, "plan-dialog", header(), body(), footer());
        Widgets.onTrue(vm.appliedProperty(), onChanged);
    }

    /**
     * Opens the plan of {@code job} in a window of its own over {@code owner}: of exactly {@code keys}
     * when given (the heatmap's gaps, the inbox's missing keys), else of the current key.
     */
    public static void show(Window owner, ConsoleServices s, Threads t, String job, List<String> keys,
                            Runnable onChanged) {
        PlanViewModel vm = new PlanViewModel(s, t);
        PlanDialog dialog = new PlanDialog(vm, onChanged);
        Stage stage = Theme.dialog(owner, dialog.root(), 1080, 700, 720, 480);
        stage.setTitle(Text.t("ui.plan.windowTitle", job == null ? "" : job));
        vm.choice().jobProperty().addListener((o, a, b) -> stage.setTitle(Text.t("ui.plan.windowTitle", b == null ? "" : b)));
        vm.loadJobs();
        if (job != null) {
            vm.choice().jobProperty().set(job);
            if (keys != null && !keys.isEmpty()) {
                vm.planKeys(keys);
            } else {
                vm.plan();
            }
        }
        stage.show();
    }

    public Parent root() {
        return root;
    }

    // ---------------------------------------------------------------- header: job and keys

    private VBox header() {
        PlanChoice c = vm.choice();
        Label title = new Label();
        title.getStyleClass().add("page-title");
        title.textProperty().bind(Bindings.createStringBinding(() -> Text.t("ui.plan.title",
                c.jobProperty().get() == null ? "" : c.jobProperty().get()), c.jobProperty()));
        Label subtitle = new Label(Text.t("ui.plan.subtitle"));
        subtitle.getStyleClass().add("page-subtitle");

        ComboBox<String> jobBox = new ComboBox<>(vm.jobs());
        jobBox.setId("plan-job");
        jobBox.setPromptText(Text.t("ui.plan.job"));
        jobBox.valueProperty().bindBidirectional(c.jobProperty());
        jobBox.setPrefWidth(180);

        ToggleGroup group = new ToggleGroup();
        HBox toggles = new HBox();
        Map<PlanChoice.Target, ToggleButton> buttons = new EnumMap<>(PlanChoice.Target.class);
        PlanChoice.Target[] all = PlanChoice.Target.values();
        for (int i = 0; i < all.length; i++) {
            PlanChoice.Target t = all[i];
            ToggleButton b = new ToggleButton(t.label());
            b.setId("target-" + t.name().toLowerCase(java.util.Locale.ROOT));
            b.setUserData(t);
            b.setToggleGroup(group);
            b.getStyleClass().add(i == 0 ? Styles.LEFT_PILL : i == all.length - 1 ? Styles.RIGHT_PILL : Styles.CENTER_PILL);
            b.setFocusTraversable(true);
            b.setMinWidth(Region.USE_PREF_SIZE); // the inputs beside them shrink first (at 1024 they read "To…")
            buttons.put(t, b);
            toggles.getChildren().add(b);
        }
        buttons.get(PlanChoice.Target.TODAY).disableProperty().bind(c.manualKeysProperty());
        buttons.get(PlanChoice.Target.RANGE).disableProperty().bind(c.manualKeysProperty());
        buttons.get(c.targetProperty().get()).setSelected(true);
        group.selectedToggleProperty().addListener((o, a, b) -> {
            if (b == null) {
                a.setSelected(true); // one is always chosen
            } else {
                c.targetProperty().set((PlanChoice.Target) b.getUserData());
            }
        });
        c.targetProperty().addListener((o, a, b) -> buttons.get(b).setSelected(true));

        // each target has its own input, looked up by the target (not by position)
        TextField from = Widgets.field(c.fromProperty(), Text.t("ui.plan.fromPrompt"));
        from.setId("plan-from");
        TextField to = Widgets.field(c.toProperty(), Text.t("ui.plan.toPrompt"));
        to.setId("plan-to");
        for (TextField f : new TextField[] {from, to}) {
            f.setPrefColumnCount(12);
            f.setMinWidth(90);
        }
        HBox range = new HBox(6, from, new Label("–"), to);
        range.setAlignment(Pos.CENTER_LEFT);
        TextField keys = Widgets.field(c.keysTextProperty(), Text.t("ui.plan.keysPrompt"));
        keys.setId("plan-keys");
        HBox.setHgrow(keys, Priority.ALWAYS);
        Label due = new Label(Text.t("ui.plan.dueText"));
        due.setId("plan-due-text");
        due.getStyleClass().add("muted");
        Label today = new Label(Text.t("ui.plan.todayText"));
        today.setId("plan-today-text");
        today.getStyleClass().add("muted");
        Map<PlanChoice.Target, Region> inputs = new EnumMap<>(PlanChoice.Target.class);
        inputs.put(PlanChoice.Target.TODAY, today);
        inputs.put(PlanChoice.Target.RANGE, range);
        inputs.put(PlanChoice.Target.DUE, due);
        inputs.put(PlanChoice.Target.KEYS, keys);
        HBox choiceBox = new HBox(today, range, keys, due);
        choiceBox.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(choiceBox, Priority.ALWAYS);
        showOnly(c.targetProperty().get(), inputs);
        c.targetProperty().addListener((o, a, b) -> showOnly(b, inputs));

        CheckBox ahead = new CheckBox(Text.t("ui.plan.ahead"));
        ahead.setId("plan-ahead");
        ahead.selectedProperty().bindBidirectional(c.aheadProperty());
        ahead.setTooltip(new Tooltip(Text.t("ui.plan.aheadTip")));
        ahead.setMinWidth(Region.USE_PREF_SIZE);

        Button plan = Widgets.button("plan-run", Text.t("ui.plan.plan"), e -> vm.plan(), Styles.ACCENT);
        plan.disableProperty().bind(vm.busyProperty().or(c.validationProperty().isNotEmpty())
                .or(c.jobProperty().isNull()));
        for (TextField f : new TextField[] {from, to, keys}) {
            f.setOnAction(e -> {
                if (!plan.isDisabled()) {
                    vm.plan();
                }
            });
        }
        ProgressIndicator spinner = Widgets.spinner(vm.busyProperty());

        toggles.setMinWidth(Region.USE_PREF_SIZE);
        jobBox.setMinWidth(120);
        choiceBox.setMinWidth(0);
        HBox selector = new HBox(10, jobBox, toggles, choiceBox, ahead, spinner, plan);
        selector.setAlignment(Pos.CENTER_LEFT);
        selector.getStyleClass().add("plan-selector");

        Label validation = Widgets.line(c.validationProperty(), "error-text", "inline-validation");
        validation.setId("plan-validation");
        Label error = Widgets.line(vm.errorProperty(), "error-text");
        Label paused = new Label();
        paused.getStyleClass().add("paused-banner");
        paused.setMaxWidth(Double.MAX_VALUE);
        paused.textProperty().bind(vm.pausedProperty());
        Widgets.collapseWhenEmpty(paused);
        Label later = Widgets.line(vm.notYetDueProperty(), "paused-banner");
        later.setId("plan-not-yet-due");
        later.setMaxWidth(Double.MAX_VALUE);

        // Due plans the catch-up window only: older days that never ran are "missing", planned on their own
        Label missingNote = new Label();
        missingNote.setId("plan-missing-note");
        missingNote.setWrapText(true);
        missingNote.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(missingNote, Priority.ALWAYS);
        Button planMissing = Widgets.button("plan-missing-keys", "", e -> vm.planKeys(List.copyOf(vm.missingNotDue())));
        HBox missingBox = new HBox(10, missingNote, planMissing);
        missingBox.setAlignment(Pos.CENTER_LEFT);
        missingBox.getStyleClass().add("paused-banner");
        vm.missingNotDue().addListener((javafx.collections.ListChangeListener<String>) ch -> {
            List<String> m = vm.missingNotDue();
            missingBox.setVisible(!m.isEmpty());
            missingBox.setManaged(!m.isEmpty());
            if (!m.isEmpty()) {
                missingNote.setText(Text.t("ui.plan.missingNote", m.size(),
                        m.get(0) + (m.size() == 1 ? "" : " … " + m.get(m.size() - 1))));
                planMissing.setText(Text.t("ui.plan.planMissing", m.size()));
            }
        });
        missingBox.setVisible(false);
        missingBox.setManaged(false);

        return new VBox(8, new VBox(2, title, subtitle), selector, validation, error, paused, later, missingBox);
    }

    private static void showOnly(PlanChoice.Target t, Map<PlanChoice.Target, Region> inputs) {
        inputs.forEach((target, input) -> {
            input.setVisible(target == t);
            input.setManaged(target == t);
        });
    }

    // ---------------------------------------------------------------- body: keys and requests

    private SplitPane body() {
        TableView<PlanViewModel.Row> table = new TableView<>(vm.rows());
        table.setId("plan-table");
        table.getStyleClass().addAll("plan-keys", Styles.DENSE);
        table.setFixedCellSize(ROW_HEIGHT);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        Label placeholder = new Label();
        placeholder.textProperty().bind(vm.planProperty().map(p -> Text.t("ui.plan.noKeys"))
                .orElse(Text.t("ui.plan.chooseKeys")));
        table.setPlaceholder(placeholder);

        TableColumn<PlanViewModel.Row, String> key = new TableColumn<>(Text.t("ui.plan.col.key"));
        key.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().key()));
        key.setPrefWidth(110);
        key.setMinWidth(100);
        key.setSortable(false);
        // after Apply: the state the key ended in
        TableColumn<PlanViewModel.Row, PlanViewModel.Row> state = wholeRow(Text.t("ui.plan.col.state"),
                () -> StateChip.cell(r -> r.after() != null ? r.after().state() : r.plan().state()));
        state.setPrefWidth(150);
        state.setMinWidth(140);
        TableColumn<PlanViewModel.Row, PlanViewModel.Row> action = wholeRow(Text.t("ui.plan.col.action"), () -> new TableCell<>() {
            @Override
            protected void updateItem(PlanViewModel.Row item, boolean empty) {
                super.updateItem(item, empty);
                getStyleClass().removeAll("action-run", "action-quiet", "action-blocked");
                if (empty || item == null) {
                    setText(null);
                    setTooltip(null);
                } else {
                    String text = PlanViewModel.actionText(item);
                    setText(text);
                    getStyleClass().add(actionStyle(item.plan()));
                    setTooltip(new Tooltip(text));
                }
            }
        });
        table.getColumns().setAll(java.util.List.of(key, state, action));
        table.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b != null) {
                vm.selectedProperty().set(b);
            }
        });
        vm.selectedProperty().addListener((o, a, b) -> {
            if (b != null && table.getSelectionModel().getSelectedItem() != b) {
                table.getSelectionModel().select(b);
                table.scrollTo(b);
            }
        });

        Label detailTitle = new Label(Text.t("ui.plan.requests"));
        detailTitle.getStyleClass().add(Styles.TEXT_BOLD);
        TextArea detail = new TextArea();
        detail.setEditable(false);
        detail.setWrapText(true);
        detail.getStyleClass().addAll("code", "plan-detail");
        detail.textProperty().bind(vm.detailProperty());
        VBox.setVgrow(detail, Priority.ALWAYS);
        Label masked = new Label(Text.t("ui.plan.masked"));
        masked.getStyleClass().addAll("muted", Styles.TEXT_SMALL);
        VBox right = new VBox(6, detailTitle, detail, masked);
        right.setPadding(new Insets(0, 0, 0, 10));

        SplitPane split = new SplitPane(table, right);
        split.setOrientation(Orientation.HORIZONTAL);
        split.setDividerPositions(0.52);
        return split;
    }

    /** A column whose cells get the whole row and draw it themselves. */
    private static TableColumn<PlanViewModel.Row, PlanViewModel.Row> wholeRow(
            String title, java.util.function.Supplier<TableCell<PlanViewModel.Row, PlanViewModel.Row>> cell) {
        TableColumn<PlanViewModel.Row, PlanViewModel.Row> c = new TableColumn<>(title);
        c.setCellValueFactory(d -> new javafx.beans.property.ReadOnlyObjectWrapper<>(d.getValue()));
        c.setCellFactory(x -> cell.get());
        c.setSortable(false);
        return c;
    }

    static String actionStyle(Plan.KeyPlan k) {
        if (k.runs()) {
            return "action-run";
        }
        return k.blocked() ? "action-blocked" : "action-quiet";
    }

    // ---------------------------------------------------------------- footer: summary, id, apply

    private VBox footer() {
        Label summary = new Label();
        summary.getStyleClass().add("plan-summary");
        summary.setWrapText(true);
        summary.textProperty().bind(vm.summaryTextProperty());

        Label idLabel = new Label();
        idLabel.getStyleClass().addAll("code", "plan-id");
        idLabel.textProperty().bind(Bindings.when(vm.planIdProperty().isEmpty()).then("")
                .otherwise(Bindings.createStringBinding(() -> Text.t("ui.plan.id", vm.planIdProperty().get()),
                        vm.planIdProperty())));
        idLabel.setTooltip(new Tooltip(Text.t("ui.plan.idTip")));
        idLabel.setOnMouseClicked(e -> {
            if (!vm.planIdProperty().get().isEmpty()) {
                Widgets.copy(vm.planIdProperty().get());
            }
        });

        Label outcome = new Label();
        outcome.setWrapText(true);
        outcome.getStyleClass().add("plan-outcome");
        outcome.textProperty().bind(vm.outcomeProperty());
        vm.staleProperty().addListener((o, a, b) -> toggle(outcome, "error-text", b));
        vm.exitCodeProperty().addListener((o, a, b) -> {
            toggle(outcome, "ok-text", b.intValue() == 0);
            toggle(outcome, "warning-text", b.intValue() > 0);
        });
        Widgets.collapseWhenEmpty(outcome);

        Button replan = new Button(Text.t("ui.plan.replan"));
        replan.getStyleClass().add(Styles.ACCENT);
        Widgets.shownWhen(replan, vm.staleProperty());
        replan.disableProperty().bind(vm.busyProperty());
        replan.setOnAction(e -> vm.replan());

        Button apply = new Button(Text.t("ui.plan.apply"));
        apply.getStyleClass().add(Styles.SUCCESS);
        apply.disableProperty().bind(vm.canApplyProperty().not());
        apply.setOnAction(e -> vm.apply());
        apply.setTooltip(new Tooltip(Text.t("ui.plan.applyTip")));

        HBox buttons = Widgets.bar(idLabel, replan, apply, Widgets.closeButton(root));
        root.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.F5) {
                vm.plan();
                e.consume();
            }
        });
        return new VBox(8, summary, outcome, buttons);
    }

    private static void toggle(Label l, String style, boolean on) {
        l.getStyleClass().remove(style);
        if (on) {
            l.getStyleClass().add(style);
        }
    }

    /** The view model (the main window may pre-set the job and keys before showing). */
    public PlanViewModel viewModel() {
        return vm;
    }
}
