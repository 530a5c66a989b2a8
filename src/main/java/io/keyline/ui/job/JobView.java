package io.keyline.ui.job;

import atlantafx.base.theme.Styles;
import io.keyline.core.operations.Words;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.WaitReason;
import io.keyline.domain.OperatorMoves;
import io.keyline.domain.Trigger;
import io.keyline.text.Text;
import io.keyline.ui.Navigator;
import io.keyline.ui.common.Cut;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.NoteDialog;
import io.keyline.ui.common.Palette;
import io.keyline.ui.common.StateChip;
import io.keyline.ui.common.Tips;
import io.keyline.ui.common.Widgets;
import javafx.animation.PauseTransition;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.DatePicker;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.ContextMenuEvent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.shape.Rectangle;
import javafx.util.Duration;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;

/**
 * A job: kill switch, calendar heatmap with the count of missing keys beside it (select gaps to plan
 * exactly those), and a key table filtered and paged in SQL where done keys show when they finished,
 * how long they took and what they came to; everything updates live.
 */
public final class JobView extends BorderPane {

    /** A table cell's padding and a margin, beside its text. */
    private static final double CELL_PADDING = 20;

    private final JobViewModel vm;
    private final Navigator nav;
    private final TableView<JobViewModel.KeyRow> table = new TableView<>();
    /** Whether the highlighted key is to be brought into view once the rows a reload changed are laid out. */
    private boolean scrollPending;
    /** The menu the keyboard opened last (one at a time). */
    private ContextMenu keyMenu;
    /** The key menus open now (by the keyboard or a right click), each with the row it was made for. */
    private final java.util.Map<ContextMenu, JobViewModel.KeyRow> openMenus = new java.util.HashMap<>();
    private final TextField search = new TextField();
    private final Heatmap heatmap = new Heatmap();
    /** The key table's widths: Outcome takes what the others leave. */
    private final OutcomeTakesTheRest widths = new OutcomeTakesTheRest();

    public JobView(JobViewModel vm, Navigator nav) {
        this.vm = vm;
        this.nav = nav;
        vm.setRetryShow(nav::showRetry);
        setId("job-view");
        setPadding(new Insets(20, 24, 12, 24));

        Label title = new Label();
        title.getStyleClass().add("page-title");
        Label subtitle = new Label();
        subtitle.getStyleClass().add("page-subtitle");
        vm.definitionProperty().addListener((o, a, d) -> {
            title.setText(d == null ? "" : d.name());
            subtitle.setText(d == null ? "" : describe(d));
        });
        Button plan = new Button(Text.t("ui.job.plan"));
        plan.setId("plan-button");
        plan.setOnAction(e -> nav.plan(vm.definitionProperty().get().name()));
        Button pause = new Button();
        pause.setId("pause-button");
        pause.textProperty().bind(Bindings.when(vm.pausedProperty()).then(Text.t("ui.job.resume")).otherwise(Text.t("ui.job.pause")));
        pause.setOnAction(e -> {
            if (vm.pausedProperty().get()) {
                vm.resume();
            } else {
                askPause();
            }
        });
        subtitle.setWrapText(true);
        plan.setMinWidth(Region.USE_PREF_SIZE);
        pause.setMinWidth(Region.USE_PREF_SIZE);
        VBox titles = new VBox(2, title, subtitle);
        titles.setMinWidth(0);
        HBox.setHgrow(titles, Priority.ALWAYS);
        HBox titleRow = new HBox(12, titles, plan, pause);
        titleRow.setAlignment(Pos.TOP_LEFT);

        Label pauseText = new Label();
        pauseText.textProperty().bind(vm.pauseTextProperty());
        HBox banner = new HBox(8, pauseIcon(), pauseText);
        banner.setAlignment(Pos.CENTER_LEFT);
        banner.getStyleClass().add("paused-banner");
        banner.setId("paused-banner");
        Widgets.shownWhen(banner, vm.pausedProperty());

        Label reviewText = new Label();
        reviewText.setWrapText(true);
        reviewText.textProperty().bind(vm.reviewTextProperty());
        Button reviewPlan = Widgets.button("review-plan-button", Text.t("ui.job.plan"),
                e -> nav.plan(vm.definitionProperty().get().name()));
        HBox review = new HBox(8, reviewText, reviewPlan);
        review.setAlignment(Pos.CENTER_LEFT);
        review.getStyleClass().add("paused-banner");
        review.setId("review-banner");
        Widgets.shownWhen(review, vm.reviewTextProperty().isNotEmpty());

        // a rule of the job file that would take an ended login for something else: said where the job is run
        Label fileWarnings = Widgets.line(vm.fileWarningsProperty(), "paused-banner", "job-file-warnings");
        fileWarnings.setId("job-file-warnings");
        fileWarnings.setMaxWidth(Double.MAX_VALUE);

        Label notice = Widgets.line(vm.noticeProperty(), "inbox-notice");
        notice.setId("job-notice");

        VBox top = new VBox(12, titleRow, banner, review, fileWarnings, calendarRow(), notice);
        top.setPadding(new Insets(0, 0, 12, 0));
        setTop(top);
        setCenter(tableSection());
    }

