package io.keyline.ui.credentials;

import atlantafx.base.theme.Styles;
import io.keyline.credentials.CredentialType;
import io.keyline.text.Text;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Theme;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.Widgets;
import javafx.beans.binding.Bindings;
import javafx.geometry.Pos;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.input.DragEvent;
import javafx.scene.input.Dragboard;
import javafx.scene.input.TransferMode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.util.StringConverter;

import java.io.File;

/**
 * Renew (or add) a login: where to log in again and which keys will resume; paste a
 * {@code Cookie:} header, a {@code cookies.txt} or a browser's JSON export, or drop the file; the box
 * shows it masked ("sessionid=•••• (32 characters)") and the parsed cookies show below, or the
 * parser's inline error; "Save and resume" stores it and resumes (and runs) the keys parked on it.
 *
 * <p>The login row holds the ways to get a new login; another way (a
 * "Log in…" button opening the site) is one more node in it.
 */
public final class CredentialDialog {

    static String prompt() {
        return Text.t("ui.credential.prompt");
    }

    /** What the box asks for, for a credential of type {@code t}. */
    static String prompt(CredentialType t) {
        return t == null || t == CredentialType.COOKIE ? prompt()
                : Text.t("ui.credential.prompt." + t.name().toLowerCase(java.util.Locale.ROOT));
    }

    /** The three accepted cookie formats, shown above the box (a TextArea's prompt cannot hold lines). */
    static String formats() {
        return Text.t("ui.credential.formats");
    }

    /** What is accepted for a credential of type {@code t}: the cookie formats, or the token's or header's form. */
    static String formats(CredentialType t) {
        return t == null || t == CredentialType.COOKIE ? formats()
                : Text.t("ui.credential.formats." + t.name().toLowerCase(java.util.Locale.ROOT));
    }

    private final CredentialViewModel vm;
    private final BorderPane root = new BorderPane();
    private final TextArea input = new TextArea();
    // ---- "Log in…" opens the login window (set by show(); absent where the dialog is built alone)
    static String loginLine() {
        return Text.t("ui.credential.loginLine");
    }
    private final Button logIn = new Button(Text.t("ui.credential.logIn"));
    private final HBox loginBar = new HBox(8);
    private final HBox loginActions = new HBox(8);
    /** "Log in…" is offered (the shell passed the login window). */
    private final javafx.beans.property.BooleanProperty loginOffered = new javafx.beans.property.SimpleBooleanProperty();
    /** Where {@link #offerPlan} puts its buttons. */
    private final HBox plans = new HBox();

    /** Builds the content on a view model; {@code onChanged} runs after a successful save. */
    public CredentialDialog(CredentialViewModel vm, Runnable onChanged) {
        this.vm = vm;
        Widgets.dialog(root, "credential-dialog", header(), body(), footer());
        Widgets.onTrue(vm.savedProperty(), onChanged);
        vm.completedCountProperty().addListener((o, a, b) -> {
            if (onChanged != null) {
                onChanged.run(); // the resumed keys ran: their states changed again
            }
        });
    }

    /**
     * Opens the dialog over {@code owner} to renew {@code name}, or to add a credential when it is {@code null};
     * {@code logIn} opens the login window over the dialog's stage on its view model (the shell passes it, so
     * that this package does not depend on {@code ui.login}, which depends on it).
     */
    public static void show(Window owner, ConsoleServices s, Threads t, String name, Runnable onChanged,
                            java.util.function.BiConsumer<Stage, CredentialViewModel> logIn,
                            java.util.function.Consumer<String> plan) {
        CredentialViewModel vm = new CredentialViewModel(s, t);
        vm.open(name);
        CredentialDialog dialog = new CredentialDialog(vm, onChanged);
        Stage stage = Theme.dialog(owner, dialog.root(), 860, 680, 640, 520);
        stage.setTitle(name == null ? Text.t("ui.credential.newWindowTitle") : Text.t("ui.credential.renewWindowTitle", name));
        stage.setOnHidden(e -> vm.input().clear()); // do not keep the pasted secret around
        dialog.offerLogIn(() -> logIn.accept(stage, vm));
        dialog.offerPlan(plan);
        stage.show();
        dialog.input.requestFocus();
    }

    public Parent root() {
        return root;
    }

    /** Shows "Log in…", which runs {@code open} (the login window, on this dialog's view model). */
    public void offerLogIn(Runnable open) {
        // the login window stores what it captures under the name: without one it says what the name lacks instead
        logIn.setOnAction(e -> {
            if (vm.nameReady()) {
                open.run();
            }
        });
        loginOffered.set(true);
    }

