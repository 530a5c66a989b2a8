package io.keyline.ui.inbox;

import atlantafx.base.theme.Styles;
import io.keyline.core.operations.Attention;
import io.keyline.core.operations.Attention.Kind;
import io.keyline.domain.Trigger;
import io.keyline.text.Text;
import io.keyline.ui.Navigator;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Listen;
import io.keyline.ui.common.NoteDialog;
import io.keyline.ui.common.StateChip;
import io.keyline.ui.common.Widgets;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The attention inbox: what waits for a person, grouped by cause, oldest first, each with the one
 * action that resolves it. Keys act only on what is visibly selected: Enter and T on the list's
 * highlighted item, Ctrl+Enter ({@link #actOnSelected}) likewise; the selection survives reloads. Arriving at
 * the list ({@link #arrive}, and its first items) highlights the first item to look at: T and Enter open its
 * timeline, and nothing acts on it until the operator picks it (a click, J or K, a row's button, Ctrl+J).
 */
public final class InboxView extends BorderPane {

    private final InboxViewModel vm;
    private final Navigator nav;
    private final Supplier<Instant> now;
    /** What an id of a node cannot hold. */
    private static final java.util.regex.Pattern NOT_IN_ID = java.util.regex.Pattern.compile("[^A-Za-z0-9-]");
    private final ListView<Attention.Item> list = new ListView<>();
    private boolean reloading;
    /** Whether the list held items after its last change (its first items are an arrival). */
    private boolean hadItems;
    /** While the first item is highlighted on arrival. */
    private boolean arriving;
    /** The id of the item the list last showed selected. */
    private String scrolledTo;

    public InboxView(InboxViewModel vm, Navigator nav, Supplier<Instant> now) {
        this.vm = vm;
        this.nav = nav;
        this.now = now;
        vm.setRetryShow(nav::showRetry);
        getStyleClass().add("inbox");
        setId("inbox");
        setPadding(new Insets(20, 24, 12, 24));

        Label title = new Label(Text.t("ui.inbox.title"));
        title.getStyleClass().add("page-title");
        Label subtitle = new Label();
        subtitle.setId("inbox-subtitle");
        subtitle.getStyleClass().add("page-subtitle");
        subtitle.setWrapText(true);
        subtitle.textProperty().bind(Bindings.createStringBinding(() -> subtitle(), vm.items(), vm.arrivalProperty()));
        Label notice = Widgets.line(vm.noticeProperty(), "inbox-notice");
        notice.setId("inbox-notice");
        Label demoNotice = Widgets.line(vm.demoMessageProperty());
        demoNotice.setId("demo-message");
        demoNotice.getStyleClass().add("muted");
        // the outcome of an action shows under the list: it appears right after a click, and must not push
        // the rows down under the pointer
        VBox header = new VBox(4, title, subtitle, demoNotice);
        BorderPane.setMargin(notice, new Insets(8, 0, 0, 0));
        setBottom(notice);
        header.setPadding(new Insets(0, 0, 12, 0));
        setTop(header);

        list.setId("inbox-list");
        // a reload replaces the items: the list may drop its selection meanwhile; that is not the operator's
        // doing (registered before the list's own listener, so it runs first)
        Listen.toList(this, vm.items(), c -> reloading = true);
        list.setItems(vm.items());
        list.setCellFactory(lv -> new ItemCell());
        Label empty = new Label(Text.t("ui.inbox.empty"));
        empty.getStyleClass().add("empty-state");
        list.setPlaceholder(emptyState(empty));
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b != null && b != vm.selectedProperty().get()) {
                vm.selectedProperty().set(b);
            } else if (b == null && !reloading) {
                // the operator took the highlight away (Ctrl+click): nothing is selected to act on
                vm.selectedProperty().set(null);
            }
        });
        vm.selectedProperty().addListener((o, a, b) -> showSelected());
        // registered after the list's own selection model: a reload (setAll) is followed by restoring
        // the kept selection, so the highlighted row never disappears under the operator
        Listen.toList(this, vm.items(), c -> {
            reloading = false;
            showSelected();
        });
        // Enter and Space on a button of a row that is not the highlighted one (the focus was left there while
        // the highlight moved, or a reload put another item under it) must not act on that row: they act on
        // the highlighted row, as the list's own Enter does
        list.addEventFilter(KeyEvent.ANY, e -> {
            if (e.getCode() != KeyCode.ENTER && e.getCode() != KeyCode.SPACE || e.isShortcutDown()
                    || e.getEventType() == KeyEvent.KEY_TYPED) {
                return;
            }
            ItemCell cell = cellOf(e.getTarget());
            if (cell == null || cell.getItem() != null && cell.getItem() == visibleSelection()) {
                return;
            }
            e.consume();
            list.requestFocus();
            Attention.Item item = visibleSelection();
            if (e.getCode() == KeyCode.ENTER && e.getEventType() == KeyEvent.KEY_PRESSED && item != null) {
                enter(item);
            }
        });
        // the focus follows the highlight: a row button that keeps the focus while another row is highlighted
        // gives it back to the list. Not while a reload replaces the items: the list drops its selection for a
        // moment then, and the focus would leave the button the operator tabbed to every few seconds
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (reloading) {
                return;
            }
            ItemCell cell = getScene() == null ? null : cellOf(getScene().getFocusOwner());
            // by the item's id: right after a reload a cell may still hold the old copy of the same item
            if (cell != null && (cell.getItem() == null || b == null || !cell.getItem().id().equals(b.id()))) {
                list.requestFocus();
            }
        });
        io.keyline.ui.common.Keys.rows(list, vm::selectNext, vm::selectPrevious, () -> {
            Attention.Item item = visibleSelection();
            if (item != null) {
                enter(item);
            }
        }, () -> {
            Attention.Item item = visibleSelection();
            if (item != null) {
                nav.showTimeline(item.firstJob(), item.key());
            }
        });
        // a press on a row picks it: the row highlighted on arrival too
        list.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_PRESSED, e -> {
            ItemCell cell = cellOf(e.getTarget());
            if (cell != null && cell.getItem() != null) {
                vm.take();
            }
        });
        // the list's first items: the first is highlighted, as on arrival (Ctrl+1), when it is on screen
        hadItems = !vm.items().isEmpty();
        Listen.toList(this, vm.items(), c -> {
            boolean had = hadItems;
            hadItems = !vm.items().isEmpty();
            if (!had && hadItems && getScene() != null && getParent() != null) {
                arrive();
            }
        });
        list.setOnKeyPressed(e -> {
            Attention.Item item = visibleSelection();
            if (e.getCode() == KeyCode.L && item != null && item.credential() != null && !vm.arrivalProperty().get()) {
                nav.logIn(item.credential()); // log in inside the console
            }
        });
        list.setOnMouseClicked(e -> {
            Attention.Item item = visibleSelection();
            if (e.getButton() == MouseButton.PRIMARY && e.getClickCount() == 2 && item != null) {
                nav.showTimeline(item.firstJob(), item.key());
            }
        });
        setCenter(list);
    }

    private String subtitle() {
        int keys = vm.items().stream().mapToInt(Attention.Item::waitingKeys).sum();
        long missing = vm.items().stream().filter(i -> i.kind() == Kind.MISSING).mapToLong(i -> i.keys().size()).sum();
        if (vm.items().isEmpty()) {
            return Text.t("ui.inbox.nothingWaits");
        }
        String waiting = keys == 0 ? Text.t("ui.inbox.noKeyWaits") : Text.t("ui.inbox.keysWait", keys);
        return waiting + (missing == 0 ? "" : "  ·  " + Text.t("ui.inbox.missingNeverRan", missing))
                // what Enter does now: a row highlighted on arrival is only looked at until the operator picks it
                + "  ·  " + Text.t(vm.arrivalProperty().get() ? "ui.inbox.keysHintArrival" : "ui.inbox.keysHint");
    }

    /** Shows the view model's selection in the list (after a reload too). */
    private void showSelected() {
        Attention.Item s = vm.selectedProperty().get();
        if (s == null) {
            list.getSelectionModel().clearSelection();
            return;
        }
        if (list.getSelectionModel().getSelectedItem() != s) {
            list.getSelectionModel().select(s);
            // scrolled to once per item the operator moves to: not on arrival (the first row), not after a reload
            // (the same item, a fresh copy). A scroll keeps a replaced console (another language) alive
            if (!arriving && !s.id().equals(scrolledTo)) {
                list.scrollTo(s);
            }
            scrolledTo = s.id();
        }
    }

    /** The item highlighted in the list, only if it is the one the view model acts on; else {@code null}. */
    private Attention.Item visibleSelection() {
        Attention.Item shown = list.getSelectionModel().getSelectedItem();
        return shown != null && shown == vm.selectedProperty().get() && list.isVisible() && getScene() != null
                ? shown : null;
    }

    /** The row whose button {@code target} is (or is inside), or {@code null}. */
    private ItemCell cellOf(Object target) {
        for (javafx.scene.Node n = target instanceof javafx.scene.Node node ? node : null; n != null && n != list;
                n = n.getParent()) {
            if (n instanceof ItemCell c) {
                return c;
            }
        }
        return null;
    }

    /** The empty inbox; on a console without any job file it offers the demo workspace. */
    private VBox emptyState(Label allDone) {
        Label intro = new Label(Text.t("ui.inbox.demoIntro"));
        intro.setWrapText(true);
        intro.setMaxWidth(520);
        Button create = new Button(Text.t("ui.inbox.createDemo"));
        create.setId("create-demo");
        create.getStyleClass().add(Styles.ACCENT);
        create.disableProperty().bind(vm.demoRunningProperty());
        create.setOnAction(e -> vm.createDemo());
        VBox offer = new VBox(10, intro, create);
        offer.setAlignment(Pos.CENTER);
        Widgets.shownWhen(offer, vm.demoOfferedProperty());
        Widgets.shownWhen(allDone, vm.demoOfferedProperty().not());
        VBox box = new VBox(12, allDone, offer);
        box.setAlignment(Pos.CENTER);
        return box;
    }

    /** Gives the list the keyboard focus (J/K, Enter), once the view is in a scene. */
    public void focusList() {
        javafx.application.Platform.runLater(list::requestFocus);
    }

    /**
     * On arrival at the list: when nothing is highlighted, the first item is, to look at (T and Enter open its
     * timeline); nothing acts on it until the operator picks it.
     */
    public void arrive() {
        arriving = true;
        try {
            vm.arrive();
        } finally {
            arriving = false;
        }
    }

    /** On arrival at the item {@code id} (a note's Show): highlighted to look at, and scrolled to. */
    public void arriveAt(String id) {
        vm.arriveAt(id);
    }

    /** Focuses the list and selects the next item (the morning routine's "next"). */
    public void next() {
        list.requestFocus();
        vm.selectNext();
    }

    /**
     * Runs the primary action of the selected item (Ctrl+Enter), only when the item is visibly
     * selected in the list on screen; otherwise nothing happens.
     *
     * @return whether an action was started
     */
    public boolean actOnSelected() {
        Attention.Item item = visibleSelection();
        if (item == null || !isVisible() || vm.arrivalProperty().get()) {
            return false;
        }
        primary(item);
        return true;
    }

    /** Enter on the highlighted item: its action, or only its timeline while it is the highlight of arrival. */
    private void enter(Attention.Item item) {
        if (vm.arrivalProperty().get()) {
            nav.showTimeline(item.firstJob(), item.key());
        } else {
            primary(item);
        }
    }

    private void primary(Attention.Item item) {
        switch (item.kind()) {
            case CONFIRMATION -> nav.confirm(item.job(), item.key());
            case CREDENTIAL -> nav.renewCredential(item.credential());
            case FAILED -> vm.retry(item);
            case INTERRUPTED -> vm.runNow(item);
            case MISSING, REVIEW -> nav.plan(item.job(), item.keys());
        }
    }

    private void ask(Attention.Item item, String verb, String explain, java.util.function.BiConsumer<Attention.Item,
            String> then) {
        String what = item.keys().size() == 1 ? item.firstJob() + " " + item.key() : item.keysText();
        new NoteDialog(Text.t("ui.move.noteTitle", verb, what), explain, verb, null, n -> then.accept(item, n))
                .show(Widgets.windowOf(this));
    }

    /** More's items for {@code item}: its timeline, and the moves it allows, each acting on {@code item}. */
    private List<MenuItem> moves(Attention.Item item) {
        List<MenuItem> items = new ArrayList<>();
        items.add(menuItem(Text.t("ui.inbox.timeline"), () -> nav.showTimeline(item.firstJob(), item.key())));
        if (item.moves().allows(Trigger.MARK_DONE)) {
            items.add(menuItem(Format.move(Trigger.MARK_DONE), () -> ask(item, Text.t("ui.move.markDone"),
                    Text.t("ui.move.markDoneExplain"), vm::markDone)));
        }
        if (item.moves().allows(Trigger.SKIP)) {
            items.add(menuItem(Format.move(Trigger.SKIP), () -> ask(item, Text.t("ui.move.skip"),
                    Text.t("ui.move.skipExplain"), vm::skip)));
        }
        return items;
    }

    private static MenuItem menuItem(String text, Runnable action) {
        MenuItem item = new MenuItem(text);
        item.setOnAction(e -> action.run());
        return item;
    }

    private final class ItemCell extends ListCell<Attention.Item> {
        private final StateChip chip = new StateChip();
        private final Label title = new Label();
        private final Label since = new Label();
        private final Label reason = new Label();
        private final Label keys = new Label();
        private final Label evidence = new Label();
        private final Button action = new Button();
        private final MenuButton more = new MenuButton(Text.t("ui.inbox.more"));
        /** The item More's open menu was made for, or {@code null}. */
        private Attention.Item moreOf;
        /** Log in inside the console, on items that wait for a credential. */
        private final Button logIn = new Button(Text.t("ui.inbox.logIn"));
        private final VBox root;

        ItemCell() {
            title.getStyleClass().add("key");
            since.getStyleClass().add("muted");
            reason.getStyleClass().add("reason");
            keys.getStyleClass().add("inbox-keys");
            evidence.getStyleClass().add("evidence");
            // the state and the age never shrink to "Needs …"; a long title wraps (cut, it hid which login or
            // which step at 1024 px), the chip and the age stay on its first line
            chip.setMinWidth(Region.USE_PREF_SIZE);
            since.setMinWidth(Region.USE_PREF_SIZE);
            HBox top = new HBox(8, chip, title, since);
            top.setAlignment(Pos.BASELINE_LEFT);
            VBox text = new VBox(4, reason, keys, evidence);
            HBox.setHgrow(text, Priority.ALWAYS);
            // long texts wrap (reason) or are cut with an ellipsis (evidence); the action stays in view
            text.setMinWidth(0);
            text.setPrefWidth(0);
            for (Label l : new Label[] {title, reason, keys, evidence}) {
                l.setMinWidth(0);
                l.setMaxWidth(Double.MAX_VALUE);
                io.keyline.ui.common.Cut.tip(l);
            }
            reason.setWrapText(true);
            keys.setWrapText(true);
            title.setWrapText(true);
            title.setMinHeight(Region.USE_PREF_SIZE);
            reason.setMinHeight(Region.USE_PREF_SIZE);
            keys.setMinHeight(Region.USE_PREF_SIZE);
            setPrefWidth(0);
            action.getStyleClass().add(Styles.ACCENT);
            action.setMinWidth(Region.USE_PREF_SIZE);
            action.disableProperty().bind(vm.busyProperty());
            more.getStyleClass().add(Styles.FLAT);
            // the menu is built from the card's item as it opens (this listener runs before the skin shows the
            // popup): a reused cell keeps no item of another card, whose visibility a popup may not redraw
            more.showingProperty().addListener((o, was, is) -> {
                moreOf = is ? getItem() : null;
                if (is && getItem() != null) {
                    more.getItems().setAll(moves(getItem()));
                }
            });
            action.setOnAction(e -> {
                getListView().getSelectionModel().select(getItem());
                primary(getItem());
            });
            io.keyline.ui.common.Tips.on(logIn, Text.t("ui.inbox.logInTip"));
            logIn.disableProperty().bind(vm.busyProperty());
            logIn.setMinWidth(Region.USE_PREF_SIZE);
            logIn.setOnAction(e -> nav.logIn(getItem().credential()));
            // a row button that takes the focus (Tab) highlights its row first: what is highlighted is what acts
            for (javafx.scene.Node b : new javafx.scene.Node[] {logIn, action, more}) {
                b.focusedProperty().addListener((o, was, is) -> {
                    if (is && getItem() != null && getListView().getSelectionModel().getSelectedItem() != getItem()) {
                        getListView().getSelectionModel().select(getItem());
                    }
                    if (is && getItem() != null) {
                        vm.take(); // the operator went to the row's button: the row is picked
                    }
                });
            }
            HBox buttons = new HBox(6, logIn, action, more);
            buttons.setAlignment(Pos.CENTER_RIGHT);
            buttons.setMinWidth(Region.USE_PREF_SIZE);
            // the heading has the item's whole width (beside the buttons it wrapped at 1024 px); the buttons sit
            // beside what the item says
            HBox body = new HBox(16, text, buttons);
            body.setAlignment(Pos.CENTER_LEFT);
            root = new VBox(4, top, body);
            root.getStyleClass().add("inbox-item");
        }

        @Override
        protected void updateItem(Attention.Item item, boolean empty) {
            super.updateItem(item, empty);
            // an open More acts on the card it was opened on, as it was: another card, or the same one in another
            // state, closes it
            if (more.isShowing() && (item == null || moreOf == null || !item.id().equals(moreOf.id())
                    || item.state() != moreOf.state())) {
                more.hide();
            }
            if (empty || item == null) {
                setGraphic(null);
                setText(null);
                return;
            }
            if (item.kind() == Kind.MISSING) {
                chip.showMissing();
            } else {
                // a wait for the job's review sent nothing: it wears its own chip, not a confirmation's
                chip.show(item.state(), item.kind() == Kind.REVIEW ? io.keyline.domain.WaitReason.REVIEW : null);
            }
            title.setText(item.title());
            since.setText(item.ageText(now.get()));
            reason.setText(item.reason());
            boolean listKeys = item.kind() == Kind.CREDENTIAL || item.keys().size() > 1;
            keys.setText(listKeys ? Text.t("ui.inbox.keys", item.keysText()) : "");
            keys.setVisible(listKeys);
            keys.setManaged(listKeys);
            evidence.setText(item.evidence());
            evidence.setVisible(!item.evidence().isEmpty());
            evidence.setManaged(!item.evidence().isEmpty());
            action.setText(item.action());
            String id = item.keys().size() == 1 ? item.firstJob() + "-" + item.key()
                    : NOT_IN_ID.matcher(item.id()).replaceAll("-");
            action.setId("action-" + id);
            boolean login = item.kind() == Kind.CREDENTIAL && item.credential() != null;
            logIn.setVisible(login);
            logIn.setManaged(login);
            logIn.setId("login-" + id);
            more.setVisible(item.kind() != Kind.MISSING);
            setGraphic(root);
        }
    }
}
