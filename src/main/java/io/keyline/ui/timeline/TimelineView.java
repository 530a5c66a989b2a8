package io.keyline.ui.timeline;

import io.keyline.core.operations.EvidenceText;
import io.keyline.core.operations.Timeline.EventRow;
import io.keyline.core.operations.Timeline.Row;
import io.keyline.core.operations.Timeline.RunHeader;
import atlantafx.base.theme.Styles;
import io.keyline.domain.KeyRecord;
import io.keyline.text.Text;
import io.keyline.ui.Navigator;
import io.keyline.ui.common.StateChip;
import io.keyline.ui.common.Widgets;
import io.keyline.ui.timeline.TimelineViewModel.Action;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextArea;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

import java.util.List;
import java.util.Objects;

/**
 * A key's status timeline: a header with the key's state, what a done key came to, and the one action
 * that fits it; a list of run headers and events under column headers (messages wrap; at narrow widths
 * the secondary columns give way), scrolled to the newest run after each load; and a detail pane below
 * the list with the evidence of the expanded event.
 */
public final class TimelineView extends BorderPane {

    /** The columns before the message: their smallest and their preferred widths (glyph … failure). */
    static final double[] MIN = {14, 60, 46, 104, 56, 124, 60};
    static final double[] PREF = {14, 66, 72, 170, 110, 136, 130};
    static final double SPACING = 10;
    /** The message column never gets narrower than this (it wraps instead). */
    static final double MESSAGE_MIN = 140;
    /** The "since" and failure columns, which give way (only) when even the smallest widths do not fit. */
    private static final int SINCE = 2;
    private static final int TYPE = 3;
    private static final int STEP = 4;
    private static final int STATE = 5;
    private static final int FAILURE = 6;
    /** The list's cells' padding and its vertical scroll bar, which the rows do not get. */
    private static final double LIST_CHROME = 32;

    static final String STYLESHEET = Objects.requireNonNull(
            TimelineView.class.getResource("/io/keyline/ui/timeline-confirm.css")).toExternalForm();

    private final TimelineViewModel vm;
    private final Navigator navigator;
    private final ListView<Row> list = new ListView<>();
    private final TextArea evidence = new TextArea();
    /** Each column's width, shared by its title and every row, from the list's width. */
    private final javafx.beans.property.DoubleProperty[] widths = new javafx.beans.property.DoubleProperty[MIN.length];
    private final javafx.beans.property.BooleanProperty secondary = new javafx.beans.property.SimpleBooleanProperty(true);
    /** {@link #MIN} and {@link #PREF} as the current language's words need them ({@link #fitWords}). */
    private final double[] min = MIN.clone();
    private final double[] pref = PREF.clone();
    /** An unshown label styled as a duration, to measure durations in the page's monospaced font. */
    private final Label sinceProbe = new Label();
    /** An unshown label styled as a step, to measure the steps shown ("publish #1"). */
    private final Label stepProbe = new Label();
    /** An unshown label styled as a column's title, to measure the titles. */
    private final Label titleProbe = new Label();
    /** An unshown label styled as an event's type, to measure its words. */
    private final Label typeProbe = new Label();
    /** An unshown chip, to measure the states shown. */
    private final StateChip chipProbe = new StateChip();
    /** An unshown label styled as a failure's class, to measure the failures shown. */
    private final Label failureProbe = new Label();
    /** The event column at its narrowest: its title, and the longest word of any event's type; measured once. */
    private double typeFloor = -1;

    {
        for (int i = 0; i < widths.length; i++) {
            widths[i] = new javafx.beans.property.SimpleDoubleProperty(PREF[i]);
        }
    }

    public TimelineView(TimelineViewModel vm, Navigator navigator) {
        this.vm = vm;
        this.navigator = navigator;
        getStyleClass().addAll("timeline", "timeline-view");
        getStylesheets().add(STYLESHEET);
        setTop(header());
        setCenter(body());
        vm.setOnChanged(navigator::refresh);
        vm.setRetryShow(navigator::showRetry);
    }