    /**
     * Offers the plan of each job whose resumed keys wait for its review after a save: {@code plan} opens it,
     * once this dialog has closed.
     */
    public void offerPlan(java.util.function.Consumer<String> plan) {
        plans.getChildren().setAll(LoginParts.planButtons(vm, job -> {
            Widgets.windowOf(root).hide();
            plan.accept(job);
        }));
    }

    /** True while the chosen type is a cookie: the cookie's own fields and words show only then. */
    private javafx.beans.binding.BooleanBinding cookie() {
        return vm.input().typeProperty().isEqualTo(CredentialType.COOKIE);
    }

    // ---------------------------------------------------------------- header: name, type, current

    private VBox header() {
        Label title = new Label();
        title.getStyleClass().add("page-title");
        title.textProperty().bind(Bindings.when(vm.nameEditableProperty()).then(Text.t("ui.credential.newTitle"))
                .otherwise(Bindings.createStringBinding(() -> Text.t("ui.credential.renewTitle", vm.nameProperty().get()),
                        vm.nameProperty())));
        Label current = Widgets.line(vm.currentProperty(), "page-subtitle");

        TextField name = Widgets.field(vm.nameProperty(), Text.t("ui.credential.namePrompt"));
        name.setId("credential-name");
        name.editableProperty().bind(vm.nameEditableProperty());
        name.focusTraversableProperty().bind(vm.nameEditableProperty());
        name.setPrefColumnCount(18);
        ComboBox<CredentialType> type = new TypeBox();
        type.setId("credential-type");
        type.setMinWidth(Region.USE_PREF_SIZE);
        type.getItems().setAll(CredentialType.values());
        type.valueProperty().bindBidirectional(vm.input().typeProperty());
        type.setConverter(new StringConverter<>() {
            @Override
            public String toString(CredentialType t) {
                return t == null ? "" : switch (t) {
                    case COOKIE -> Text.t("ui.credential.type.cookie");
                    case BEARER -> Text.t("ui.credential.type.bearer");
                    case HEADER -> Text.t("ui.credential.type.header");
                    case BASIC -> Text.t("ui.credential.type.basic");
                    case OAUTH2 -> Text.t("ui.credential.type.oauth2");
                };
            }

            @Override
            public CredentialType fromString(String s) {
                return null;
            }
        });
        TextField domain = Widgets.field(vm.input().domainProperty(), Text.t("ui.credential.domainPrompt"));
        domain.setId("credential-cookie-domain");
        domain.setPrefColumnCount(18);
        domain.setTooltip(new javafx.scene.control.Tooltip(Text.t("ui.credential.domainTip")));
        Label domainLabel = label(Text.t("ui.credential.cookieDomain"));
        // a cookie's domain is asked for a cookie only: for a token or a header it is not shown, and its place is
        // kept, or the name and the type would take a few px more, or less, as the type changes
        for (javafx.scene.Node n : java.util.List.of(domainLabel, domain)) {
            n.visibleProperty().bind(cookie());
        }

        Label nameError = new Label();
        nameError.setId("credential-name-error");
        nameError.getStyleClass().addAll("error-text", "inline-validation");
        // said once the name was edited or a save was tried, not as the dialog opens
        nameError.textProperty().bind(Bindings.when(vm.nameEditableProperty()).then(vm.shownNameErrorProperty())
                .otherwise(""));
        Widgets.collapseWhenEmpty(nameError);

        GridPane grid = new GridPane();
        grid.setHgap(8);
        grid.setVgap(6);
        grid.addRow(0, label(Text.t("ui.credential.name")), name, label(Text.t("ui.credential.type")), type,
                domainLabel, domain);

        Label loginTitle = label(Text.t("ui.credential.loginAt"));
        Label login = new Label();
        login.setId("credential-login-url");
        login.getStyleClass().addAll("credential-login-url", "code");
        login.textProperty().bind(Bindings.when(vm.loginUrlProperty().isEmpty())
                .then(Text.t("ui.credential.noLoginUrl"))
                .otherwise(vm.loginUrlProperty()));
        login.setWrapText(true);
        Button copy = Widgets.button("credential-copy-url", Text.t("ui.credential.copyUrl"),
                e -> Widgets.copy(vm.loginUrlProperty().get()), Styles.SMALL);
        copy.disableProperty().bind(vm.loginUrlProperty().isEmpty());
        loginActions.getChildren().add(copy);
        loginActions.setAlignment(Pos.CENTER_LEFT);
        loginActions.setId("credential-login-actions");
        HBox loginRow = new HBox(8, loginTitle, login, loginActions);
        loginRow.setAlignment(Pos.CENTER_LEFT);
        loginRow.getStyleClass().add("credential-login-row");
        // a new credential has no login to do again: the row speaks for a stored one
        loginRow.visibleProperty().bind(vm.nameEditableProperty().not().or(vm.loginUrlProperty().isNotEmpty()));
        loginRow.managedProperty().bind(loginRow.visibleProperty());
        Label steps = new Label(Text.t("ui.credential.steps"));
        steps.getStyleClass().add("muted");
        steps.setWrapText(true);
        Label waiting = Widgets.line(vm.waitingKeysProperty(), "credential-waiting");
        waiting.setId("credential-waiting-keys");
        // with "Log in…" offered, the browser-and-paste steps shrink to its one fallback line; both are about
        // cookies (the login window captures cookies): for a token or a header the formats line says what to paste
        steps.visibleProperty().bind(loginOffered.not().and(cookie()));
        steps.managedProperty().bind(steps.visibleProperty());
        // "Log in…" captures cookies: for another type its row says where that login goes instead, and keeps its
        // place, so that the fields below stay where they are when the type changes
        loginBar.visibleProperty().bind(cookie());
        Label pasteBelow = new Label(Text.t("ui.credential.loginCookiesOnly"));
        pasteBelow.setId("credential-login-cookies-only");
        pasteBelow.getStyleClass().add("muted");
        pasteBelow.setWrapText(true);
        pasteBelow.visibleProperty().bind(cookie().not());
        StackPane loginPlace = new StackPane(loginBar, pasteBelow);
        loginPlace.setAlignment(Pos.CENTER_LEFT);
        loginPlace.visibleProperty().bind(loginOffered);
        loginPlace.managedProperty().bind(loginOffered);
        VBox top = new VBox(6, title, current, waiting, loginRow, loginPlace, steps, grid, nameError);
        logIn.setId("credential-login");
        logIn.setMinWidth(Region.USE_PREF_SIZE);
        logIn.getStyleClass().add(Styles.ACCENT);
        logIn.setTooltip(new javafx.scene.control.Tooltip(Text.t("ui.credential.logInTip")));
        logIn.disableProperty().bind(vm.shownNameErrorProperty().isNotEmpty().or(vm.busyProperty()));
        Label loginLine = new Label(loginLine());
        loginLine.getStyleClass().add("muted");
        loginLine.setWrapText(true);
        loginBar.getChildren().setAll(logIn, loginLine);
        loginBar.setAlignment(Pos.CENTER_LEFT);
        return top;
    }

