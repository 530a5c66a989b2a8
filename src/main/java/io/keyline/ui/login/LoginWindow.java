package io.keyline.ui.login;

import atlantafx.base.theme.Styles;
import io.keyline.core.operations.LoginUrl;
import io.keyline.credentials.CookieRouting;
import io.keyline.credentials.LoginCookieJar;
import io.keyline.text.Text;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Theme;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.Widgets;
import io.keyline.ui.credentials.CredentialInput;
import io.keyline.ui.credentials.CredentialViewModel;
import io.keyline.ui.credentials.LoginParts;
import javafx.beans.binding.Bindings;
import javafx.concurrent.Worker;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.scene.web.WebEngine;
import javafx.scene.web.WebHistory;
import javafx.scene.web.WebView;
import javafx.stage.Stage;
import javafx.stage.Window;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A browser window inside Keyline to log in on a site's own page: the operator logs in,
 * the cookies of the credential's domains are captured into a private jar and shown masked, and
 * "Use these cookies" stores them through the renew dialog's path.
 *
 * <p>The web engine (javafx.web, WebKit) is loaded only when this class is first used, never for the
 * console's first frame. While the window is open its {@link LoginCookieJar} receives the process's
 * cookies ({@link CookieRouting}) and WebKit keeps its local storage and databases in a temporary
 * 0700 folder; when it closes, the previous cookie handler is back, the jar is emptied and the folder
 * is deleted. Nothing of the page is stored; the window title never carries a value.
 */
public final class LoginWindow {

    static String fallback() {
        return Text.t("ui.login.fallback");
    }

    /** The browser folders are {@code keyline-login-PID-random} in the temporary folder. */
    static final String PREFIX = "keyline-login-";

    private final LoginViewModel vm;
    private final LoginCookieJar jar = new LoginCookieJar();
    private Thread cleanup;
    private final BorderPane root = new BorderPane();
    private final StackPane page = new StackPane();
    private final Label loadError = new Label();
    private Stage stage;
    private WebView web;
    private CookieRouting.Route route;
    private Path dataDir;
    private boolean closed;

    private LoginWindow(LoginViewModel vm, java.util.function.Consumer<String> plan) {
        this.vm = vm;
        root.getStyleClass().add("login-window");
        root.setTop(header());
        root.setCenter(page);
        root.setBottom(footer(plan));
    }

    /**
     * Opens a login window over {@code owner} for credential {@code name}.
     *
     * @param credential the renew dialog's view model, so that its outcome line reports the save too; {@code null}
     *                   opens one of its own (from an attention item)
     * @param onChanged  runs after the cookies were stored and after the resumed keys ran
     * @param plan       opens the plan of a job whose resumed keys wait for its review (this window closes first),
     *                   or {@code null}
     */
    public static LoginWindow show(Window owner, ConsoleServices services, Threads threads, CredentialViewModel credential,
                                   String name, Runnable onChanged, java.util.function.Consumer<String> plan) {
        CredentialViewModel c = credential;
        if (c == null) {
            c = new CredentialViewModel(services, threads);
            c.open(name);
        }
        Widgets.onTrue(c.savedProperty(), onChanged);
        if (onChanged != null) {
            c.completedCountProperty().addListener((o, a, b) -> onChanged.run());
        }
        LoginViewModel vm = new LoginViewModel(services, threads, c, name);
        LoginWindow w = new LoginWindow(vm, plan);
        w.open(owner, threads);
        return w;
    }

