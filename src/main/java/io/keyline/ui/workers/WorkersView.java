package io.keyline.ui.workers;

import io.keyline.text.Text;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.VBox;

import java.util.List;
import java.util.function.Function;

/**
 * The page behind "Workers" in the sidebar: the processes that run keys on this state (on several
 * machines when the state is PostgreSQL), with their host, since when, last heartbeat and the keys they
 * hold. Reloaded when shown and whenever the console refreshes.
 */
public final class WorkersView extends BorderPane {

    /** A cell's padding on both sides. */
    private static final double CELL_PADDING = 20;
    /** The widest a column gets to hold its longest text; a longer one is cut, whole on hover. */
    private static final double MAX_FIT = 240;

    private final WorkersViewModel vm;
    private final TableView<WorkersViewModel.Row> table = new TableView<>();

    public WorkersView(WorkersViewModel vm) {
        this.vm = vm;
        setId("workers-page");
        setPadding(new Insets(20));
        Label title = new Label(Text.t("ui.workers.title"));
        title.getStyleClass().add("page-title");
        Label summary = new Label();
        summary.setId("workers-summary");
        summary.getStyleClass().add("muted");
        summary.textProperty().bind(vm.summaryProperty());
        Label explain = new Label(Text.t("ui.workers.explain"));
        explain.setWrapText(true);
        explain.getStyleClass().add("muted");
        Label error = new Label();
        error.getStyleClass().add("error-text");
        error.textProperty().bind(vm.errorProperty());
        VBox top = new VBox(4, title, summary, explain, error);
        top.setPadding(new Insets(0, 0, 12, 0));
        setTop(top);
        table.setId("workers-table");
        table.setItems(vm.rows());
        table.setFixedCellSize(30);
        table.setPlaceholder(new Label(Text.t("ui.workers.empty")));
        List<Function<WorkersViewModel.Row, String>> values = List.of(WorkersViewModel.Row::host,
                WorkersViewModel.Row::what, WorkersViewModel.Row::since, WorkersViewModel.Row::heartbeat,
                WorkersViewModel.Row::status, WorkersViewModel.Row::keys);
        List<String> titles = List.of(Text.t("ui.workers.col.host"), Text.t("ui.workers.col.process"),
                Text.t("ui.workers.col.since"), Text.t("ui.workers.col.heartbeat"), Text.t("ui.workers.col.status"),
                Text.t("ui.workers.col.keys"));
        for (int i = 0; i < values.size(); i++) {
            table.getColumns().add(column(titles.get(i), values.get(i), 120));
        }
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        // each column at least as wide as its title or its widest text shown (a host is short, a process long), up
        // to a third of a 1024 px page; the last column, the running keys, takes the rest and is cut first (a
        // minimum for a long list of keys would push the page sideways)
        vm.rows().addListener((javafx.collections.ListChangeListener<WorkersViewModel.Row>) c -> {
            for (int i = 0; i < values.size(); i++) {
                Function<WorkersViewModel.Row, String> value = values.get(i);
                double text = io.keyline.ui.common.Widgets.textWidth(vm.rows().stream().map(value).toList(),
                        io.keyline.ui.common.Fonts.text(13));
                double fit = Math.min(MAX_FIT, Math.max(io.keyline.ui.common.Cut.titleWidth(titles.get(i)),
                        text + CELL_PADDING));
                if (i < values.size() - 1) {
                    table.getColumns().get(i).setMinWidth(fit);
                }
                table.getColumns().get(i).setPrefWidth(fit);
            }
        });
        setCenter(table);
        sceneProperty().addListener((o, a, b) -> {
            if (b != null) {
                vm.refresh();
            }
        });
    }

    private static TableColumn<WorkersViewModel.Row, String> column(String name,
                                                                    Function<WorkersViewModel.Row, String> value,
                                                                    double width) {
        // a title keeps its words; a cell cut short shows its whole text on hover; a worker gone is muted
        TableColumn<WorkersViewModel.Row, String> c = io.keyline.ui.common.Cut.column(name, width, value);
        c.setCellFactory(col -> io.keyline.ui.common.Cut.tip(new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
                getStyleClass().remove("muted");
                WorkersViewModel.Row row = getTableRow() == null ? null : getTableRow().getItem();
                if (!empty && row != null && !row.alive()) {
                    getStyleClass().add("muted");
                }
            }
        }));
        return c;
    }

    /** Reloads the rows (the console's refresh, a change another process announced). */
    public void refresh() {
        vm.refresh();
    }
}