    /**
     * The type's box, as wide as its widest type from the start and whichever is chosen: a combo box takes its list's
     * width only once the list was first opened, and it widened then (7 px), moving the fields beside it; and a chosen
     * type longer than the one before was cut while the row kept its width.
     */
    private static final class TypeBox extends ComboBox<CredentialType> {
        /** Measured once, in the shown window (styled), with room for the thicker border of a focused box. */
        private double width = -1;

        @Override
        protected double computePrefWidth(double height) {
            if (width >= 0) {
                return width;
            }
            if (getSkin() == null || getConverter() == null || getScene() == null || getScene().getWindow() == null
                    || !getScene().getWindow().isShowing()
                    || !(lookup(".list-cell") instanceof javafx.scene.control.ListCell<?> cell)
                    || !(lookup(".arrow-button") instanceof Region arrow)) {
                return super.computePrefWidth(height);
            }
            // the widest words, with the box's and its button's padding and the arrow beside them (not the list's
            // width, which is known only once the list was opened)
            double widest = 0;
            for (CredentialType t : getItems()) {
                widest = Math.max(widest, textWidth(getConverter().toString(t), cell.getFont()));
            }
            width = Math.ceil(snappedLeftInset() + snappedRightInset() + cell.snappedLeftInset()
                    + cell.snappedRightInset() + cell.getLabelPadding().getLeft() + cell.getLabelPadding().getRight()
                    + widest + arrow.prefWidth(-1) + 12);
            return width;
        }

        private static double textWidth(String s, javafx.scene.text.Font font) {
            javafx.scene.text.Text t = new javafx.scene.text.Text(s == null ? "" : s);
            t.setFont(font);
            return t.getLayoutBounds().getWidth();
        }
    }

    // ---------------------------------------------------------------- body: input and preview