    private static String describe(JobDefinition d) {
        String keys = d.key().start() == null ? Text.t("ui.job.keys." + d.key().type().name())
                : Text.t("ui.job.keysFrom." + d.key().type().name(), d.key().start().toString());
        return (d.description().isEmpty() ? "" : d.description() + "  ·  ") + keys
                + "  ·  " + (d.schedule() == null ? Text.t("ui.jobs.noSchedule")
                : Words.schedule(d.schedule().text(), d.key().zone()))
                + "  ·  " + Text.t("ui.job.steps", d.steps().size(), String.join("\u00a0→\u00a0", d.steps().stream().map(s -> s.id()).toList()));
    }

    /**
     * The heatmap (sized to the space) with the missing-key count, its plan button and the legend: beside a
     * calendar of days, under a one-row calendar of weeks or months (its 52 or 24 cells need the page's width).
     */
    private BorderPane calendarRow() {
        heatmap.setId("heatmap");
        heatmap.viewProperty().bind(vm.calendarProperty());
        heatmap.onPick(key -> search.setText(key));
        heatmap.onPlanGaps(keys -> nav.plan(vm.definitionProperty().get().name(), keys));
        HBox.setHgrow(heatmap, Priority.ALWAYS);
        heatmap.setMaxWidth(Double.MAX_VALUE);
        // on a short page the calendar gives way to the keys: at most a third of the page's height
        heatmap.maxHeightProperty().bind(heightProperty().divide(3));

        Label missing = new Label();
        missing.setId("missing-count");
        missing.getStyleClass().add("missing-count");
        missing.setWrapText(true);
        Label missingHint = new Label(Text.t("ui.job.missingHint"));
        missingHint.getStyleClass().add("muted");
        missingHint.setWrapText(true);
        Button planMissing = new Button();
        planMissing.setId("plan-missing");
        planMissing.getStyleClass().add(Styles.ACCENT);
        planMissing.setOnAction(e -> nav.plan(vm.definitionProperty().get().name(),
                vm.calendarProperty().get().missing()));
        Label ahead = new Label();
        ahead.setId("ahead-count");
        ahead.getStyleClass().add("muted");
        ahead.setWrapText(true);
        VBox missingBox = new VBox(6, missing, missingHint, planMissing);
        vm.calendarProperty().addListener((o, a, c) -> {
            int n = c.missing().size();
            missing.setText(n == 0 ? Text.t("ui.job.noMissing") : Text.t("ui.job.missing." + c.type().name(), n));
            missing.getStyleClass().remove("none");
            if (n == 0) {
                missing.getStyleClass().add("none");
            }
            missingHint.setVisible(n > 0);
            missingHint.setManaged(n > 0);
            planMissing.setText(Text.t("ui.job.planMissing", n));
            planMissing.setVisible(n > 0);
            planMissing.setManaged(n > 0);
            ahead.setText(c.ahead().isEmpty() ? "" : Text.t("ui.job.ahead", c.ahead().size(),
                    String.join(Text.t("common.listSeparator"), c.ahead().subList(0, Math.min(3, c.ahead().size())))
                    + (c.ahead().size() > 3 ? " …" : "")));
            ahead.setVisible(!c.ahead().isEmpty());
            ahead.setManaged(!c.ahead().isEmpty());
        });
        FlowPane legend = legend();
        BorderPane row = new BorderPane(heatmap);
        Runnable arrange = () -> {
            boolean days = vm.calendarProperty().get().type() == io.keyline.domain.KeyType.DATE;
            if (days) {
                // wide enough that the legend keeps to a few lines: a side taller than the calendar pushes the keys down
                legend.setPrefWrapLength(300);
                VBox side = new VBox(12, missingBox, ahead, legend);
                side.getStyleClass().add("calendar-side");
                side.setPrefWidth(300);
                side.setMinWidth(200);
                side.setMaxWidth(320);
                BorderPane.setMargin(side, new Insets(0, 0, 0, 16));
                row.setBottom(null);
                row.setRight(side);
            } else {
                legend.setPrefWrapLength(420);
                missingBox.setMaxWidth(320);
                HBox under = new HBox(24, missingBox, ahead, legend);
                under.getStyleClass().add("calendar-side");
                HBox.setHgrow(legend, Priority.ALWAYS);
                BorderPane.setMargin(under, new Insets(8, 0, 0, 0));
                row.setRight(null);
                row.setBottom(under);
            }
        };
        vm.calendarProperty().addListener((o, a, c) -> arrange.run());
        arrange.run();
        return Widgets.shownWhen(row, Bindings.createBooleanBinding(() -> !vm.calendarProperty().get().cells().isEmpty(),
                vm.calendarProperty()));
    }

    /** The pause sign, drawn (a glyph is an empty box in fonts without it, CJK fonts among them). */
    static HBox pauseIcon() {
        HBox icon = new HBox(3);
        icon.setId("pause-icon");
        icon.setAlignment(Pos.CENTER);
        icon.setMinWidth(Region.USE_PREF_SIZE);
        for (int i = 0; i < 2; i++) {
            Rectangle bar = new Rectangle(4, 12, Palette.named("-kl-retry"));
            bar.setArcWidth(1.5);
            bar.setArcHeight(1.5);
            Palette.darkProperty().addListener((o, a, b) -> bar.setFill(Palette.named("-kl-retry")));
            icon.getChildren().add(bar);
        }
        return icon;
    }

