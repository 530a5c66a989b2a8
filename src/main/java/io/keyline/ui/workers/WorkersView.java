package io.keyline.ui.workers;

import io.keyline.text.Text;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.VBox;

import java.util.function.Function;

/**
 * The page behind "Workers" in the sidebar: the processes that run keys on this state (on several
 * machines when the state is PostgreSQL), with their host, since when, last heartbeat and the keys they
 * hold. Reloaded when shown and whenever the console refreshes.
 */
public final class WorkersView extends BorderPane {

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
        table.getColumns().add(column(Text.t("ui.workers.col.host"), WorkersViewModel.Row::host, 140));
        table.getColumns().add(column(Text.t("ui.workers.col.process"), WorkersViewModel.Row::what, 200));
        table.getColumns().add(column(Text.t("ui.workers.col.since"), WorkersViewModel.Row::since, 150));
        table.getColumns().add(column(Text.t("ui.workers.col.heartbeat"), WorkersViewModel.Row::heartbeat, 110));
        table.getColumns().add(column(Text.t("ui.workers.col.status"), WorkersViewModel.Row::status, 150));
        table.getColumns().add(column(Text.t("ui.workers.col.keys"), WorkersViewModel.Row::keys, 300));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
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

    public WorkersViewModel viewModel() {
        return vm;
    }
}
