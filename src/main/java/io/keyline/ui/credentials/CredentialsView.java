package io.keyline.ui.credentials;

import atlantafx.base.theme.Styles;
import io.keyline.core.operations.Words;
import io.keyline.text.Text;
import io.keyline.ui.Navigator;
import io.keyline.ui.common.Cut;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Widgets;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

import java.util.List;
import java.util.function.Function;

/**
 * The page behind "Credentials" in the sidebar: every credential with its fingerprint, cookies, expiry,
 * last use and parked keys; rejected, expiring and missing ones are flagged; per row "Renew…" opens the
 * credential dialog and "Test" asks the read-only probes.
 */
public final class CredentialsView extends BorderPane {

    /** A cell's padding and a margin, beside its text. */
    private static final double CELL_PADDING = 24;
    /** The width of a flag's padding beside its word. */
    private static final double FLAG_PADDING = 16;
    /** The least of a name the name column shows beside its flag ("sandbox-c…"). */
    private static final double NAME_LEAST = 60;
    /** The status column's least width. */
    private static final double STATUS_MIN = 110;
    /** The width of Renew… and Test side by side. */
    private static final double ACTIONS_WIDTH = 132;

    private final CredentialsViewModel vm;
    private final Navigator navigator;
    private final TableView<CredentialsViewModel.Row> table = new TableView<>();
    /** The status column is being fitted (the widths it changes call the fitting again). */
    private boolean fitting;

    public CredentialsView(CredentialsViewModel vm, Navigator navigator) {
        this.vm = vm;
        this.navigator = navigator;
        getStyleClass().add("credentials-page");
        getStylesheets().add(CredentialsView.class.getResource("/io/keyline/ui/plan-credentials.css").toExternalForm());
        setPadding(new Insets(20));
        setTop(header());
        setCenter(table());
        setBottom(footer());
        // Lifecycle: reload whenever the page is shown (added to a scene); nothing to remove when it leaves,
        // the view model holds no reference back to the view.
        sceneProperty().addListener((o, a, b) -> {
            if (b != null) {
                vm.refresh();
            }
        });
    }

    private VBox header() {
        Label title = new Label(Text.t("ui.credentials.title"));
        title.getStyleClass().add("page-title");
        Label subtitle = new Label(Text.t("ui.credentials.subtitle"));
        subtitle.getStyleClass().add("page-subtitle");
        subtitle.setWrapText(true);
        Button add = new Button(Text.t("ui.credentials.add"));
        add.setOnAction(e -> navigator.renewCredential(null));
        Button refresh = new Button(Text.t("ui.credentials.refresh"));
        refresh.getStyleClass().add(Styles.FLAT);
        refresh.setOnAction(e -> vm.refresh());
        refresh.disableProperty().bind(vm.loadingProperty());
        add.setMinWidth(Region.USE_PREF_SIZE);
        refresh.setMinWidth(Region.USE_PREF_SIZE);
        VBox titles = new VBox(2, title, subtitle);
        titles.setMinWidth(0);
        HBox.setHgrow(titles, Priority.ALWAYS);
        HBox bar = Widgets.bar(titles, refresh, add);
        Label error = new Label();
        error.getStyleClass().add("error-text");
        error.textProperty().bind(vm.errorProperty());
        Widgets.collapseWhenEmpty(error);
        VBox top = new VBox(8, bar, error);
        top.setPadding(new Insets(0, 0, 12, 0));
        return top;
    }