    private FlowPane legend() {
        FlowPane box = new FlowPane(10, 4);
        box.setId("heatmap-legend");
        // every colour a cell can wear: a wait for the job's review has its own, and so do the pending keys
        box.getChildren().addAll(legendEntry(KeyState.DONE, null), legendEntry(KeyState.FAILED, null),
                legendEntry(KeyState.NEEDS_CONFIRMATION, null), legendEntry(KeyState.NEEDS_CONFIRMATION,
                        WaitReason.REVIEW), legendEntry(KeyState.NEEDS_CREDENTIAL, null),
                legendEntry(KeyState.RETRY_WAIT, null), legendEntry(KeyState.RUNNING, null),
                legendEntry(KeyState.PENDING, null), legendEntry(KeyState.SKIPPED, null));
        Rectangle gap = new Rectangle(10, 10, Palette.gap());
        gap.setStroke(Palette.missing());
        gap.getStrokeDashArray().addAll(3.0, 2.0);
        Palette.darkProperty().addListener((o, a, b) -> {
            gap.setFill(Palette.gap());
            gap.setStroke(Palette.missing());
        });
        box.getChildren().add(legendLabel(Format.chipMissing(), Text.t("ui.chip.missingInFull"), gap));
        return box;
    }

    /** The legend's swatch and words of a state and why it waits: the chip's words, the state in full on hover. */
    private static Label legendEntry(KeyState s, WaitReason why) {
        Rectangle r = new Rectangle(10, 10, Palette.of(s, why));
        r.setArcWidth(3);
        r.setArcHeight(3);
        Palette.darkProperty().addListener((o, a, b) -> r.setFill(Palette.of(s, why)));
        return legendLabel(Format.chip(s, why), Format.state(s, why), r);
    }

    /**
     * A legend entry: {@code word} as the chips say it, beside {@code swatch}; {@code full} in its accessible text
     * and, where it says more, its tooltip.
     */
    private static Label legendLabel(String word, String full, Node swatch) {
        Label l = new Label(word, swatch);
        l.getStyleClass().add("muted");
        l.setMinWidth(Region.USE_PREF_SIZE);
        l.setAccessibleText(full);
        if (!full.equals(word)) {
            Tips.on(l, full);
        }
        return l;
    }

