package io.keyline.ui.job;

import atlantafx.base.theme.Styles;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.ui.Navigator;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Palette;
import io.keyline.ui.common.StateChip;
import javafx.animation.PauseTransition;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
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
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
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
import java.util.function.Function;

/** A job: kill switch, calendar heatmap and a key table filtered and paged in SQL; everything updates live. */
public final class JobView extends BorderPane {

    private final JobViewModel vm;
    private final Navigator nav;
    private final TableView<KeyRecord> table = new TableView<>();
    private final TextField search = new TextField();

    public JobView(JobViewModel vm, Navigator nav) {
        this.vm = vm;
        this.nav = nav;
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
        Button plan = new Button("Plan…");
        plan.setId("plan-button");
        plan.setOnAction(e -> nav.plan(vm.definitionProperty().get().name()));
        Button pause = new Button();
        pause.setId("pause-button");
        pause.textProperty().bind(Bindings.when(vm.pausedProperty()).then("Resume").otherwise("Pause…"));
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
        HBox banner = new HBox(8, new Label("⏸"), pauseText);
        banner.getStyleClass().add("paused-banner");
        banner.setId("paused-banner");
        banner.visibleProperty().bind(vm.pausedProperty());
        banner.managedProperty().bind(vm.pausedProperty());

        Heatmap heatmap = new Heatmap(vm.heat());
        heatmap.setId("heatmap");
        heatmap.onPick(c -> search.setText(c.key()));
        HBox legend = legend();
        VBox heatBox = new VBox(6, heatmap, legend);
        heatBox.visibleProperty().bind(Bindings.isNotEmpty(vm.heat()));
        heatBox.managedProperty().bind(heatBox.visibleProperty());

        Label notice = new Label();
        notice.getStyleClass().add("muted");
        notice.textProperty().bind(vm.noticeProperty());

        VBox top = new VBox(12, titleRow, banner, heatBox, notice);
        top.setPadding(new Insets(0, 0, 12, 0));
        setTop(top);

        setCenter(tableSection());
    }

    private static String describe(JobDefinition d) {
        return (d.description().isEmpty() ? "" : d.description() + "  ·  ") + d.key().type().jsonName() + " keys"
                + (d.key().start() == null ? "" : " from " + d.key().start())
                + (d.schedule() == null ? "" : "  ·  cron " + d.schedule().text() + " (" + d.key().zone() + ")")
                + "  ·  steps " + String.join(" → ", d.steps().stream().map(s -> s.id()).toList());
    }

    private HBox legend() {
        HBox box = new HBox(12);
        box.setAlignment(Pos.CENTER_LEFT);
        for (KeyState s : new KeyState[] {KeyState.DONE, KeyState.FAILED, KeyState.NEEDS_CONFIRMATION,
            KeyState.NEEDS_CREDENTIAL, KeyState.RETRY_WAIT, KeyState.RUNNING, KeyState.SKIPPED}) {
            Rectangle r = new Rectangle(10, 10, Palette.of(s));
            r.setArcWidth(3);
            r.setArcHeight(3);
            Palette.darkProperty().addListener((o, a, b) -> r.setFill(Palette.of(s)));
            Label l = new Label(Format.state(s), r);
            l.getStyleClass().add("muted");
            box.getChildren().add(l);
        }
        Rectangle gap = new Rectangle(10, 10, Palette.gap());
        gap.setStroke(Palette.gapBorder());
        gap.getStrokeDashArray().addAll(2.0, 2.0);
        Label g = new Label("Never ran", gap);
        g.getStyleClass().add("muted");
        box.getChildren().add(g);
        return box;
    }

