package io.keyline.ui.inbox;

import atlantafx.base.theme.Styles;
import io.keyline.ui.Navigator;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.StateChip;
import io.keyline.ui.shell.Snapshot.AttentionItem;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextInputDialog;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/** The attention inbox: what waits for a person, oldest first, each with the one action that resolves it. */
public final class InboxView extends BorderPane {

    private final InboxViewModel vm;
    private final Navigator nav;
    private final Supplier<Instant> now;
    private final ListView<AttentionItem> list = new ListView<>();

    public InboxView(InboxViewModel vm, Navigator nav, Supplier<Instant> now) {
        this.vm = vm;
        this.nav = nav;
        this.now = now;
        getStyleClass().add("inbox");
        setId("inbox");
        setPadding(new Insets(20, 24, 12, 24));

        Label title = new Label("Attention");
        title.getStyleClass().add("page-title");
        Label subtitle = new Label();
        subtitle.getStyleClass().add("page-subtitle");
        subtitle.textProperty().bind(Bindings.createStringBinding(() -> {
            int n = vm.items().size();
            return n == 0 ? "Nothing waits for you." : n + (n == 1 ? " key waits" : " keys wait")
                    + " for you, oldest first  ·  J/K to move, Enter for the action, T for the timeline";
        }, vm.items()));
        Label notice = new Label();
        notice.getStyleClass().add("muted");
        notice.textProperty().bind(vm.noticeProperty());
        Label demoNotice = new Label();
        demoNotice.setId("demo-message");
        demoNotice.getStyleClass().add("muted");
        demoNotice.setWrapText(true);
        demoNotice.textProperty().bind(vm.demoMessageProperty());
        demoNotice.visibleProperty().bind(vm.demoMessageProperty().isNotEmpty());
        demoNotice.managedProperty().bind(demoNotice.visibleProperty());
        VBox header = new VBox(4, title, subtitle, notice, demoNotice);
        header.setPadding(new Insets(0, 0, 12, 0));
        setTop(header);

        list.setId("inbox-list");
        list.setItems(vm.items());
        list.setFixedCellSize(96);
        list.setCellFactory(lv -> new ItemCell());
        Label empty = new Label("✓  All keys are done or on their way. New failures show up here.");
        empty.getStyleClass().add("empty-state");
        list.setPlaceholder(emptyState(empty));
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b != null && b != vm.selectedProperty().get()) {
                vm.selectedProperty().set(b);
            }
        });
        vm.selectedProperty().addListener((o, a, b) -> {
            if (b != null && list.getSelectionModel().getSelectedItem() != b) {
                list.getSelectionModel().select(b);
                list.scrollTo(b);
            }
        });
        list.setOnKeyPressed(e -> {
            AttentionItem item = list.getSelectionModel().getSelectedItem();
            if (e.getCode() == KeyCode.J) {
                vm.selectNext();
            } else if (e.getCode() == KeyCode.K) {
                vm.selectPrevious();
            } else if (e.getCode() == KeyCode.ENTER && item != null) {
                primary(item);
            } else if (e.getCode() == KeyCode.T && item != null) {
                nav.showTimeline(item.job(), item.key());
            } else if (e.getCode() == KeyCode.L && item != null && item.credential() != null) {
                nav.logIn(item.credential()); // issue 16: log in inside the console
            }
        });
        list.setOnMouseClicked(e -> {
            AttentionItem item = list.getSelectionModel().getSelectedItem();
            if (e.getButton() == MouseButton.PRIMARY && e.getClickCount() == 2 && item != null) {
                nav.showTimeline(item.job(), item.key());
            }
        });
        setCenter(list);
    }

    /** The empty inbox; on an empty state (no keys yet) it offers the demo workspace. */
    private VBox emptyState(Label allDone) {
        Label intro = new Label("Nothing has run yet. The demo workspace shows what Keyline is for: it adds two jobs "
                + "and 30 days of real runs against a sandbox site on this machine, with a failed key, one that waits for "
                + "your confirmation and three that wait for a new login.");
        intro.setWrapText(true);
        intro.setMaxWidth(520);
        Button create = new Button("Create the demo workspace");
        create.setId("create-demo");
        create.getStyleClass().add(Styles.ACCENT);
        create.disableProperty().bind(vm.demoRunningProperty());
        create.setOnAction(e -> vm.createDemo());
        VBox offer = new VBox(10, intro, create);
        offer.setAlignment(Pos.CENTER);
        offer.visibleProperty().bind(vm.demoOfferedProperty());
        offer.managedProperty().bind(offer.visibleProperty());
        allDone.visibleProperty().bind(vm.demoOfferedProperty().not());
        allDone.managedProperty().bind(allDone.visibleProperty());
        VBox box = new VBox(12, allDone, offer);
        box.setAlignment(Pos.CENTER);
        return box;
    }

    /** Focuses the list and selects the next item (the morning routine's "next"). */
    public void next() {
        list.requestFocus();
        vm.selectNext();
    }

    /** Runs the primary action of the selected item (Ctrl+Enter). */
    public void actOnSelected() {
        AttentionItem item = vm.selectedProperty().get();
        if (item != null) {
            primary(item);
        }
    }

    private void primary(AttentionItem item) {
        switch (item.state()) {
            case NEEDS_CONFIRMATION -> nav.confirm(item.job(), item.key());
            case NEEDS_CREDENTIAL -> nav.renewCredential(item.credential());
            case FAILED -> vm.retry(item);
            case RUNNING -> vm.runNow(item);
            default -> nav.showTimeline(item.job(), item.key());
        }
    }

    private Optional<String> askNote(String title, String prompt) {
        TextInputDialog d = new TextInputDialog();
        d.initOwner(getScene() == null ? null : getScene().getWindow());
        d.setTitle(title);
        d.setHeaderText(prompt);
        d.setContentText("Note:");
        return d.showAndWait().map(String::strip).filter(s -> !s.isEmpty());
    }

    private final class ItemCell extends ListCell<AttentionItem> {
        private final StateChip chip = new StateChip();
        private final Label key = new Label();
        private final Label since = new Label();
        private final Label reason = new Label();
        private final Label evidence = new Label();
        private final Button action = new Button();
        private final MenuButton more = new MenuButton("More");
        /** Issue 16: log in inside the console, on items that wait for a credential. */
        private final Button logIn = new Button("Log in…");
        private final HBox root;

        ItemCell() {
            key.getStyleClass().add("key");
            since.getStyleClass().add("muted");
            reason.getStyleClass().add("reason");
            evidence.getStyleClass().add("evidence");
            HBox top = new HBox(8, chip, key, since);
            top.setAlignment(Pos.CENTER_LEFT);
            VBox text = new VBox(4, top, reason, evidence);
            HBox.setHgrow(text, Priority.ALWAYS);
            // Long reasons and evidence are cut with an ellipsis; the action stays in view.
            text.setMinWidth(0);
            text.setPrefWidth(0);
            key.setMinWidth(0);
            reason.setMinWidth(0);
            evidence.setMinWidth(0);
            setPrefWidth(0);
            reason.setMaxWidth(Double.MAX_VALUE);
            evidence.setMaxWidth(Double.MAX_VALUE);
            action.getStyleClass().add(Styles.ACCENT);
            action.setMinWidth(Region.USE_PREF_SIZE);
            action.disableProperty().bind(vm.busyProperty());
            more.getStyleClass().add(Styles.FLAT);
            MenuItem timeline = new MenuItem("Timeline");
            MenuItem markDone = new MenuItem("Mark done…");
            MenuItem skip = new MenuItem("Skip…");
            timeline.setOnAction(e -> nav.showTimeline(getItem().job(), getItem().key()));
            markDone.setOnAction(e -> askNote("Mark done", "Mark " + getItem().job() + " " + getItem().key()
                    + " done: what did you check?").ifPresent(n -> vm.markDone(getItem(), n)));
            skip.setOnAction(e -> askNote("Skip", "Skip " + getItem().job() + " " + getItem().key() + ": why?")
                    .ifPresent(n -> vm.skip(getItem(), n)));
            more.getItems().addAll(timeline, markDone, skip);
            action.setOnAction(e -> primary(getItem()));
            logIn.setTooltip(new javafx.scene.control.Tooltip("Log in on the site's page inside Keyline (L): "
                    + "its cookies are captured"));
            logIn.disableProperty().bind(vm.busyProperty());
            logIn.setMinWidth(Region.USE_PREF_SIZE);
            logIn.setOnAction(e -> nav.logIn(getItem().credential()));
            HBox buttons = new HBox(6, logIn, action, more);
            buttons.setAlignment(Pos.CENTER_RIGHT);
            buttons.setMinWidth(Region.USE_PREF_SIZE);
            root = new HBox(16, text, buttons);
            root.setAlignment(Pos.CENTER_LEFT);
            root.getStyleClass().add("inbox-item");
        }

        @Override
        protected void updateItem(AttentionItem item, boolean empty) {
            super.updateItem(item, empty);
            if (empty || item == null) {
                setGraphic(null);
                setText(null);
                return;
            }
            chip.show(item.state());
            key.setText(item.job() + "  ·  " + item.key() + (item.step() == null ? "" : "  ·  " + item.step()));
            since.setText(Format.relative(item.since(), now.get()));
            reason.setText(item.reason());
            evidence.setText(item.evidence());
            action.setText(item.primaryAction());
            action.setId("action-" + item.job() + "-" + item.key());
            boolean login = item.state() == io.keyline.domain.KeyState.NEEDS_CREDENTIAL && item.credential() != null;
            logIn.setVisible(login);
            logIn.setManaged(login);
            logIn.setId("login-" + item.job() + "-" + item.key());
            setGraphic(root);
        }
    }
}
