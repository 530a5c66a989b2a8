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
    /** Row height when a planned action wraps to a second line in its cell. */
    static final double ROW_HEIGHT_TWO_LINES = 46;
    /** A table cell's padding around its text, and the room of the table's scroll bar and borders. */
    private static final double CELL_PADDING = 20;
    private static final double TABLE_CHROME = 20;
    /** The requests of the selected key keep at least this width beside the table (their lines wrap). */
    private static final double DETAIL_MIN = 300;
    /** Room of the requests pane around its text: its padding, the area's borders and insets, a scroll bar. */
    private static final double DETAIL_CHROME = 50;
    /** Height of the key table's part when the requests are under it. */
    private static final double TABLE_SHARE_STACKED = 0.45;
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
     * when given (the heatmap's gaps, the inbox's missing keys), else of the current key, or of every due key
     * when the job waits for its review ({@link PlanViewModel#planOnOpen}).
     */
    public static void show(Window owner, ConsoleServices s, Threads t, String job, List<String> keys,
                            Runnable onChanged) {
        PlanViewModel vm = new PlanViewModel(s, t);
        PlanDialog dialog = new PlanDialog(vm, onChanged);
        // no larger than the window it opens over: at 1024×680 it covers the console, it does not hang past it
        double width = owner != null && owner.getWidth() > 0 ? Math.min(1080, owner.getWidth()) : 1080;
        double height = owner != null && owner.getHeight() > 0 ? Math.min(700, owner.getHeight()) : 700;
        Stage stage = Theme.dialog(owner, dialog.root(), width, height, 720, 480);
        stage.setTitle(Text.t("ui.plan.windowTitle", job == null ? "" : job));
        vm.choice().jobProperty().addListener((o, a, b) -> stage.setTitle(Text.t("ui.plan.windowTitle", b == null ? "" : b)));
        vm.loadJobs();
        if (job != null) {
            vm.choice().jobProperty().set(job);
            if (keys != null && !keys.isEmpty()) {
                vm.planKeys(keys);
            } else {
                vm.planOnOpen();
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
        // as wide as the longest job name, within reason (the toolbar's other controls keep their words)
        vm.jobs().addListener((javafx.collections.ListChangeListener<String>) ch -> jobBox.setPrefWidth(
                Math.min(320, Math.max(180, Widgets.textWidth(vm.jobs(), text()) + 48))));

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
            fitPrompt(f);
        }
        HBox range = new HBox(6, from, new Label("–"), to);
        range.setAlignment(Pos.CENTER_LEFT);
        TextField keys = Widgets.field(c.keysTextProperty(), Text.t("ui.plan.keysPrompt"));
        keys.setId("plan-keys");
        keys.setMinWidth(Region.USE_PREF_SIZE);
        fitPrompt(keys);
        HBox.setHgrow(keys, Priority.ALWAYS);
        keys.setMaxWidth(Double.MAX_VALUE);
        Label due = new Label(Text.t("ui.plan.dueText"));
        due.setId("plan-due-text");
        due.getStyleClass().add("muted");
        due.setWrapText(true);
        Label today = new Label(Text.t("ui.plan.todayText"));
        today.setId("plan-today-text");
        today.getStyleClass().add("muted");
        today.setWrapText(true);
        Map<PlanChoice.Target, Region> inputs = new EnumMap<>(PlanChoice.Target.class);
        inputs.put(PlanChoice.Target.TODAY, today);
        inputs.put(PlanChoice.Target.RANGE, range);
        inputs.put(PlanChoice.Target.DUE, due);
        inputs.put(PlanChoice.Target.KEYS, keys);
        HBox choiceBox = new HBox(today, range, keys, due);
        choiceBox.setId("plan-target-input");
        choiceBox.setAlignment(Pos.CENTER_LEFT);
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
        plan.setMinWidth(Region.USE_PREF_SIZE);
        // two rows: what to plan (job, target, ahead, Plan), then the chosen target's own input at the whole width,
        // so that an input shows its whole hint at 1024 px in either language
        HBox selector = new HBox(10, jobBox, toggles, Widgets.grow(), ahead, spinner, plan);
        selector.setAlignment(Pos.CENTER_LEFT);
        selector.getStyleClass().add("plan-selector");
        VBox choose = new VBox(8, selector, choiceBox);

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

        return new VBox(8, new VBox(2, title, subtitle), choose, validation, error, paused, later, missingBox);
    }

    /** {@code f} is as wide as its whole hint (in the font CSS gave it), and never narrower. */
    private static void fitPrompt(TextField f) {
        f.prefWidthProperty().bind(Bindings.createDoubleBinding(() -> Widgets.textWidth(List.of(f.getPromptText()),
                f.getFont()) + f.getInsets().getLeft() + f.getInsets().getRight() + 4,
                f.promptTextProperty(), f.fontProperty(), f.insetsProperty()));
        f.setMinWidth(Region.USE_PREF_SIZE);
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
        key.setSortable(false);
        // after Apply: the state the key ended in
        TableColumn<PlanViewModel.Row, PlanViewModel.Row> state = wholeRow(Text.t("ui.plan.col.state"),
                () -> StateChip.cell(PlanViewModel.Row::state, PlanViewModel.Row::waitReason));
        // a chip of the widest state, whatever the language; no wider, the planned action takes the rest
        Widgets.fix(state, Math.max(io.keyline.ui.common.Cut.titleWidth(state.getText()), StateChip.widest() + CELL_PADDING));
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
                    setWrapText(true); // a row is high enough for two lines when an action needs them
                    getStyleClass().add(actionStyle(item.plan()));
                    setTooltip(new Tooltip(text));
                }
            }
        });
        action.setMinWidth(io.keyline.ui.common.Cut.titleWidth(action.getText()));
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
        masked.setWrapText(true);
        masked.setMinHeight(Region.USE_PREF_SIZE);
        VBox right = new VBox(6, detailTitle, detail, masked);
        right.setPadding(new Insets(0, 0, 0, 10));

        SplitPane split = new SplitPane(table, right);
        split.setOrientation(Orientation.HORIZONTAL);
        split.setDividerPositions(0.52);
        // the table keeps its size when the pane grows or shrinks (the outcome's line after Apply): the requests give
        SplitPane.setResizableWithParent(table, false);
        // The columns take what their texts need, the key's and the planned actions' (with room for what a key comes
        // to after Apply, so that Apply moves nothing), and the table as much of the width as that needs. The
        // requests keep beside it the width of their request lines ("POST http://…" is never broken inside its
        // URL); where both do not fit side by side, the requests go under the table, both at the whole width.
        Runnable fit = () -> {
            Widgets.fix(key, Math.max(io.keyline.ui.common.Cut.titleWidth(key.getText()),
                    Widgets.textWidth(vm.rows().stream().map(PlanViewModel.Row::key).distinct().toList(), text())
                            + CELL_PADDING));
            double actions = Math.max(action.getMinWidth(), Widgets.textWidth(vm.rows().stream()
                    .map(r -> PlanViewModel.actionText(new PlanViewModel.Row(r.plan(), null))).distinct().toList(),
                    text())
                    + afterWidth() + CELL_PADDING);
            double width = split.getWidth();
            if (width <= 0) {
                return;
            }
            double needs = key.getPrefWidth() + state.getPrefWidth() + actions + TABLE_CHROME;
            double requests = Math.max(DETAIL_MIN, Widgets.textWidth(vm.rows().stream()
                    .flatMap(r -> r.plan().requests().stream()).map(q -> q.method() + " " + q.url()).distinct()
                    .toList(), detail.getFont()) + DETAIL_CHROME);
            boolean beside = needs + requests <= width;
            split.setOrientation(beside ? Orientation.HORIZONTAL : Orientation.VERTICAL);
            right.setPadding(beside ? new Insets(0, 0, 0, 10) : new Insets(10, 0, 0, 0));
            double columns = beside ? needs : width;
            // an action wider than its column wraps in its cell, on rows of two lines
            table.setFixedCellSize(columns < needs - 0.5 ? ROW_HEIGHT_TWO_LINES : ROW_HEIGHT);
            split.setDividerPositions(beside ? Math.max(0.4, Math.min(needs, width - requests) / width)
                    : TABLE_SHARE_STACKED);
        };
        // a new plan fits the pane; Apply's results (each key's "→ done") fit the room left for them, and the
        // divider stays where it is (where the operator may have put it). While a plan is made again its table is
        // empty for a moment, which keeps the layout it has: fitted to no rows, the table shrank beside the requests,
        // and its last column stayed that narrow when it grew back

        vm.rows().addListener((javafx.collections.ListChangeListener<PlanViewModel.Row>) ch -> {
            if (!vm.appliedProperty().get() && !vm.rows().isEmpty()) {
                fit.run();
            }
        });
        split.widthProperty().addListener((o, a, b) -> fit.run());
        return split;
    }

    /** The widest of what a planned action says after Apply ("  →  done", "  →  failed", …). */
    private static double afterWidth() {
        return Widgets.textWidth(java.util.Arrays.stream(io.keyline.domain.KeyState.values())
                .map(PlanViewModel::afterText).toList(), text());
    }

    /** The font of the table's cells and inputs: the console's 13 px, in the face of the language in use. */
    private static javafx.scene.text.Font text() {
        return io.keyline.ui.common.Fonts.text(13);
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

        Button apply = Widgets.button("plan-apply", Text.t("ui.plan.apply"), e -> vm.apply(), Styles.SUCCESS);
        apply.disableProperty().bind(vm.canApplyProperty().not());
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
}