    private VBox tableSection() {
        ComboBox<JobViewModel.Filter> filter = new ComboBox<>();
        filter.setId("state-filter");
        filter.getItems().setAll(JobViewModel.filters());
        filter.valueProperty().bindBidirectional(vm.filterProperty());
        search.setId("key-search");
        search.setPromptText("Search keys and messages (Ctrl+F)");
        search.setPrefColumnCount(24);
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
        range.getStyleClass().add("muted");
        range.textProperty().bind(Bindings.createStringBinding(() -> {
            int total = vm.totalProperty().get();
            if (total == 0) {
                return "no keys";
            }
            int from = vm.pageProperty().get() * JobViewModel.PAGE_SIZE + 1;
            int to = Math.min(total, from + JobViewModel.PAGE_SIZE - 1);
            return String.format("%,d–%,d of %,d", from, to, total);
        }, vm.pageProperty(), vm.totalProperty()));
        Button run = new Button("Run selected");
        run.setId("run-selected");
        run.disableProperty().bind(Bindings.isEmpty(table.getSelectionModel().getSelectedItems()));
        run.setOnAction(e -> {
            List<String> keys = table.getSelectionModel().getSelectedItems().stream()
                    .filter(k -> !k.state().finished() && !k.state().needsAttention()).map(KeyRecord::key).toList();
            if (!keys.isEmpty()) {
                run.disableProperty().unbind();
                run.setDisable(true);
                vm.run(keys, () -> run.disableProperty().bind(Bindings.isEmpty(table.getSelectionModel().getSelectedItems())));
            }
        });
        Region grow = new Region();
        HBox.setHgrow(grow, Priority.ALWAYS);
        HBox bar = new HBox(8, filter, search, grow, run, range, prev, next);
        bar.setAlignment(Pos.CENTER_LEFT);

        table.setId("key-table");
        table.setFixedCellSize(30);
        table.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setItems(vm.rows());
        table.setPlaceholder(new Label("No keys match. Keys appear here once they run."));
        table.getColumns().add(column("Key", 110, KeyRecord::key));
        TableColumn<KeyRecord, KeyState> state = new TableColumn<>("State");
        state.setPrefWidth(175);
        state.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().state()));
        state.setCellFactory(c -> new TableCell<>() {
            private final StateChip chip = new StateChip();

            @Override
            protected void updateItem(KeyState s, boolean empty) {
                super.updateItem(s, empty);
                if (empty || s == null) {
                    setGraphic(null);
                } else {
                    chip.show(s);
                    setGraphic(chip);
                }
            }
        });
        table.getColumns().add(state);
        table.getColumns().add(column("Step", 90, KeyRecord::step));
        table.getColumns().add(column("Attempts", 100, k -> k.attempts() == 0 ? "" : Integer.toString(k.attempts())));
        table.getColumns().add(column("Last run", 130, k -> Format.relative(k.updatedAt(), vm.now())));
        table.getColumns().add(column("Next attempt", 130, k -> k.nextAttemptAt() == null ? ""
                : Format.shortTime(k.nextAttemptAt()) + " (" + Format.relative(k.nextAttemptAt(), vm.now()) + ")"));
        table.getColumns().add(column("Message", 400, k -> k.message() == null ? ""
                : io.keyline.domain.Printable.line(k.message())));
        table.setRowFactory(tv -> {
            TableRow<KeyRecord> row = new TableRow<>();
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() == 2 && !row.isEmpty()) {
                    nav.showTimeline(row.getItem().job(), row.getItem().key());
                }
            });
            MenuItem timeline = new MenuItem("Timeline");
            timeline.setOnAction(e -> nav.showTimeline(row.getItem().job(), row.getItem().key()));
            MenuItem confirm = new MenuItem("Confirm…");
            confirm.setOnAction(e -> nav.confirm(row.getItem().job(), row.getItem().key()));
            ContextMenu menu = new ContextMenu(timeline, confirm);
            row.contextMenuProperty().bind(Bindings.when(row.emptyProperty()).then((ContextMenu) null).otherwise(menu));
            row.itemProperty().addListener((o, a, b) -> confirm.setVisible(b != null && b.state() == KeyState.NEEDS_CONFIRMATION));
            return row;
        });
        VBox.setVgrow(table, Priority.ALWAYS);
        return new VBox(8, bar, table);
    }

    private static TableColumn<KeyRecord, String> column(String name, double width, Function<KeyRecord, String> value) {
        TableColumn<KeyRecord, String> c = new TableColumn<>(name);
        c.setPrefWidth(width);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(value.apply(cd.getValue())));
        return c;
    }

    /** Focuses the search field (Ctrl+F). */
    public void focusSearch() {
        search.requestFocus();
        search.selectAll();
    }

    private void askPause() {
        Dialog<ButtonType> d = new Dialog<>();
        d.initOwner(getScene().getWindow());
        d.setTitle("Pause " + vm.definitionProperty().get().name());
        d.setHeaderText("Nothing of this job starts while it is paused; a running key stops at its next step.");
        TextField reason = new TextField();
        reason.setId("pause-reason");
        reason.setPromptText("Why (shown wherever the job appears)");
        DatePicker until = new DatePicker();
        until.setPromptText("optional");
        GridPane grid = new GridPane();
        grid.setHgap(8);
        grid.setVgap(8);
        grid.addRow(0, new Label("Reason"), reason);
        grid.addRow(1, new Label("Until"), until);
        d.getDialogPane().setContent(grid);
        ButtonType pauseType = new ButtonType("Pause", ButtonBar.ButtonData.OK_DONE);
        d.getDialogPane().getButtonTypes().addAll(pauseType, ButtonType.CANCEL);
        d.getDialogPane().lookupButton(pauseType).disableProperty().bind(reason.textProperty().isEmpty());
        d.showAndWait().filter(b -> b == pauseType).ifPresent(b -> {
            Instant u = until.getValue() == null ? null
                    : until.getValue().atTime(LocalTime.MIDNIGHT).atZone(ZoneId.systemDefault()).toInstant();
            vm.pause(reason.getText().strip(), u);
        });
    }
}