    private VBox body() {
        input.promptTextProperty().bind(Bindings.createStringBinding(() -> prompt(vm.input().typeProperty().get()),
                vm.input().typeProperty()));
        Label formats = new Label();
        formats.setId("credential-formats");
        formats.textProperty().bind(Bindings.createStringBinding(() -> formats(vm.input().typeProperty().get()),
                vm.input().typeProperty()));
        formats.getStyleClass().addAll("muted", Styles.TEXT_SMALL);
        formats.setWrapText(true);
        formats.setMinHeight(Region.USE_PREF_SIZE);
        input.setWrapText(false);
        input.getStyleClass().addAll("code", "credential-input");
        input.setPrefRowCount(7);
        input.textProperty().bindBidirectional(vm.input().textProperty());

        // A file's content is not echoed on screen: a note covers the box until it is cleared or typed over.
        Label fileNote = new Label();
        fileNote.getStyleClass().add("credential-file-note");
        fileNote.textProperty().bind(Bindings.createStringBinding(
                () -> Text.t("ui.credential.fileLoaded", vm.input().loadedFileProperty().get()),
                vm.input().loadedFileProperty()));
        Button clear = new Button(Text.t("ui.credential.clear"));
        clear.getStyleClass().addAll(Styles.SMALL, Styles.FLAT);
        clear.setOnAction(e -> {
            vm.input().clear();
            input.requestFocus();
        });
        HBox cover = new HBox(8, fileNote, clear);
        cover.setAlignment(Pos.CENTER);
        cover.getStyleClass().add("credential-file-cover");
        cover.visibleProperty().bind(vm.input().loadedFileProperty().isNotEmpty());
        cover.setMouseTransparent(false);
        cover.setOnMouseClicked(e -> {
            vm.input().clear();
            input.requestFocus();
        });
        // what was pasted stays visible as a masked echo over the masked box: names and lengths, no value
        Label echo = new Label();
        echo.setId("credential-echo");
        echo.getStyleClass().addAll("credential-echo", "code");
        echo.setWrapText(true);
        echo.setMouseTransparent(true);
        echo.textProperty().bind(vm.input().readingProperty().map(CredentialInput.Reading::masked));
        StackPane.setAlignment(echo, Pos.TOP_LEFT);
        StackPane inputStack = new StackPane(input, echo, cover);
        installDrop(inputStack);

        // What is pasted is a secret: the box shows it masked (like a password field) unless the
        // operator asks to see it.
        input.getStyleClass().add("masked");
        javafx.scene.control.ToggleButton reveal = new javafx.scene.control.ToggleButton(Text.t("ui.credential.show"));
        reveal.setId("credential-reveal");
        reveal.getStyleClass().addAll(Styles.SMALL);
        reveal.selectedProperty().addListener((o, a, shown) -> {
            input.getStyleClass().remove("masked");
            if (!shown) {
                input.getStyleClass().add("masked");
            }
        });
        echo.visibleProperty().bind(reveal.selectedProperty().not().and(vm.input().loadedFileProperty().isEmpty()));
        Label length = new Label();
        length.getStyleClass().addAll("muted", Styles.TEXT_SMALL);
        length.textProperty().bind(Bindings.createStringBinding(() -> {
            String t = vm.input().textProperty().get();
            return t == null || t.isEmpty() ? "" : Text.t("ui.credential.lengthMasked", t.length());
        }, vm.input().textProperty()));
        Button open = new Button(Text.t("ui.credential.openFile"));
        open.setOnAction(e -> openFile());
        Label hint = new Label(Text.t("ui.credential.fileHint"));
        hint.getStyleClass().addAll("muted", Styles.TEXT_SMALL);
        hint.visibleProperty().bind(cookie()); // names cookie files
        hint.managedProperty().bind(cookie());
        HBox inputBar = new HBox(8, open, hint, Widgets.grow(), length, reveal);
        inputBar.setAlignment(Pos.CENTER_LEFT);

        Label parseError = Widgets.line(vm.input().readingProperty().map(CredentialInput.Reading::parseError),
                "error-text", "inline-validation", "credential-parse-error");

        Label dropped = Widgets.line(vm.input().readingProperty().map(CredentialInput.Reading::dropped),
                "warning-text", "credential-dropped");

        Label summary = new Label();
        summary.getStyleClass().add("credential-summary");
        summary.textProperty().bind(vm.input().readingProperty().map(CredentialInput.Reading::summary));
        Widgets.collapseWhenEmpty(summary);

        TableView<CredentialInput.CookieRow> preview = LoginParts.table(vm.input().preview(),
                Text.t("ui.credential.previewEmpty"));
        preview.setPrefHeight(180);
        // a token or a header has a name, a value and the hosts it goes to; a path, flags and an expiry are a
        // cookie's
        preview.getColumns().stream().skip(3).forEach(c -> c.visibleProperty().bind(cookie()));
        if (preview.getPlaceholder() instanceof Label empty) {
            empty.textProperty().bind(Bindings.when(cookie()).then(Text.t("ui.credential.previewEmpty"))
                    .otherwise(Text.t("ui.credential.previewEmptyOther")));
        }
        VBox.setVgrow(preview, Priority.ALWAYS);

        // as tall as the longest of the types' words, so that the box below does not move as the type changes
        StackPane formatsPlace = new StackPane();
        for (CredentialType t : CredentialType.values()) {
            Label room = new Label(formats(t));
            room.getStyleClass().addAll("muted", Styles.TEXT_SMALL);
            room.setWrapText(true);
            room.setMinHeight(Region.USE_PREF_SIZE);
            room.setVisible(false);
            formatsPlace.getChildren().add(room);
        }
        formatsPlace.getChildren().add(formats);
        formatsPlace.setAlignment(Pos.TOP_LEFT);

        VBox box = new VBox(8, formatsPlace, inputStack, inputBar, parseError, dropped, summary, preview);
        return box;
    }