    private void open(Window owner, Threads threads) {
        stage = Theme.dialog(owner, root, 1100, 860, 760, 560);
        stage.getScene().getStylesheets().add(css());
        stage.setTitle(Text.t("ui.login.windowTitle", vm.credentialName()));
        stage.setOnHidden(e -> close());
        try {
            route = CookieRouting.to(jar);
        } catch (IllegalStateException e) {
            loadError.setText(Text.t("ui.login.secondWindow", e.getMessage()));
            page.getChildren().setAll(loadError);
            stage.show();
            return;
        }
        try {
            dataDir = Files.createTempDirectory(PREFIX + ProcessHandle.current().pid() + "-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            // a console that is stopped (SIGTERM, the end of the session) deletes the folder on its way out;
            // one that was killed left its folder behind: the next login window removes it
            cleanup = new Thread(this::deleteDataDir, "keyline-login-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanup);
            sweepLeftovers(dataDir.getParent());
        } catch (IOException | UnsupportedOperationException e) {
            route.close();
            loadError.setText(Text.t("ui.login.noFolder", e.getMessage()));
            page.getChildren().setAll(loadError);
            stage.show();
            return;
        }
        web = new WebView();
        web.setId("login-web");
        pageControlsLight(web);
        WebEngine engine = web.getEngine();
        engine.setUserDataDirectory(dataDir.toFile());
        // a popup (an SSO provider's window) opens in this same view: its cookies land in the same private jar
        engine.setCreatePopupHandler(features -> engine);
        engine.locationProperty().addListener((o, a, b) -> vm.navigated(b));
        engine.getLoadWorker().stateProperty().addListener((o, a, b) -> {
            if (b == Worker.State.FAILED) {
                Throwable ex = engine.getLoadWorker().getException();
                loadError.setText(Text.t("ui.login.loadFailed", ex == null || ex.getMessage() == null
                        ? Text.t("ui.login.noAnswer") : io.keyline.domain.Printable.line(ex.getMessage()), fallback()));
            } else if (b == Worker.State.RUNNING) {
                loadError.setText("");
            }
        });
        jar.onChange(() -> threads.ui(() -> {
            if (!closed) {
                vm.cookiesChanged(jar.cookies());
            }
        }));
        page.getChildren().setAll(web, loadError);
        StackPane.setAlignment(loadError, Pos.TOP_CENTER);
        vm.loginUrlProperty().addListener((o, a, b) -> {
            if (b != null && !b.isEmpty()) {
                engine.load(b);
            }
        });
        stage.show();
        vm.open();
    }

    /**
     * WebKit draws the page's own form controls (buttons, fields) with JavaFX controls kept under the WebView, so they
     * took the console's dark theme and showed dark buttons with dark text on the page's white background. The WebView
     * gets the light theme's colours instead (the {@code .root} block of AtlantaFX's Primer Light, as a stylesheet of
     * its own): the page looks as it does in any browser, whatever the console's theme.
     */
    static void pageControlsLight(WebView web) {
        String light = lightColours();
        if (light != null) {
            web.getStylesheets().add("data:text/css;base64," + java.util.Base64.getEncoder()
                    .encodeToString(light.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
    }

    private static String lightColours;

    /** Primer Light's colour variables, as a rule for the WebView; null if the theme's stylesheet is not found. */
    static synchronized String lightColours() {
        if (lightColours == null) {
            try (var in = atlantafx.base.theme.PrimerLight.class
                    .getResourceAsStream("/atlantafx/base/theme/primer-light.css")) {
                String css = in == null ? "" : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                int start = css.indexOf(".root {");
                int end = start < 0 ? -1 : css.indexOf('}', start);
                lightColours = end < 0 ? "" : ".web-view " + css.substring(".root ".length() + start, end + 1);
            } catch (IOException e) {
                lightColours = "";
            }
        }
        return lightColours.isEmpty() ? null : lightColours;
    }

    private static String css() {
        return LoginWindow.class.getResource("/io/keyline/ui/login.css").toExternalForm();
    }

    /** The window closed: the previous cookie handler is back, the jar is empty and the browser's folder is gone. */
    private void close() {
        if (closed) {
            return;
        }
        closed = true;
        jar.onChange(null);
        if (web != null) {
            web.getEngine().load("about:blank");
            page.getChildren().clear();
        }
        if (route != null) {
            route.close();
        }
        jar.clear();
        vm.closed();
        deleteDataDir();
        if (cleanup != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs (and finds nothing left to delete)
            }
        }
    }

    /** Deletes the browser folders of login windows whose process is gone (killed before it could clean up). */
    static void sweepLeftovers(Path tmp) {
        long self = ProcessHandle.current().pid();
        try (Stream<Path> dirs = Files.list(tmp)) {
            for (Path d : dirs.toList()) {
                String n = d.getFileName().toString();
                if (!n.startsWith(PREFIX) || !Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                String rest = n.substring(PREFIX.length());
                int dash = rest.indexOf('-');
                if (dash <= 0 || !rest.substring(0, dash).chars().allMatch(Character::isDigit)) {
                    continue;
                }
                long pid = Long.parseLong(rest.substring(0, dash));
                if (pid == self || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    continue; // this console's own window, or another console's open one
                }
                deleteTree(d);
            }
        } catch (IOException | RuntimeException e) {
            // another user's folder, a race with its owner: nothing to do here
        }
    }

    private void deleteDataDir() {
        if (dataDir == null || !Files.exists(dataDir)) {
            return;
        }
        try {
            deleteTree(dataDir);
        } catch (IOException e) {
            System.err.println(Text.t("ui.login.folderNotDeleted", dataDir, e.getMessage()));
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    // ---------------------------------------------------------------- for tests and the view

    public LoginViewModel viewModel() {
        return vm;
    }

    public Stage stage() {
        return stage;
    }

    /** The browser's private folder (deleted when the window closes), or {@code null}. */
    public Path dataDirectory() {
        return dataDir;
    }

    /** The browser, or {@code null} when the window could not open one. */
    public WebEngine engine() {
        return web == null ? null : web.getEngine();
    }

    public Parent root() {
        return root;
    }

    // ---------------------------------------------------------------- layout

    private VBox header() {
        Label title = new Label(Text.t("ui.login.title", vm.credentialName()));
        title.getStyleClass().add("page-title");
        Label status = new Label();
        status.setId("login-status");
        status.setWrapText(true);
        status.textProperty().bind(vm.statusProperty());
        Label error = Widgets.line(vm.errorProperty(), "error-text");

        Button back = new Button("←");
        back.setId("login-back");
        back.setTooltip(new Tooltip(Text.t("ui.login.back")));
        back.getStyleClass().add(Styles.FLAT);
        back.setOnAction(e -> {
            WebHistory h = web == null ? null : web.getEngine().getHistory();
            if (h != null && h.getCurrentIndex() > 0) {
                h.go(-1);
            }
        });
        Button reload = new Button("⟳");
        reload.setId("login-reload");
        reload.setTooltip(new Tooltip(Text.t("ui.login.reload")));
        reload.getStyleClass().add(Styles.FLAT);
        reload.setOnAction(e -> {
            if (web != null) {
                web.getEngine().reload();
            }
        });
        Label lock = new Label();
        lock.setId("login-lock");
        lock.textProperty().bind(vm.addressProperty().map(a -> a.secure() ? Text.t("ui.login.lockSecure")
                : Text.t("ui.login.lockInsecure")));
        Widgets.shownWhen(lock, vm.addressProperty().map(a -> !a.origin().isEmpty()));
        vm.addressProperty().addListener((o, a, b) -> styleLock(lock, b.secure()));
        styleLock(lock, false);
        Tooltip lockTip = new Tooltip();
        lockTip.textProperty().bind(vm.addressProperty().map(LoginUrl.Origin::security));
        lock.setTooltip(lockTip);
        TextField address = new TextField();
        address.setId("login-address");
        address.setEditable(false);
        address.setFocusTraversable(false);
        address.getStyleClass().add("login-address");
        address.textProperty().bind(vm.addressProperty().map(LoginUrl.Origin::origin));
        HBox.setHgrow(address, Priority.ALWAYS);
        HBox bar = new HBox(6, back, reload, lock, address);
        bar.setAlignment(Pos.CENTER_LEFT);

        Label domains = Widgets.line(Bindings.createStringBinding(() -> vm.domains().isEmpty() ? ""
                : Text.t("ui.login.domains", vm.credentialName(), String.join(Text.t("common.listSeparator"), vm.domains())),
                vm.domains()));
        domains.setId("login-domains");
        domains.getStyleClass().addAll("muted", Styles.TEXT_SMALL);

        VBox top = new VBox(6, title, status, error, urlPrompt(), bar, domains);
        top.setPadding(new Insets(12, 16, 8, 16));
        return top;
    }

    private static void styleLock(Label lock, boolean secure) {
        lock.getStyleClass().removeAll("login-secure", "login-insecure");
        lock.getStyleClass().add(secure ? "login-secure" : "login-insecure");
    }

    /** Without a stored login page: the address to open, and whether to remember it. */
    private VBox urlPrompt() {
        Label ask = new Label(Text.t("ui.login.askUrl", vm.credentialName()));
        TextField url = Widgets.field(vm.urlInputProperty(), Text.t("ui.login.urlPrompt"));
        url.setId("login-url-input");
        HBox.setHgrow(url, Priority.ALWAYS);
        Button go = new Button(Text.t("ui.login.open"));
        go.setId("login-url-open");
        go.setDefaultButton(true);
        go.disableProperty().bind(vm.needsUrlProperty().not());
        go.setOnAction(e -> vm.submitUrl());
        url.setOnAction(e -> vm.submitUrl());
        CheckBox remember = new CheckBox(Text.t("ui.login.remember", vm.credentialName()));
        remember.selectedProperty().bindBidirectional(vm.rememberUrlProperty());
        Label error = new Label();
        error.getStyleClass().addAll("error-text", "inline-validation");
        error.textProperty().bind(vm.urlErrorProperty());
        Widgets.collapseWhenEmpty(error);
        HBox line = new HBox(8, url, go);
        VBox box = new VBox(6, ask, line, remember, error);
        box.getStyleClass().add("login-url-prompt");
        return Widgets.shownWhen(box, vm.needsUrlProperty());
    }

    private VBox footer(java.util.function.Consumer<String> plan) {
        TableView<CredentialInput.CookieRow> preview = LoginParts.table(vm.preview(), Text.t("ui.login.previewEmpty"));
        preview.setId("login-preview");
        preview.setPrefHeight(120);
        preview.setMinHeight(90);

        Label discarded = Widgets.line(vm.discardedProperty());
        discarded.setId("login-discarded");
        discarded.getStyleClass().addAll("muted", Styles.TEXT_SMALL);

        Label testSummary = Widgets.line(vm.probes().summaryProperty());
        testSummary.setId("login-test-summary");
        VBox testLines = LoginParts.testLines(vm.probes().lines());

        CredentialViewModel c = vm.credential();
        Label message = Widgets.line(c.messageProperty(), "credential-message");
        Widgets.pseudo(message, javafx.css.PseudoClass.getPseudoClass("waiting"), c.messageWaitsProperty());
        Widgets.pseudo(message, javafx.css.PseudoClass.getPseudoClass("busy"), c.busyProperty());
        message.setId("login-message");
        Label error = Widgets.line(c.errorProperty(), "error-text");

        Label fallback = new Label(fallback());
        fallback.getStyleClass().addAll("muted", Styles.TEXT_SMALL);
        fallback.setWrapText(true);

        ProgressIndicator spinner = Widgets.spinner(c.busyProperty().or(vm.busyProperty()));
        Button test = Widgets.button("login-test", Text.t("ui.login.test"), e -> vm.test());
        test.setTooltip(new Tooltip(Text.t("ui.login.testTip", vm.credentialName())));
        test.disableProperty().bind(vm.canUseProperty().not());
        Button use = Widgets.button("login-use", Text.t("ui.login.use"), e -> vm.use(), Styles.ACCENT);
        use.disableProperty().bind(vm.canUseProperty().not());
        // offered only after the cookies were refused because the site had just rejected them
        Button anyway = LoginParts.saveAnyway(c, Text.t("ui.login.saveAnywayTip", vm.credentialName()), vm::saveAnyway);
        anyway.setId("login-save-anyway");
        Button close = new Button(Text.t("common.close"));
        // not a cancel button: Escape belongs to the page (a site's own dialog), not to closing the login
        close.setOnAction(e -> stage.close());
        HBox plans = io.keyline.ui.credentials.LoginParts.planButtons(c, plan == null ? null : job -> {
            stage.close();
            plan.accept(job);
        });
        HBox buttons = Widgets.bar(fallback, spinner, test, close, anyway, plans, use);
        HBox.setHgrow(fallback, Priority.SOMETIMES);

        VBox bottom = new VBox(6, preview, discarded, testSummary, testLines, message, error, buttons);
        bottom.setPadding(new Insets(8, 16, 12, 16));
        return bottom;
    }
}