    private Region header() {
        Hyperlink jobLink = new Hyperlink();
        jobLink.textProperty().bind(vm.jobProperty());
        jobLink.getStyleClass().add("timeline-job-link");
        jobLink.setOnAction(e -> navigator.showJob(vm.jobProperty().get()));
        jobLink.setTooltip(new Tooltip(Text.t("ui.timeline.openJob")));
        Label dot = new Label("·");
        dot.getStyleClass().add("page-title");
        Label keyLabel = new Label();
        keyLabel.getStyleClass().add("page-title");
        keyLabel.textProperty().bind(vm.keyProperty());
        StateChip chip = new StateChip();
        // the key's state and why it waits: a wait for the job's review wears its own chip
        vm.headerProperty().addListener((o, a, b) -> chip.showKey(b.record()));
        chip.showKey(vm.headerProperty().get().record());

        ProgressIndicator spinner = Widgets.spinner(vm.loadingProperty().or(vm.busyProperty()));
        spinner.managedProperty().bind(spinner.visibleProperty());

        Button actionButton = new Button();
        actionButton.getStyleClass().add(Styles.ACCENT);
        actionButton.textProperty().bind(vm.headerProperty().map(h -> h.action().label()));
        Widgets.shownWhen(actionButton, vm.headerProperty().map(h -> h.action() != Action.NONE));
        actionButton.disableProperty().bind(vm.busyProperty());
        actionButton.setOnAction(e -> act());

        Button refresh = new Button(Text.t("ui.timeline.refresh"));
        refresh.setOnAction(e -> vm.reload());
        refresh.disableProperty().bind(vm.busyProperty());

        HBox titleRow = new HBox(8, jobLink, dot, keyLabel, chip, spinner, Widgets.grow(), refresh, actionButton);
        titleRow.setAlignment(Pos.CENTER_LEFT);

        Label message = Widgets.line(vm.headerProperty().map(TimelineViewModel.Header::message), "timeline-message");

        Label outcome = Widgets.line(vm.headerProperty().map(TimelineViewModel.Header::outcome), "timeline-outcome");
        outcome.setId("timeline-outcome");

        Label details = new Label();
        details.textProperty().bind(vm.headerProperty().map(h -> (h.details().isEmpty() ? "" : h.details() + " · ")
                + Text.t("ui.timeline.events", h.events())));
        details.getStyleClass().add("page-subtitle");

        Label notice = Widgets.line(vm.noticeProperty(), "timeline-notice");
        notice.setId("timeline-notice");

        Label error = Widgets.line(vm.errorProperty(), "error-text");

        VBox box = new VBox(4, titleRow, details, message, outcome, notice, error);
        box.getStyleClass().add("timeline-header");
        box.setPadding(new Insets(16, 20, 12, 20));
        return box;
    }

    private void act() {
        TimelineViewModel.Header h = vm.headerProperty().get();
        KeyRecord rec = h.record();
        switch (h.action()) {
            case PLAN -> navigator.plan(vm.jobProperty().get(), java.util.List.of(vm.keyProperty().get()));
            case CONFIRM -> navigator.confirm(vm.jobProperty().get(), vm.keyProperty().get());
            case RENEW_CREDENTIAL -> navigator.renewCredential(rec == null ? null : rec.credential());
            case RETRY -> vm.retry(Text.t("ui.retry.note")); // noted as Attention and the job page note theirs
            case NONE -> { }
        }
    }