    private TableView<CredentialsViewModel.Row> table() {
        table.setItems(vm.rows());
        table.getStyleClass().add("credentials-table");
        // no fixed row height: a row grows to its status's lines (a credential or two, each read whole)
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
        Label empty = new Label(Text.t("ui.credentials.empty"));
        empty.getStyleClass().add("empty-state");
        table.setPlaceholder(empty);
        table.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(CredentialsViewModel.Row item, boolean isEmpty) {
                super.updateItem(item, isEmpty);
                getStyleClass().removeAll("credential-warning", "credential-danger");
                if (!isEmpty && item != null) {
                    switch (item.warning()) {
                        case EXPIRES_SOON -> getStyleClass().add("credential-warning");
                        case EXPIRED, REJECTED, MISSING -> getStyleClass().add("credential-danger");
                        case NONE -> { }
                    }
                }
            }
        });
        // five columns share the page's width at 1024 px: the name's cell carries the type, the cookies, the
        // earliest expiry and the fingerprint on a second line; a cell cut short shows its whole text on hover
        TableColumn<CredentialsViewModel.Row, CredentialsViewModel.Row> name = nameColumn();
        TableColumn<CredentialsViewModel.Row, ?> status = statusColumn();
        List<TableColumn<CredentialsViewModel.Row, ?>> fixed = List.of(lastUsedColumn(), waitingColumn(),
                actionsColumn());
        table.getColumns().setAll(List.of(name, fixed.get(0), fixed.get(1), status, fixed.get(2)));
        // the name gives way first: the status is as wide as its longest reads on one line while the name keeps its
        // minimum; the name takes what is left
        Runnable fit = () -> fitStatus(name, status, fixed);
        vm.rows().addListener((ListChangeListener<CredentialsViewModel.Row>) c -> fit.run());
        name.widthProperty().addListener((o, a, b) -> fit.run());
        table.widthProperty().addListener((o, a, b) -> fit.run());
        return table;
    }

    /**
     * Sets {@code status}'s width: what its rows' longest status needs on one line, as far as the table's width
     * allows beside {@code fixed} and {@code name} at its minimum; then lets the resize policy give {@code name} what
     * is left. A URL is then broken only where it alone is wider than that.
     */
    private void fitStatus(TableColumn<CredentialsViewModel.Row, ?> name,
                           TableColumn<CredentialsViewModel.Row, ?> status,
                           List<TableColumn<CredentialsViewModel.Row, ?>> fixed) {
        double content = new TableView.ResizeFeatures<>(table, null, 0.0).getContentWidth();
        if (fitting || content <= 0) {
            return;
        }
        double others = fixed.stream().mapToDouble(TableColumn::getWidth).sum();
        List<String> texts = vm.rows().stream().map(CredentialsView::statusText).filter(t -> !t.isEmpty()).toList();
        javafx.scene.text.Font font = io.keyline.ui.common.Fonts.text(13);
        // its longest status on one line (and so each URL in it), as far as the room goes; a pixel to spare: the
        // policy resizes nothing when the columns' minimums take the whole width
        double oneLine = Widgets.textWidth(texts, font) + CELL_PADDING;
        double room = content - others - name.getMinWidth() - 1;
        double width = Math.max(Math.max(STATUS_MIN, Cut.titleWidth(status.getText())), Math.min(oneLine, room));
        boolean changed = Math.abs(width - status.getWidth()) > 0.5 || status.getMaxWidth() != width;
        double all = table.getVisibleLeafColumns().stream().mapToDouble(TableColumn::getWidth).sum();
        fitting = true;
        try {
            if (changed) {
                Widgets.fix(status, width);
            }
            if (changed || Math.abs(all - content) > 0.5) {
                // a column's new width does not run the policy by itself: the columns would overflow the table
                table.getColumnResizePolicy().call(new TableView.ResizeFeatures<>(table, null, 0.0));
            }
        } finally {
            fitting = false;
        }
    }

    /**
     * The name, its flag and its facts; the column gives way first, down to its widest flag and a few letters of a
     * name (the name and the facts are cut with their whole text on hover).
     */
    private TableColumn<CredentialsViewModel.Row, CredentialsViewModel.Row> nameColumn() {
        TableColumn<CredentialsViewModel.Row, CredentialsViewModel.Row> c = column(
                Text.t("ui.credentials.col.credential"), 240, r -> {
            Label name = new Label(r.name());
            name.getStyleClass().add(Styles.TEXT_BOLD);
            Label facts = io.keyline.ui.common.Cut.tip(new Label(r.missing() ? Text.t("ui.credentials.notSet")
                    : kind(r.type()) + "  ·  " + (r.cookies() > 0 ? Text.t("ui.credentials.cookies", r.cookies())
                    + "  ·  " : "") + (r.earliestExpiry() == null ? ""
                    : Text.t("ui.credentials.expires", Format.shortTime(r.earliestExpiry())) + "  ·  ") + r.fingerprint()));
            facts.getStyleClass().addAll("muted", Styles.TEXT_SMALL, "credential-facts");
            facts.setMinWidth(0);
            io.keyline.ui.common.Cut.tip(name);
            name.setMinWidth(0);
            if (r.warning() == CredentialsViewModel.Warning.NONE) {
                return middle(new VBox(1, name, facts));
            }
            Label flag = new Label(switch (r.warning()) {
                case EXPIRES_SOON -> Text.t("ui.credentials.expiresSoon");
                case EXPIRED -> Text.t("ui.credentials.expired");
                case REJECTED -> Text.t("ui.credentials.rejected");
                case MISSING -> Text.t("ui.credentials.notSet");
                case NONE -> "";
            });
            flag.getStyleClass().addAll("credential-flag",
                    r.warning() == CredentialsViewModel.Warning.EXPIRES_SOON ? "warning" : "danger");
            flag.setMinWidth(Region.USE_PREF_SIZE);
            HBox box = new HBox(6, name, flag);
            box.setAlignment(Pos.CENTER_LEFT);
            return middle(new VBox(1, box, facts));
        });
        double flags = Widgets.textWidth(List.of(Text.t("ui.credentials.expiresSoon"),
                Text.t("ui.credentials.expired"), Text.t("ui.credentials.rejected"), Text.t("ui.credentials.notSet")),
                io.keyline.ui.common.Fonts.text(javafx.scene.text.FontWeight.BOLD, 11)) + FLAG_PADDING;
        c.setMinWidth(Math.max(Cut.titleWidth(c.getText()), flags + NAME_LEAST + CELL_PADDING));
        return c;
    }

    /**
     * How many keys wait for the credential, as wide as "999 keys" in the language in use ("3 个任…" was cut),
     * and no wider.
     */
    private static TableColumn<CredentialsViewModel.Row, String> waitingColumn() {
        TableColumn<CredentialsViewModel.Row, String> c = Cut.column(Text.t("ui.credentials.col.waiting"), 90,
                r -> r.parked() == 0 ? "" : Words.keys(r.parked()));
        Widgets.fix(c, Math.max(c.getMinWidth(),
                Widgets.textWidth(List.of(Words.keys(999)), io.keyline.ui.common.Fonts.text(13)) + CELL_PADDING));
        return c;
    }

    /** When a credential was last used, and below it what the site said then: two short lines, read whole. */
    private TableColumn<CredentialsViewModel.Row, CredentialsViewModel.Row> lastUsedColumn() {
        TableColumn<CredentialsViewModel.Row, CredentialsViewModel.Row> c = column(
                Text.t("ui.credentials.col.lastUsed"), 120, r -> {
                    VBox box = middle(new VBox(1));
                    box.getStyleClass().add("credential-last-used");
                    if (r.lastUsedAt() != null) {
                        box.getChildren().add(Cut.tip(new Label(Format.shortTime(r.lastUsedAt()))));
                        if (!r.lastResult().isEmpty()) {
                            Label verdict = Cut.tip(new Label(result(r.lastResult())));
                            verdict.getStyleClass().addAll("muted", Styles.TEXT_SMALL);
                            box.getChildren().add(verdict);
                        }
                    } else if (!r.missing()) {
                        // a value nothing was sent with, as credentials list says it
                        Label never = Cut.tip(new Label(Text.t("ui.credentials.notUsedYet")));
                        never.getStyleClass().add("muted");
                        box.getChildren().add(never);
                    }
                    return box;
                });
        // as wide as a time of day, "not used yet" or the longest verdict, whichever is wider
        List<String> widest = List.of(Format.shortTime(java.time.Instant.EPOCH), Text.t("ui.credentials.notUsedYet"),
                Text.t("ui.credentials.verdict.ACCEPTED"), Text.t("ui.credentials.verdict.REJECTED"),
                Text.t("ui.credentials.verdict.NO_ANSWER"), Text.t("ui.credentials.verdict.NOT_TESTED"));
        // and no wider: the status has the room
        Widgets.fix(c, Math.max(Cut.titleWidth(c.getText()),
                Widgets.textWidth(widest, io.keyline.ui.common.Fonts.text(13)) + CELL_PADDING));
        c.setSortable(true);
        c.setComparator(java.util.Comparator.comparing(CredentialsViewModel.Row::lastUsedAt,
                java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder())));
        return c;
    }

    /** {@code v} in the middle of its row's height, as the other cells (a row grows to a wrapped status). */
    private static VBox middle(VBox v) {
        v.setAlignment(Pos.CENTER_LEFT);
        return v;
    }

    private TableColumn<CredentialsViewModel.Row, CredentialsViewModel.Row> actionsColumn() {
        TableColumn<CredentialsViewModel.Row, CredentialsViewModel.Row> c = column("", ACTIONS_WIDTH, r -> {
            Button renew = new Button(r.missing() ? Text.t("ui.credentials.set") : Text.t("ui.credentials.renew"));
            renew.getStyleClass().add(Styles.SMALL);
            if (r.warning() != CredentialsViewModel.Warning.NONE) {
                renew.getStyleClass().add(Styles.ACCENT);
            }
            renew.setOnAction(e -> navigator.renewCredential(r.name()));
            Button test = new Button(Text.t("ui.credential.test"));
            test.getStyleClass().addAll(Styles.SMALL, Styles.BUTTON_OUTLINED);
            test.setDisable(r.missing() || r.testing());
            test.setTooltip(new Tooltip(Text.t("ui.credentials.testTip", r.name())));
            test.setOnAction(e -> vm.test(r.name()));
            HBox box = new HBox(6, renew, test);
            box.setAlignment(Pos.CENTER_LEFT);
            return box;
        });
        Widgets.fix(c, ACTIONS_WIDTH);
        return c;
    }

    /** What a row's status says: its last test's outcome, else its alerts. */
    private static String statusText(CredentialsViewModel.Row r) {
        return !r.test().isEmpty() ? Text.t("ui.credentials.testResult", r.test()) : r.alert();
    }

    /**
     * What to do next, read whole: the text wraps and the row grows to its lines (cut, it said "credential
     * sandbox-c…"), and a URL in it starts a line rather than break inside.
     */
    private static TableColumn<CredentialsViewModel.Row, CredentialsViewModel.Row> statusColumn() {
        TableColumn<CredentialsViewModel.Row, CredentialsViewModel.Row> c = new TableColumn<>(
                Text.t("ui.credentials.col.status"));
        c.setCellValueFactory(d -> new ReadOnlyObjectWrapper<>(d.getValue()));
        c.setPrefWidth(220);
        c.setSortable(false);
        c.setCellFactory(x -> new TableCell<>() {
            @Override
            protected void updateItem(CredentialsViewModel.Row r, boolean empty) {
                super.updateItem(r, empty);
                if (empty || r == null) {
                    setGraphic(null);
                    return;
                }
                String text = statusText(r);
                Label l = new Label();
                l.getStyleClass().add(switch (r.tone()) {
                    case PROBLEM -> "error-text";
                    // the colour of a key that waits for a confirmation: a review is one
                    case WAITING -> "warning-text";
                    case GOOD -> "ok-text";
                    case QUIET -> "muted";
                });
                l.setTooltip(text.isEmpty() ? null : new Tooltip(text));
                l.setMinWidth(0);
                l.setWrapText(true);
                // the room the text has in this cell, as it wraps there
                javafx.beans.binding.DoubleBinding room = javafx.beans.binding.Bindings.createDoubleBinding(() ->
                        (getWidth() > 0 ? getWidth() : c.getWidth()) - snappedLeftInset() - snappedRightInset()
                                - l.snappedLeftInset() - l.snappedRightInset(), widthProperty(), c.widthProperty(),
                        l.paddingProperty());
                l.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> Widgets.urlsWhole(text,
                        l.getFont(), room.get()), room, l.fontProperty()));
                // a row asks its cells their height at no width, so the text says its lines' height itself, at the
                // width its cell has now, and the row is laid out again when that changes
                l.minHeightProperty().bind(javafx.beans.binding.Bindings.createDoubleBinding(() -> wrappedHeight(l,
                        room.get()), room, l.textProperty(), l.fontProperty()));
                l.minHeightProperty().addListener((o, was, is) -> {
                    if (getTableRow() != null) {
                        getTableRow().requestLayout();
                    }
                });
                setGraphic(l);
            }
        });
        return c;
    }

    /** The height of {@code l}'s text wrapped at {@code width}, with its padding. */
    private static double wrappedHeight(Label l, double width) {
        javafx.scene.text.Text t = new javafx.scene.text.Text(l.getText());
        t.setFont(l.getFont());
        t.setWrappingWidth(Math.max(1, width));
        return Math.ceil(t.getLayoutBounds().getHeight()) + l.snappedTopInset() + l.snappedBottomInset();
    }

    private static TableColumn<CredentialsViewModel.Row, CredentialsViewModel.Row> column(
            String title, double width, Function<CredentialsViewModel.Row, javafx.scene.Node> graphic) {
        TableColumn<CredentialsViewModel.Row, CredentialsViewModel.Row> c = new TableColumn<>(title);
        c.setCellValueFactory(d -> new ReadOnlyObjectWrapper<>(d.getValue()));
        c.setPrefWidth(width);
        c.setSortable(false);
        c.setCellFactory(x -> new TableCell<>() {
            @Override
            protected void updateItem(CredentialsViewModel.Row item, boolean empty) {
                super.updateItem(item, empty);
                setGraphic(empty || item == null ? null : graphic.apply(item));
            }
        });
        return c;
    }

    private VBox footer() {
        VBox alerts = new VBox(4);
        alerts.getStyleClass().add("credential-alerts");
        Runnable fill = () -> {
            alerts.getChildren().clear();
            vm.alerts().forEach(a -> {
                Label l = new Label("⚠ " + a.message());
                l.getStyleClass().add(a.kind() == io.keyline.core.CredentialAlerts.Kind.EXPIRES_SOON ? "warning-text"
                        : "error-text");
                l.setWrapText(true);
                alerts.getChildren().add(l);
            });
            alerts.setVisible(!vm.alerts().isEmpty());
            alerts.setManaged(alerts.isVisible());
        };
        vm.alerts().addListener((ListChangeListener<io.keyline.core.CredentialAlerts.Alert>) c -> fill.run());
        fill.run();
        Label refreshed = new Label();
        refreshed.getStyleClass().addAll("muted", Styles.TEXT_SMALL);
        vm.lastRefreshProperty().addListener((o, a, b) -> refreshed.setText(Text.t("ui.credentials.loaded", Format.time(b))));
        VBox bottom = new VBox(8, alerts, refreshed);
        bottom.setPadding(new Insets(12, 0, 0, 0));
        return bottom;
    }

    /** The credential's type ("cookie", "bearer", "header", "basic") in the operator's words. */
    static String kind(String type) {
        return Text.has("ui.credentials.kind." + type) ? Text.t("ui.credentials.kind." + type) : type;
    }

    /** What the site said at the last use ("accepted", "rejected"), in the operator's words. */
    static String result(String stored) {
        String key = "ui.credentials.verdict." + stored.toUpperCase(java.util.Locale.ROOT).replace(' ', '_');
        return Text.has(key) ? Text.t(key) : stored;
    }

    public CredentialsViewModel viewModel() {
        return vm;
    }
}