    private void installDrop(StackPane target) {
        target.addEventFilter(DragEvent.DRAG_OVER, e -> {
            if (e.getDragboard().hasFiles() || e.getDragboard().hasString()) {
                e.acceptTransferModes(TransferMode.COPY);
                target.getStyleClass().remove("drop-target");
                target.getStyleClass().add("drop-target");
            }
            e.consume();
        });
        target.addEventFilter(DragEvent.DRAG_EXITED, e -> target.getStyleClass().remove("drop-target"));
        target.addEventFilter(DragEvent.DRAG_DROPPED, e -> {
            Dragboard db = e.getDragboard();
            boolean ok = false;
            if (db.hasFiles() && !db.getFiles().isEmpty()) {
                vm.loadFile(db.getFiles().get(0).toPath());
                ok = true;
            } else if (db.hasString()) {
                vm.input().textProperty().set(db.getString());
                ok = true;
            }
            target.getStyleClass().remove("drop-target");
            e.setDropCompleted(ok);
            e.consume();
        });
    }

    private void openFile() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(Text.t("ui.credential.chooserTitle"));
        chooser.getExtensionFilters().addAll(
                new FileChooser.ExtensionFilter(Text.t("ui.credential.cookieExports"), "*.txt", "*.json"),
                new FileChooser.ExtensionFilter(Text.t("ui.credential.allFiles"), "*"));
        File f = chooser.showOpenDialog(Widgets.windowOf(root));
        if (f != null) {
            vm.loadFile(f.toPath());
        }
    }

    // ---------------------------------------------------------------- footer: outcome and buttons

    private VBox footer() {
        Label message = Widgets.line(vm.messageProperty(), "credential-message");
        Widgets.pseudo(message, javafx.css.PseudoClass.getPseudoClass("waiting"), vm.messageWaitsProperty());
        Widgets.pseudo(message, javafx.css.PseudoClass.getPseudoClass("busy"), vm.busyProperty());
        Label error = Widgets.line(vm.errorProperty(), "error-text");
        Label testSummary = Widgets.line(vm.probes().summaryProperty());
        VBox testLines = LoginParts.testLines(vm.probes().lines());

        CheckBox run = new CheckBox(Text.t("ui.credential.runNow"));
        run.selectedProperty().bindBidirectional(vm.runResumedProperty());

        ProgressIndicator spinner = Widgets.spinner(vm.busyProperty());

        Button test = new Button(Text.t("ui.credential.test"));
        test.setTooltip(new javafx.scene.control.Tooltip(Text.t("ui.credential.testTip")));
        test.disableProperty().bind(vm.busyProperty().or(vm.shownNameErrorProperty().isNotEmpty()));
        test.setOnAction(e -> vm.test());

        Button save = new Button(Text.t("ui.credential.save"));
        save.setDefaultButton(true);
        save.getStyleClass().add(Styles.ACCENT);
        save.disableProperty().bind(vm.canSaveProperty().not());
        save.setOnAction(e -> vm.save());

        Button anyway = LoginParts.saveAnyway(vm, Text.t("ui.credential.saveAnywayTip"), vm::saveAnyway);
        anyway.setId("credential-save-anyway");

        HBox buttons = Widgets.bar(run, spinner, test, Widgets.closeButton(root), anyway, plans, save);
        return new VBox(8, message, error, testSummary, testLines, buttons);
    }

    private static Label label(String text) {
        Label l = new Label(text);
        l.setMinWidth(Region.USE_PREF_SIZE);
        l.getStyleClass().add("muted");
        return l;
    }

}