    private VBox tableSection() {
        ComboBox<JobViewModel.Filter> filter = new ComboBox<>();
        filter.setId("state-filter");
        filter.getItems().setAll(JobViewModel.filters());
        filter.valueProperty().bindBidirectional(vm.filterProperty());
        // as wide as its widest entry in the language in use, whichever is chosen: the search field beside it stays
        javafx.scene.control.ListCell<JobViewModel.Filter> chosen = new FilterCell();
        filter.setCellFactory(l -> new FilterCell());
        chosen.prefWidthProperty().bind(Bindings.createDoubleBinding(() -> Widgets.textWidth(filter.getItems().stream()
                        .map(JobViewModel.Filter::label).toList(), chosen.getFont()) + chosen.snappedLeftInset()
                        + chosen.snappedRightInset() + 1, chosen.fontProperty(), chosen.insetsProperty()));
        filter.setButtonCell(chosen);
        filter.setMinWidth(Region.USE_PREF_SIZE);
        filter.setMaxWidth(Region.USE_PREF_SIZE);
        search.setId("key-search");
        search.setPromptText(Text.t("ui.job.search"));
        search.setPrefColumnCount(24);
        search.setMinWidth(120); // at 1024 px the search field gives way, the buttons keep their labels
        PauseTransition debounce = new PauseTransition(Duration.millis(250));
        search.textProperty().addListener((o, a, b) -> debounce.playFromStart());
        debounce.setOnFinished(e -> vm.searchProperty().set(search.getText()));

        Button prev = new Button("‹");
        Button next = new Button("›");
        prev.getStyleClass().add(Styles.FLAT);
        next.getStyleClass().add(Styles.FLAT);
        prev.setOnAction(e -> vm.pageProperty().set(Math.max(0, vm.pageProperty().get() - 1)));
        next.setOnAction(e -> vm.pageProperty().set(vm.pageProperty().get() + 1));
        prev.disableProperty().bind(vm.pageProperty().isEqualTo(0));
        next.disableProperty().bind(Bindings.createBooleanBinding(
                () -> (vm.pageProperty().get() + 1) * JobViewModel.PAGE_SIZE >= vm.totalProperty().get(),
                vm.pageProperty(), vm.totalProperty()));
        Label range = new Label();
        range.setId("page-range");
        range.setMinWidth(Region.USE_PREF_SIZE);
        range.getStyleClass().add("muted");
        range.textProperty().bind(Bindings.createStringBinding(() -> {
            int total = vm.totalProperty().get();
            if (total == 0) {
                return Text.t("ui.job.noKeys");
            }
            int from = vm.pageProperty().get() * JobViewModel.PAGE_SIZE + 1;
            int to = Math.min(total, from + JobViewModel.PAGE_SIZE - 1);
            return Text.t("ui.job.range", from, to, total);
        }, vm.pageProperty(), vm.totalProperty()));
        Button run = new Button(Text.t("ui.job.runSelected"));
        run.setId("run-selected");
        run.setMinWidth(Region.USE_PREF_SIZE);
        run.disableProperty().bind(Bindings.isEmpty(table.getSelectionModel().getSelectedItems()));
        run.setOnAction(e -> {
            List<String> keys = table.getSelectionModel().getSelectedItems().stream()
                    .filter(k -> !k.state().finished() && !k.state().needsAttention()).map(JobViewModel.KeyRow::key)
                    .toList();
            if (!keys.isEmpty()) {
                run.disableProperty().unbind();
                run.setDisable(true);
                vm.run(keys, this::askRun, () -> run.disableProperty().bind(Bindings.isEmpty(table.getSelectionModel().getSelectedItems())));
            }
        });
        HBox bar = new HBox(8, filter, search, Widgets.grow(), run, range, prev, next);
        bar.setAlignment(Pos.CENTER_LEFT);

        table.setId("key-table");
        // no fixed row height: the row of a key that waits for a person grows to its reason's lines (a page holds
        // at most PAGE_SIZE rows)
        table.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        table.setColumnResizePolicy(widths);
        table.setItems(vm.rows());
        Label noKeys = new Label();
        noKeys.textProperty().bind(vm.emptyTextProperty());
        noKeys.setWrapText(true);
        noKeys.setPadding(new Insets(0, 24, 0, 24));
        table.setPlaceholder(noKeys);
        TableColumn<JobViewModel.KeyRow, String> keyColumn = Cut.column(Text.t("ui.job.col.key"), 105,
                JobViewModel.KeyRow::key);
        TableColumn<JobViewModel.KeyRow, KeyRecord> state = new TableColumn<>(Text.t("ui.job.col.state"));
        state.setPrefWidth(Math.min(140, StateChip.widest() + CELL_PADDING));
        // the key's state and why it waits (a wait for the job's review wears its own chip), in the chip's short
        // words; sorted by state
        state.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().record()));
        state.setComparator(java.util.Comparator.comparing(KeyRecord::state));
        state.setCellFactory(c -> new ShortChipCell());
        TableColumn<JobViewModel.KeyRow, String> stepColumn = Cut.column(Text.t("ui.job.col.step"), 90,
                JobView::step);
        TableColumn<JobViewModel.KeyRow, String> whenColumn = Cut.column(Text.t("ui.job.col.updated"), 110,
                JobViewModel.KeyRow::when);
        whenColumn.setCellFactory(c -> new InFullCell());
        TableColumn<JobViewModel.KeyRow, String> outcomeColumn = Cut.column(Text.t("ui.job.col.outcome"), 400,
                JobViewModel.KeyRow::said);
        outcomeColumn.setMinWidth(100);
        outcomeColumn.setCellFactory(c -> Cut.tip(new ReasonCell()));
        table.getColumns().addAll(List.of(keyColumn, state, stepColumn, whenColumn, outcomeColumn));
        // The outcome says why: it takes what the other columns leave, and they are as wide as what their rows show
        // (or their titles) needs, in the face the cells draw in, measured again whenever the rows change. A page
        // of keys being loaded again is empty for a moment, which keeps the widths the columns have.
        Runnable fit = () -> {
            if (vm.rows().isEmpty()) {
                return;
            }
            fitTo(keyColumn, vm.rows().stream().map(JobViewModel.KeyRow::key).toList());
            fit(state, Math.max(Cut.titleWidth(state.getText()), StateChip.widest(vm.rows().stream()
                    .map(r -> shortState(r.record())).distinct().toList()) + CELL_PADDING));
            fitTo(stepColumn, vm.rows().stream().map(JobView::step).toList());
            fitTo(whenColumn, vm.rows().stream().map(JobViewModel.KeyRow::when).toList());
            // a column's new width does not run the resize policy by itself: the outcome would not follow
            table.getColumnResizePolicy().call(new TableView.ResizeFeatures<>(table, null, 0.0));
        };
        vm.rows().addListener((ListChangeListener<JobViewModel.KeyRow>) c -> fit.run());
        // the highlighted keys are the view model's, by key: the operator's choice goes there, and a reload (heard
        // after the table's own selection, which drops a replaced row and keeps the row of a key that moved) gets it
        // back from there
        javafx.beans.InvalidationListener picked = o -> vm.highlight(highlightedKeys());
        table.getSelectionModel().getSelectedIndices().addListener(picked);
        table.getSelectionModel().selectedIndexProperty().addListener(picked);
        vm.rows().addListener((ListChangeListener<JobViewModel.KeyRow>) c -> keepHighlight());
        vm.rows().addListener((ListChangeListener<JobViewModel.KeyRow>) c -> closeStaleMenus());
        table.setRowFactory(tv -> row());
        // the Attention list's keys: J/K move down/up, Enter and T open the highlighted key's timeline (a key's
        // one action here, as a double-click)
        Runnable timeline = () -> {
            JobViewModel.KeyRow k = table.getSelectionModel().getSelectedItem();
            if (k != null) {
                showTimeline(k);
            }
        };
        io.keyline.ui.common.Keys.rows(table, () -> move(1), () -> move(-1), timeline, timeline);
        // the keyboard's menu key (or Shift+F10) opens the highlighted key's menu under its row
        table.addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.CONTEXT_MENU || e.getCode() == KeyCode.F10 && e.isShiftDown()) {
                showMenuOfHighlighted();
                e.consume();
            }
        });
        table.addEventHandler(ContextMenuEvent.CONTEXT_MENU_REQUESTED, e -> {
            if (e.isKeyboardTrigger()) {
                showMenuOfHighlighted();
                e.consume();
            }
        });
        table.getSelectionModel().getSelectedItems().addListener((ListChangeListener<JobViewModel.KeyRow>) c ->
                heatmap.select(table.getSelectionModel().getSelectedItems().stream().map(JobViewModel.KeyRow::key)
                        .toList()));
        VBox.setVgrow(table, Priority.ALWAYS);
        return new VBox(8, bar, table);
    }

    /**
     * After a reload: a key menu made for a key whose moves are not the same now (its state changed, or the key is
     * no longer on the page) closes, as its items would act on the key as it was; the others stay open.
     */
    private void closeStaleMenus() {
        java.util.Map<String, OperatorMoves> now = new java.util.HashMap<>();
        vm.rows().forEach(r -> now.put(r.key(), r.moves()));
        List.copyOf(openMenus.entrySet()).stream()
                .filter(e -> !e.getValue().moves().equals(now.get(e.getValue().key())))
                .forEach(e -> e.getKey().hide());
    }

    /** Highlights the key {@code by} rows down (up when negative), only that one. */
    private void move(int by) {
        if (table.getItems().isEmpty()) {
            return;
        }
        int to = Math.max(0, Math.min(table.getItems().size() - 1, table.getSelectionModel().getSelectedIndex() + by));
        table.getSelectionModel().clearAndSelect(to);
        table.scrollTo(Math.max(0, to - 3));
        // three rows whose reasons wrap can fill the view above the highlighted one: then it is scrolled up into view
        table.layout();
        bringIntoView(to);
    }

    /**
     * Scrolls the least that shows row {@code at} whole (a row off the view is brought in by the rows' estimated
     * heights, a second pass with it laid out shows it whole).
     */
    private void bringIntoView(int at) {
        if (table.lookup(".virtual-flow") instanceof javafx.scene.control.skin.VirtualFlow<?> flow) {
            for (int pass = 0; pass < 2; pass++) {
                flow.scrollTo(at);
                table.layout();
            }
        }
    }

    /** The highlighted keys, the one the keyboard acts on (the table's selected item) last. */
    private List<String> highlightedKeys() {
        JobViewModel.KeyRow lead = table.getSelectionModel().getSelectedItem();
        List<String> keys = new java.util.ArrayList<>(table.getSelectionModel().getSelectedItems().stream()
                .filter(r -> r != null && r != lead).map(JobViewModel.KeyRow::key).toList());
        if (lead != null) {
            keys.add(lead.key());
        }
        return keys;
    }

    /**
     * After the rows changed: the table highlights the keys the view model keeps, by key, wherever their rows are now,
     * the one the keyboard acts on last (J, K, T and Enter go from it); when its row was in view, it stays in view.
     */
    private void keepHighlight() {
        List<String> keys = vm.highlighted();
        boolean shown = !keys.isEmpty() && inView(keys.get(keys.size() - 1));
        java.util.Map<String, Integer> at = new java.util.HashMap<>();
        for (int i = 0; i < table.getItems().size(); i++) {
            at.put(table.getItems().get(i).key(), i);
        }
        var selection = table.getSelectionModel();
        selection.clearSelection();
        keys.stream().map(at::get).filter(java.util.Objects::nonNull).forEach(selection::select);
        if (shown && !scrollPending && selection.getSelectedIndex() >= 0) {
            // once the rows are laid out anew (the table hears the change after this)
            scrollPending = true;
            javafx.application.Platform.runLater(() -> {
                scrollPending = false;
                int lead = table.getSelectionModel().getSelectedIndex();
                if (lead >= 0) {
                    table.layout();
                    bringIntoView(lead);
                }
            });
        }
    }

    /** Whether the row that shows {@code key}, as the table last laid it out, is in the table's view (a part of it). */
    private boolean inView(String key) {
        javafx.scene.Node clip = table.lookup(".clipped-container");
        if (clip == null) {
            return false;
        }
        javafx.geometry.Bounds view = clip.localToScene(clip.getBoundsInLocal());
        for (javafx.scene.Node n : table.lookupAll(".table-row-cell")) {
            if (n instanceof TableRow<?> r && r.isVisible() && r.getItem() instanceof JobViewModel.KeyRow k
                    && k.key().equals(key)) {
                javafx.geometry.Bounds b = r.localToScene(r.getBoundsInLocal());
                return b.getMaxY() > view.getMinY() + 0.5 && b.getMinY() < view.getMaxY() - 0.5;
            }
        }
        return false;
    }

    private void showTimeline(JobViewModel.KeyRow k) {
        nav.showTimeline(k.record().job(), k.key());
    }

    /**
     * {@code c} is as wide as the widest of {@code texts} needs in the cells' face, or its title; no narrower, and no
     * wider unless the operator drags it wider ({@link OutcomeTakesTheRest}).
     */
    private void fitTo(TableColumn<JobViewModel.KeyRow, ?> c, List<String> texts) {
        fit(c, Math.max(Cut.titleWidth(c.getText()),
                Widgets.textWidth(texts, io.keyline.ui.common.Fonts.text(13)) + CELL_PADDING));
    }

    /** The step a key is at, with its attempt from the second on ("publish #2"). */
    private static String step(JobViewModel.KeyRow r) {
        return r.record().step() == null ? ""
                : r.record().step() + (r.record().attempts() > 1 ? " #" + r.record().attempts() : "");
    }

    /** A key's state as its chip says it ("Confirm" for "Needs confirmation"): the key table leaves its room to Outcome. */
    static String shortState(KeyRecord k) {
        return Format.chip(k.state(), k.waitReason());
    }

    /** A State cell: the chip of the key's state (its words, and the state in full on hover and read aloud). */
    private static final class ShortChipCell extends javafx.scene.control.TableCell<JobViewModel.KeyRow, KeyRecord> {
        private final StateChip chip = new StateChip();

        @Override
        protected void updateItem(KeyRecord item, boolean empty) {
            super.updateItem(item, empty);
            if (empty || item == null) {
                setGraphic(null);
                return;
            }
            chip.show(item.state(), item.waitReason());
            setGraphic(chip);
        }
    }

    /** A choice of the state filter: the chips' words, the state in full on hover and read aloud. */
    private static final class FilterCell extends javafx.scene.control.ListCell<JobViewModel.Filter> {
        FilterCell() {
            Tips.on(this, () -> getItem() == null || getItem().inFull().equals(getItem().label()) ? null
                    : getItem().inFull());
        }

        @Override
        protected void updateItem(JobViewModel.Filter item, boolean empty) {
            super.updateItem(item, empty);
            setText(empty || item == null ? null : item.label());
            setAccessibleText(empty || item == null ? null : item.inFull());
        }
    }

    /**
     * An Updated cell: its short words (a done key's time, a wait on two lines), and in its tooltip (made the first
     * time the pointer comes) and its accessible text the same in full ("12-04 20:12 (25 min ago)").
     */
    private static final class InFullCell extends javafx.scene.control.TableCell<JobViewModel.KeyRow, String> {
        InFullCell() {
            Tips.on(this, this::getAccessibleText);
        }

        @Override
        protected void updateItem(String item, boolean empty) {
            super.updateItem(item, empty);
            setText(empty ? null : item);
            List<JobViewModel.KeyRow> rows = getTableView() == null ? List.of() : getTableView().getItems();
            JobViewModel.KeyRow row = empty || getIndex() < 0 || getIndex() >= rows.size() ? null : rows.get(getIndex());
            setAccessibleText(empty ? null : row == null ? item : row.whenInFull());
        }
    }

    /**
     * {@code c} needs {@code width}: its least, and its width unless the operator dragged it to one of their own (a
     * column's width follows its preferred one as it is set).
     */
    private void fit(TableColumn<JobViewModel.KeyRow, ?> c, double width) {
        c.setMaxWidth(Double.MAX_VALUE);
        c.setMinWidth(width);
        if (!widths.dragged.contains(c)) {
            c.setPrefWidth(width);
        }
    }

    /**
     * An Outcome cell: the reason of a key that waits for a person (failed, or waiting for a confirmation, a login, a
     * review) wraps to two lines, whole in the highlighted key's row, which grows to its lines (at 1024 px a reason
     * can take four); other outcomes keep to one line. A cut reason is whole on hover.
     */
    private static final class ReasonCell extends javafx.scene.control.TableCell<JobViewModel.KeyRow, String> {
        private static final int LINES = 2;

        ReasonCell() {
            // a wider or narrower column, or another highlighted key, wraps the reason again: the row asks anew
            javafx.beans.InvalidationListener relayout = o -> {
                requestLayout();
                if (getTableRow() != null) {
                    getTableRow().requestLayout();
                }
            };
            tableColumnProperty().addListener((o, was, is) -> {
                if (is != null) {
                    is.widthProperty().addListener(relayout);
                }
            });
            tableRowProperty().addListener((o, was, is) -> {
                if (was != null) {
                    was.selectedProperty().removeListener(relayout);
                }
                if (is != null) {
                    is.selectedProperty().addListener(relayout);
                }
            });
        }

        @Override
        protected void updateItem(String item, boolean empty) {
            super.updateItem(item, empty);
            setText(empty ? null : item);
            setWrapText(waitsForAPerson());
        }

        private boolean waitsForAPerson() {
            if (isEmpty() || getText() == null || getText().isEmpty() || getTableView() == null) {
                return false;
            }
            int i = getIndex();
            List<JobViewModel.KeyRow> items = getTableView().getItems();
            return i >= 0 && i < items.size() && items.get(i).state().needsAttention();
        }

        @Override
        protected double computePrefHeight(double width) {
            double one = super.computePrefHeight(width);
            if (!isWrapText() || getTableColumn() == null) {
                return one;
            }
            // a row asks its cells their height at no width: the lines at the column's width, with the padding
            double lines = linesHeight(getText(), getTableColumn().getWidth() - snappedLeftInset()
                    - snappedRightInset());
            if (getTableRow() == null || !getTableRow().isSelected()) {
                double line = linesHeight(getText().lines().findFirst().orElse(""), Double.MAX_VALUE);
                lines = Math.min(lines, line * LINES + getLineSpacing() * (LINES - 1));
            }
            return Math.max(one, Math.ceil(lines) + snappedTopInset() + snappedBottomInset() + 2);
        }

        private double linesHeight(String text, double width) {
            javafx.scene.text.Text t = new javafx.scene.text.Text(text);
            t.setFont(getFont());
            t.setLineSpacing(getLineSpacing());
            t.setWrappingWidth(Math.max(1, width));
            return t.getLayoutBounds().getHeight();
        }
    }

    /**
     * The key table's widths: Outcome, the column that says why, takes what the others leave; each other column
     * keeps the width its rows need, or the wider one the operator dragged it to (taken from Outcome, down to its
     * least, and given back when the window narrows). A built-in policy shares the room among all columns, which made Updated and Took wider than their
     * words; pinned to their widths, they could not be dragged at all.
     */
    private static final class OutcomeTakesTheRest extends javafx.scene.control.ConstrainedColumnResizeBase
            implements javafx.util.Callback<TableView.ResizeFeatures, Boolean> {
        /** The columns the operator dragged to a width of their own. */
        private final java.util.Set<javafx.scene.control.TableColumnBase<?, ?>> dragged = new java.util.HashSet<>();

        @Override
        public Boolean call(TableView.ResizeFeatures f) {
            TableView<?> table = f.getTable();
            List<? extends TableColumn<?, ?>> columns = table.getVisibleLeafColumns();
            double content = f.getContentWidth();
            if (content <= 0 || columns.isEmpty()) {
                return false;
            }
            TableColumn<?, ?> last = columns.get(columns.size() - 1);
            javafx.scene.control.TableColumnBase<?, ?> moved = f.getColumn();
            boolean done = moved == null;
            int n = columns.size() - 1;
            double[] widths = new double[n];
            double others = 0;
            for (int i = 0; i < n; i++) {
                TableColumn<?, ?> c = columns.get(i);
                double w = dragged.contains(c) ? c.getWidth() : c.getPrefWidth();
                if (c == moved) {
                    double room = content - last.getMinWidth() - columns.stream().filter(x -> x != c && x != last)
                            .mapToDouble(x -> dragged.contains(x) ? x.getWidth() : x.getPrefWidth()).sum();
                    w = Math.min(c.getWidth() + f.getDelta(), Math.max(c.getWidth(), room));
                    done = Math.abs(w - c.getWidth()) > 0.01;
                    dragged.add(c);
                }
                widths[i] = Math.max(c.getMinWidth(), Math.min(c.getMaxWidth(), w));
                others += widths[i];
            }
            // a narrower window (or rows that need more) takes back what the operator dragged, the rightmost first,
            // down to the rows' needs, before Outcome would go below its least and out of the table's view
            double excess = others - (content - last.getMinWidth());
            for (int i = n - 1; i >= 0 && excess > 0; i--) {
                TableColumn<?, ?> c = columns.get(i);
                if (dragged.contains(c)) {
                    double give = Math.min(excess, widths[i] - c.getMinWidth());
                    if (give > 0) {
                        widths[i] -= give;
                        others -= give;
                        excess -= give;
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                f.setColumnWidth(columns.get(i), widths[i]);
            }
            f.setColumnWidth(last, Math.max(last.getMinWidth(),
                    Math.floor(content - others)));
            return done;
        }
    }

    private TableRow<JobViewModel.KeyRow> row() {
        TableRow<JobViewModel.KeyRow> row = new TableRow<>();
        row.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2 && !row.isEmpty()) {
                showTimeline(row.getItem());
            }
        });
        // the menu is built for the key the row shows when it is asked for: the table gives its rows other keys
        // each time it refreshes, and a menu kept by the row showed the moves of a key it had shown before
        row.addEventFilter(ContextMenuEvent.CONTEXT_MENU_REQUESTED, e -> row.setContextMenu(menu(row.getItem())));
        return row;
    }

    /** Shows the highlighted key's menu under its row (once, however many ways the keyboard asked for it). */
    private void showMenuOfHighlighted() {
        ContextMenu menu = menu(table.getSelectionModel().getSelectedItem());
        if (menu == null || keyMenu != null && keyMenu.isShowing()) {
            return;
        }
        int at = table.getSelectionModel().getSelectedIndex();
        Node anchor = table.lookupAll(".table-row-cell").stream()
                .filter(n -> n instanceof TableRow<?> r && r.getIndex() == at && r.isVisible()).findFirst()
                .orElse(table);
        keyMenu = menu;
        menu.show(anchor, javafx.geometry.Side.BOTTOM, 16, 0);
    }

    /**
     * The moves on a key, as its menu offers them: its timeline; Plan… of the job when the key waits for its review;
     * then the moves its state allows on this one key. {@code null} for an empty row.
     */
    private ContextMenu menu(JobViewModel.KeyRow k) {
        if (k == null) {
            return null;
        }
        ContextMenu menu = new ContextMenu(item(Text.t("ui.inbox.timeline"), () -> showTimeline(k)));
        menu.setOnShown(e -> openMenus.put(menu, k));
        menu.setOnHidden(e -> openMenus.remove(menu));
        OperatorMoves allowed = k.moves();
        if (allowed.heldForReview()) {
            menu.getItems().add(item(Format.move(Trigger.APPROVE), () -> perform(Trigger.APPROVE, k)));
        }
        allowed.onKey().forEach(t -> menu.getItems().add(item(Format.move(t), () -> perform(t, k))));
        return menu;
    }

    private static MenuItem item(String text, Runnable action) {
        MenuItem item = new MenuItem(text);
        item.setOnAction(e -> action.run());
        return item;
    }

    /** Performs an operator move on a key of the table (asking for a note where the move records one). */
    private void perform(Trigger move, JobViewModel.KeyRow row) {
        String key = row.key();
        // the moves act on the key as its menu showed it: the view model refuses one on a key that changed since
        KeyRecord shown = row.record();
        switch (move) {
            case APPROVE -> nav.plan(row.record().job(), List.of(key));
            case CONFIRM -> nav.confirm(row.record().job(), key);
            case RETRY -> vm.retry(shown);
            case REARM -> askRearm(shown);
            case SKIP -> ask(Text.t("ui.move.skip"), shown, Text.t("ui.move.skipExplain"), vm::skip);
            case MARK_DONE -> ask(Text.t("ui.move.markDone"), shown, Text.t("ui.move.markDoneExplain"), vm::markDone);
            default -> throw new IllegalArgumentException(move.name());
        }
    }

    private void ask(String verb, KeyRecord shown, String explain,
                     java.util.function.BiConsumer<KeyRecord, String> then) {
        new NoteDialog(Text.t("ui.move.noteTitle", verb, vm.definitionProperty().get().name() + " " + shown.key()),
                explain, verb, null, n -> then.accept(shown, n)).show(Widgets.windowOf(this));
    }

    /** Rearm…: a note and, optionally, the step to run again from. */
    private void askRearm(KeyRecord shown) {
        String key = shown.key();
        JobDefinition def = vm.definitionProperty().get();
        ComboBox<String> from = new ComboBox<>();
        from.setId("rearm-from");
        from.getItems().add(Text.t("ui.job.allSteps"));
        def.steps().forEach(s -> from.getItems().add(s.id()));
        from.getSelectionModel().select(0);
        HBox extra = new HBox(8, new Label(Text.t("ui.job.runAgainFrom")), from);
        extra.setAlignment(Pos.CENTER_LEFT);
        new NoteDialog(Text.t("ui.move.noteTitle", Text.t("ui.job.rearm"), def.name() + " " + key),
                Text.t("ui.job.rearmExplain"), Text.t("ui.job.rearm"), extra, n -> vm.rearm(shown, n, from.getSelectionModel().getSelectedIndex() == 0
                ? null : from.getValue())).show(Widgets.windowOf(this));
    }

    /** Gives the key table the keyboard focus (J/K move in it), once the view is in a scene. */
    public void focusTable() {
        javafx.application.Platform.runLater(table::requestFocus);
    }

    /** Focuses the search field (Ctrl+F). */
    public void focusSearch() {
        search.requestFocus();
        search.selectAll();
    }

    /**
     * Asks before several keys send an unsafe step at once: "Cancel" is the default button and has the focus (Enter
     * and Esc send nothing); only "Run N keys" runs them.
     */
    private boolean askRun(JobViewModel.Consent c) {
        Dialog<ButtonType> d = new Dialog<>();
        d.initOwner(getScene().getWindow());
        d.setTitle(Text.t("ui.consent.title", c.keys(), vm.definitionProperty().get().name()));
        d.setHeaderText(c.which());
        Label explain = new Label(c.review() ? Text.t("ui.consent.explainReview", c.keys(), c.steps())
                : Text.t("ui.consent.explain", c.keys(), c.steps()));
        explain.setId("consent-explain");
        explain.setWrapText(true);
        explain.setMinHeight(Region.USE_PREF_SIZE);
        explain.setMaxWidth(460);
        d.getDialogPane().setContent(explain);
        d.getDialogPane().setId("run-consent");
        d.getDialogPane().getStylesheets().setAll(io.keyline.ui.common.Theme.STYLESHEETS);
        ButtonType runType = new ButtonType(Text.t("ui.consent.run", c.keys()), ButtonBar.ButtonData.OK_DONE);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.CANCEL, runType);
        Button send = (Button) d.getDialogPane().lookupButton(runType);
        send.setId("consent-run");
        send.setDefaultButton(false);
        Button cancel = (Button) d.getDialogPane().lookupButton(ButtonType.CANCEL);
        cancel.setId("consent-cancel");
        cancel.setDefaultButton(true);
        d.setOnShown(e -> cancel.requestFocus());
        return d.showAndWait().filter(b -> b == runType).isPresent();
    }

    private void askPause() {
        Dialog<ButtonType> d = new Dialog<>();
        d.initOwner(getScene().getWindow());
        d.setTitle(Text.t("ui.job.pauseTitle", vm.definitionProperty().get().name()));
        d.setHeaderText(Text.t("ui.job.pauseHeader"));
        TextField reason = new TextField();
        reason.setId("pause-reason");
        reason.setPromptText(Text.t("ui.job.pauseReasonPrompt"));
        DatePicker until = new DatePicker();
        until.setPromptText(Text.t("ui.job.optional"));
        GridPane grid = new GridPane();
        grid.setHgap(8);
        grid.setVgap(8);
        grid.addRow(0, new Label(Text.t("ui.job.reason")), reason);
        grid.addRow(1, new Label(Text.t("ui.job.until")), until);
        d.getDialogPane().setContent(grid);
        d.getDialogPane().getStylesheets().setAll(io.keyline.ui.common.Theme.STYLESHEETS);
        ButtonType pauseType = new ButtonType(Text.t("ui.job.pauseButton"), ButtonBar.ButtonData.OK_DONE);
        d.getDialogPane().getButtonTypes().addAll(pauseType, ButtonType.CANCEL);
        d.getDialogPane().lookupButton(pauseType).disableProperty().bind(reason.textProperty().isEmpty());
        d.showAndWait().filter(b -> b == pauseType).ifPresent(b -> {
            Instant u = until.getValue() == null ? null
                    : until.getValue().atTime(LocalTime.MIDNIGHT).atZone(ZoneId.systemDefault()).toInstant();
            vm.pause(reason.getText().strip(), u);
        });
    }
}