    private Region body() {
        list.setItems(vm.rows());
        list.setId("timeline-list");
        list.getStyleClass().add("timeline-list");
        // after each load the newest run is in view (its header at the top of the list when it fits)
        vm.newestRunProperty().addListener((o, a, b) -> scrollToNewest());
        // the operator's own scroll, click or key ends the pin to the newest run (pinTo)
        for (javafx.event.EventType<?> t : java.util.List.of(javafx.scene.input.ScrollEvent.SCROLL,
                javafx.scene.input.MouseEvent.MOUSE_PRESSED, javafx.scene.input.KeyEvent.KEY_PRESSED)) {
            list.addEventFilter(t, e -> {
                if (pin != null) {
                    pin.run();
                    pin = null;
                }
            });
        }
        vm.rows().addListener((javafx.collections.ListChangeListener<Row>) c -> scrollToNewest());
        list.setCellFactory(l -> new TimelineCell());
        list.widthProperty().addListener((o, a, w) -> layoutColumns(w.doubleValue() - LIST_CHROME));
        // the step column fits the steps shown
        list.getItems().addListener((javafx.collections.ListChangeListener<Row>) c -> {
            if (list.getWidth() > 0) {
                layoutColumns(list.getWidth() - LIST_CHROME);
            }
        });
        list.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER || e.getCode() == KeyCode.SPACE) {
                if (list.getSelectionModel().getSelectedItem() instanceof EventRow row) {
                    vm.toggle(row);
                    e.consume();
                }
            } else if (e.getCode() == KeyCode.ESCAPE && vm.expandedProperty().get() != null) {
                vm.collapse();
                e.consume();
            }
        });
        Label empty = new Label(Text.t("ui.timeline.noEvents"));
        empty.getStyleClass().add("empty-state");
        list.setPlaceholder(empty);
        VBox.setVgrow(list, Priority.ALWAYS);

        Label detailTitle = new Label();
        detailTitle.getStyleClass().add("timeline-detail-title");
        Button close = new Button(Text.t("ui.timeline.hide"));
        close.getStyleClass().addAll(Styles.FLAT, Styles.SMALL);
        close.setOnAction(e -> vm.collapse());
        HBox detailHeader = new HBox(8, detailTitle, Widgets.grow(), close);
        detailHeader.setAlignment(Pos.CENTER_LEFT);

        evidence.setEditable(false);
        evidence.setWrapText(false);
        evidence.getStyleClass().addAll("code", "evidence-text");
        evidence.setPrefRowCount(12);
        VBox.setVgrow(evidence, Priority.ALWAYS);

        VBox detail = new VBox(6, detailHeader, evidence);
        detail.getStyleClass().addAll("evidence-box", "timeline-detail");
        detail.setPrefHeight(260);
        detail.setMinHeight(160);
        Widgets.shownWhen(detail, vm.expandedProperty().isNotNull());
        vm.expandedProperty().addListener((o, a, row) -> showEvidence(row, detailTitle));
        showEvidence(vm.expandedProperty().get(), detailTitle);

        sinceProbe.getStyleClass().add("timeline-since");
        stepProbe.getStyleClass().add("timeline-step");
        titleProbe.getStyleClass().add("timeline-col");
        typeProbe.getStyleClass().add("timeline-type");
        failureProbe.getStyleClass().add("timeline-class");
        // the list's chips are smaller than elsewhere: the chip is measured inside the list's style
        javafx.scene.layout.Pane inList = new javafx.scene.layout.Pane(chipProbe);
        inList.getStyleClass().add("timeline-list");
        javafx.scene.layout.Pane probes = new javafx.scene.layout.Pane(sinceProbe, stepProbe, titleProbe, typeProbe,
                inList, failureProbe);
        probes.setManaged(false);
        probes.setVisible(false);
        VBox center = new VBox(0, columnHeaders(), list, new Region(), detail, probes);
        center.setMinWidth(0);
        list.setMinWidth(0);
        VBox.setMargin(detail, new Insets(10, 0, 0, 0));
        center.setPadding(new Insets(0, 20, 16, 20));
        return center;
    }

    private void scrollToNewest() {
        int i = vm.newestRunProperty().get();
        if (i >= 0 && i < list.getItems().size()) {
            list.scrollTo(i);
            pinTo(i);
        }
    }

    /** The pin of {@link #pinTo} in force, or null. */
    private Runnable pin;

    /**
     * Keeps row {@code i} in view until the list has settled after it scrolled there. Rows differ in height
     * (wrapped messages), so the list first places the run by estimated heights, and it shrinks when the
     * failure's evidence opens below it, which can push a run at the end of a long list out of view
     * (TimelineViewTest saw no run row at all, once in a few full test runs). After each layout pulse the list
     * scrolls to the row again while it is not in view; the pin ends when the row was in view after two pulses
     * in a row at the same list height, after a second at most, or at once on the operator's scroll, click or
     * key.
     */
    private void pinTo(int i) {
        javafx.scene.Scene scene = list.getScene();
        if (pin != null) {
            pin.run();
            pin = null;
        }
        if (scene == null) {
            return;
        }
        boolean[] over = {false};
        double[] lastHeight = {-1};
        Runnable[] check = new Runnable[1];
        Runnable release = () -> {
            if (!over[0]) {
                over[0] = true;
                // not from inside the pulse that runs the listeners
                javafx.application.Platform.runLater(() -> scene.removePostLayoutPulseListener(check[0]));
            }
        };
        check[0] = () -> {
            if (over[0]) {
                return;
            }
            if (vm.newestRunProperty().get() != i || i >= list.getItems().size()) {
                release.run();
                return;
            }
            double h = list.getHeight();
            if (!inView(i)) {
                list.scrollTo(i);
            } else if (h == lastHeight[0]) {
                release.run();
                return;
            } else {
                list.requestLayout(); // one more pulse, to see that it stays in view
            }
            lastHeight[0] = h;
        };
        pin = release;
        scene.addPostLayoutPulseListener(check[0]);
        javafx.animation.PauseTransition limit = new javafx.animation.PauseTransition(javafx.util.Duration.seconds(1));
        limit.setOnFinished(e -> release.run());
        limit.play();
    }

    /** Whether row {@code i} is (at least partly) in the list's view. */
    private boolean inView(int i) {
        if (!(list.lookup(".virtual-flow") instanceof javafx.scene.control.skin.VirtualFlow<?> flow)) {
            return false;
        }
        javafx.scene.control.IndexedCell<?> first = flow.getFirstVisibleCell();
        javafx.scene.control.IndexedCell<?> last = flow.getLastVisibleCell();
        return first != null && last != null && first.getIndex() <= i && i <= last.getIndex();
    }

    /** The titles over the list's columns, the same widths as the rows below them. */
    private HBox columnHeaders() {
        String[] titles = {"", Text.t("ui.timeline.col.time"), Text.t("ui.timeline.col.since"),
                Text.t("ui.timeline.col.what"), Text.t("ui.timeline.col.step"), Text.t("ui.timeline.col.state"),
                Text.t("ui.timeline.col.failure")};
        HBox h = new HBox(SPACING);
        for (int i = 0; i < titles.length; i++) {
            h.getChildren().add(column(new Label(titles[i]), i, "timeline-col"));
        }
        Label message = new Label(Text.t("ui.timeline.col.message"));
        message.getStyleClass().add("timeline-col");
        message.setMinWidth(MESSAGE_MIN);
        h.getChildren().add(message);
        h.setMinWidth(0); // the columns shrink with the page (their widths follow the list's width)
        h.setId("timeline-columns");
        h.getStyleClass().add("timeline-columns");
        h.setAlignment(Pos.CENTER_LEFT);
        h.setPadding(new Insets(4, 10, 4, 7));
        return h;
    }

    /**
     * Sizes the columns for rows {@code available} wide: their preferred widths when the message keeps
     * at least {@link #MESSAGE_MIN}; else each shrinks toward its smallest width by the same share; only
     * when even those do not fit do "since" and "failure" give way.
     */
    void layoutColumns(double available) {
        fitWords();
        boolean keep = available <= 0 || fits(available, true);
        double sumMin = 0;
        double sumPref = 0;
        for (int i = 0; i < min.length; i++) {
            if (keep || i != SINCE && i != FAILURE) {
                sumMin += min[i] + SPACING;
                sumPref += pref[i] + SPACING;
            }
        }
        double room = available - MESSAGE_MIN;
        double share = sumPref == sumMin ? 1 : Math.max(0, Math.min(1, (room - sumMin) / (sumPref - sumMin)));
        for (int i = 0; i < min.length; i++) {
            widths[i].set(Math.floor(min[i] + share * (pref[i] - min[i])));
        }
        secondary.set(keep);
    }

    /**
     * Fits the columns to the words shown, in the language in use, so that the message gets what they do not need:
     * "since" is never narrower than the widest duration under a minute, so it is never split (a Chinese "毫秒"
     * broke between its two characters); the step, state and failure columns are as wide as their title or their
     * widest text shown ("publish #1", the chips of the states shown, "Refused"), up to their preferred widths; the
     * event type's column is no wider than its widest type shown on one line, and gives the step what the step needs
     * beyond its smallest width. The words are measured in the fonts the stylesheets choose.
     */
    private void fitWords() {
        if (sinceProbe.getScene() == null) {
            return;
        }
        double since = widest(sinceProbe, java.util.stream.Stream.of(999, 59_900)
                .map(ms -> "+" + io.keyline.core.operations.EvidenceText.duration(java.time.Duration.ofMillis(ms))));
        min[SINCE] = Math.max(MIN[SINCE], Math.ceil(since));
        pref[SINCE] = Math.max(PREF[SINCE], min[SINCE]);
        List<EventRow> shown = list.getItems().stream().filter(EventRow.class::isInstance).map(EventRow.class::cast)
                .toList();
        double step = widest(stepProbe, shown.stream().map(EventRow::stepAttempt).distinct());
        min[STEP] = Math.min(PREF[STEP], Math.max(MIN[STEP], Math.ceil(step)));
        pref[STEP] = min[STEP];
        // the event's type wraps between its words: it gives the step what the step needs beyond its smallest
        // width, down to its title (which does not wrap) or its longest word
        min[TYPE] = Math.max(typeFloor(), MIN[TYPE] - (min[STEP] - MIN[STEP]));
        pref[TYPE] = Math.max(min[TYPE], Math.min(PREF[TYPE],
                Math.ceil(widest(typeProbe, shown.stream().map(EventRow::typeLabel).distinct()))));
        double state = Math.max(title("ui.timeline.col.state"), widest(chipProbe, shown.stream()
                .filter(EventRow::stateChanged).map(r -> io.keyline.ui.common.Format.chip(r.state(), r.waitReason()))
                .distinct()));
        min[STATE] = Math.min(MIN[STATE], Math.ceil(state));
        pref[STATE] = Math.min(PREF[STATE], Math.ceil(state));
        double failure = Math.max(title("ui.timeline.col.failure"), widest(failureProbe, shown.stream()
                .map(EventRow::failureLabel).filter(l -> !l.isEmpty()).distinct()));
        min[FAILURE] = Math.min(MIN[FAILURE], Math.ceil(failure));
        pref[FAILURE] = Math.min(PREF[FAILURE], Math.ceil(failure));
    }

    /** The width of column title {@code key} (titles do not wrap). */
    private double title(String key) {
        return widest(titleProbe, java.util.stream.Stream.of(Text.t(key)));
    }

    /** {@link #typeFloor}, measured in the fonts the stylesheets choose. */
    private double typeFloor() {
        if (typeFloor < 0) {
            typeFloor = Math.ceil(Math.max(title("ui.timeline.col.what"), widest(typeProbe,
                    java.util.Arrays.stream(io.keyline.domain.EventType.values())
                            .flatMap(t -> java.util.stream.Stream.of(io.keyline.core.operations.Words.event(t),
                                    io.keyline.core.operations.Words.event(t, io.keyline.domain.WaitReason.REVIEW)))
                            .flatMap(w -> java.util.Arrays.stream(w.split(" "))))));
        }
        return typeFloor;
    }

    /** The widest of {@code texts} as {@code probe} shows them (in its style's font), or 0 when there are none. */
    private static double widest(Label probe, java.util.stream.Stream<String> texts) {
        double widest = 0;
        for (String text : (Iterable<String>) texts::iterator) {
            probe.setText(text);
            probe.applyCss();
            widest = Math.max(widest, probe.prefWidth(-1));
        }
        return widest;
    }

    /** Whether the columns at their smallest widths leave the message its minimum. */
    private boolean fits(double available, boolean withSecondary) {
        double sum = MESSAGE_MIN;
        for (int i = 0; i < min.length; i++) {
            if (withSecondary || i != SINCE && i != FAILURE) {
                sum += min[i] + SPACING;
            }
        }
        return available >= sum;
    }

    /** A label of column {@code i}: its width is the column's; "since" and "failure" may give way. */
    private Label column(Label l, int i, String style) {
        l.minWidthProperty().bind(widths[i]);
        l.prefWidthProperty().bind(widths[i]);
        l.maxWidthProperty().bind(widths[i]);
        l.getStyleClass().add(style);
        if (i == SINCE || i == FAILURE) {
            l.visibleProperty().bind(secondary);
            l.managedProperty().bind(secondary);
        }
        return l;
    }

    private void showEvidence(EventRow row, Label title) {
        if (row == null) {
            evidence.clear();
            title.setText("");
        } else {
            title.setText(Text.t("ui.timeline.evidence") + " · " + row.typeLabel() + (row.step() == null ? "" : " · " + row.stepAttempt())
                    + (row.failureClass() == null ? "" : " · " + row.failureLabel()));
            evidence.setText(row.evidenceText());
            evidence.positionCaret(0);
            evidence.setScrollTop(0);
        }
        list.refresh();
    }

    /** One row; its nodes are built once and reused while the list scrolls. */
    private final class TimelineCell extends ListCell<Row> {
        private final Label glyph = column(new Label(), 0, "timeline-glyph");
        private final Label time = column(new Label(), 1, "timeline-time");
        private final Label since = column(new Label(), SINCE, "timeline-since");
        private final Label type = column(new Label(), 3, "timeline-type");
        private final Label step = column(new Label(), 4, "timeline-step");
        private final StackPane chipBox = new StackPane();
        private final StateChip chip = new StateChip();
        private final Label cls = column(new Label(), FAILURE, "timeline-class");
        private final Label message = new Label();
        private final Label byline = new Label();
        private final HBox event = new HBox(10);
        private final Label runTitle = new Label();
        private final Label runSummary = new Label();
        private final StateChip runChip = new StateChip();
        private final HBox run = new HBox(10);
        private final Tooltip tip = new Tooltip();

        TimelineCell() {
            chipBox.minWidthProperty().bind(widths[5]);
            chipBox.prefWidthProperty().bind(widths[5]);
            chipBox.maxWidthProperty().bind(widths[5]);
            chipBox.setAlignment(Pos.TOP_LEFT);
            chipBox.getChildren().add(chip);
            chip.setMinWidth(0);
            chip.setMaxWidth(Region.USE_PREF_SIZE); // its own width, cut (with a tooltip) when the column is narrower
            io.keyline.ui.common.Cut.tip(chip);
            // every text wraps in its own column (nothing is cut or runs into the next column), and the
            // row is as tall as its tallest cell (computePrefHeight)
            for (Label l : new Label[] {since, type, step, cls, message, byline}) {
                l.setWrapText(true);
                l.setMinHeight(Region.USE_PREF_SIZE);
            }
            message.getStyleClass().add("timeline-text");
            message.setMinWidth(0);
            message.setMaxWidth(Double.MAX_VALUE);
            byline.getStyleClass().add("timeline-byline");
            byline.setMinWidth(0);
            byline.setMaxWidth(Double.MAX_VALUE);
            // all cells start on the row's first line (a wrapped message no longer sits higher than the rest)
            event.setAlignment(Pos.TOP_LEFT);
            VBox text = new VBox(1, message, byline);
            HBox.setHgrow(text, Priority.ALWAYS);
            text.setMinWidth(MESSAGE_MIN);
            text.setPrefWidth(MESSAGE_MIN);
            text.setMaxWidth(Double.MAX_VALUE);
            event.getChildren().addAll(glyph, time, since, type, step, chipBox, cls, text);
            event.getStyleClass().add("timeline-row");

            runTitle.getStyleClass().add("timeline-run-title");
            runSummary.getStyleClass().add("timeline-run-summary");
            run.setAlignment(Pos.CENTER_LEFT);
            run.getChildren().addAll(runTitle, runSummary, runChip);
            run.getStyleClass().add("timeline-run-header");

            setOnMouseClicked(e -> {
                if (e.getButton() == MouseButton.PRIMARY && getItem() instanceof EventRow row) {
                    vm.toggle(row);
                }
            });
        }

        /** Rows take the list's width (no horizontal scrolling); the message is what wraps. */
        @Override
        protected double computePrefWidth(double height) {
            return 0;
        }

        /** As tall as the row's wrapped texts at the width the list gives it (not at their one-line width). */
        @Override
        protected double computePrefHeight(double width) {
            javafx.scene.Node g = getGraphic();
            double w = width > 0 ? width : getWidth() > 0 ? getWidth()
                    : getListView() == null ? -1 : getListView().getWidth() - LIST_CHROME / 2;
            if (g == null || w <= 0) {
                return super.computePrefHeight(width);
            }
            double inner = w - snappedLeftInset() - snappedRightInset();
            return snappedTopInset() + Math.max(g.minHeight(inner), g.prefHeight(inner)) + snappedBottomInset();
        }

        {
            event.setMinHeight(28);
            run.setMinHeight(30);
        }

        @Override
        protected void updateItem(Row item, boolean empty) {
            super.updateItem(item, empty);
            getStyleClass().removeAll("run-row", "event-row", "failure", "review", "operator", "expandable", "expanded");
            setText(null);
            setTooltip(null);
            if (empty || item == null) {
                setGraphic(null);
                return;
            }
            if (item instanceof RunHeader h) {
                getStyleClass().add("run-row");
                if (h.operator()) {
                    getStyleClass().add("operator");
                }
                runTitle.setText(h.title());
                runSummary.setText(h.summary());
                runChip.show(h.outcome(), h.outcomeWaitReason());
                setGraphic(run);
                return;
            }
            EventRow e = (EventRow) item;
            getStyleClass().add("event-row");
            if (e.failure()) {
                getStyleClass().add("failure");
            } else if (e.review()) {
                getStyleClass().add("review");
            }
            if (e.operatorAction()) {
                getStyleClass().add("operator");
            }
            boolean expanded = e.equals(vm.expandedProperty().get());
            if (e.hasEvidence()) {
                getStyleClass().add(expanded ? "expanded" : "expandable");
            }
            glyph.setText(e.hasEvidence() ? (expanded ? "▾" : "▸") : "");
            time.setText(EvidenceText.clock(e.ts()));
            since.setText(e.sincePrevious() == null ? "" : "+" + EvidenceText.duration(e.sincePrevious()));
            type.setText(e.typeLabel());
            step.setText(e.stepAttempt());
            if (e.stateChanged()) {
                // the state the event left, and why it waited: a wait for the job's review wears its own chip
                chip.show(e.state(), e.waitReason());
            } else {
                chip.show(null);
            }
            cls.setText(e.failureLabel());
            message.setText(io.keyline.ui.common.Format.eventMessage(e));
            byline.setText(e.byline());
            byline.setVisible(!e.byline().isEmpty());
            byline.setManaged(!e.byline().isEmpty());
            tip.setText(String.join("\n", java.util.stream.Stream.of(e.message(), e.byline(),
                    e.hasEvidence() ? EvidenceText.summary(e.evidence()) + "\n" + Text.t("ui.timeline.evidenceHint") : "")
                    .filter(s -> s != null && !s.isEmpty()).toList()));
            // a row whose message its type and header say (a run started) has no tooltip: an empty one is a speck
            setTooltip(tip.getText().isEmpty() ? null : tip);
            setGraphic(event);
        }
    }

}
