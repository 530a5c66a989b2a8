package io.keyline.ui.shell;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import atlantafx.base.theme.Styles;
import io.keyline.core.SchedulerControl;
import io.keyline.text.Text;
import io.keyline.ui.Navigator;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Listen;
import io.keyline.ui.common.Palette;
import io.keyline.ui.common.Theme;
import io.keyline.ui.common.Tips;
import io.keyline.ui.common.Toasts;
import io.keyline.ui.common.Widgets;
import io.keyline.ui.confirm.ConfirmDialog;
import io.keyline.ui.credentials.CredentialDialog;
import io.keyline.ui.credentials.CredentialsView;
import io.keyline.ui.credentials.CredentialsViewModel;
import io.keyline.ui.inbox.InboxView;
import io.keyline.ui.inbox.InboxViewModel;
import io.keyline.ui.job.JobView;
import io.keyline.ui.job.JobViewModel;
import io.keyline.ui.plan.PlanDialog;
import io.keyline.ui.timeline.TimelineView;
import io.keyline.ui.timeline.TimelineViewModel;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Application;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.Window;
import javafx.util.Duration;

import java.util.List;
import java.util.Objects;

/**
 * The main window: a sidebar (Attention inbox with its count, the jobs, Credentials, running
 * keys), the page in the middle, and a status bar. Implements {@link Navigator} for the pages.
 */
public final class ConsoleView extends BorderPane implements Navigator {

    /** How often the console re-reads the state (other processes change it too). */
    static final Duration REFRESH = Duration.seconds(3);

    private final ConsoleViewModel vm;
    private final InboxViewModel inboxVm;
    private final InboxView inbox;
    private final SchedulerViewModel schedulerVm;
    // Pages that are not on the first screen are built when first shown (fast start).
    private JobViewModel jobVm;
    private JobView jobView;
    private CredentialsViewModel credentialsVm;
    private CredentialsView credentialsView;
    // the Workers page, and refreshes announced by other processes (PostgreSQL LISTEN/NOTIFY)
    private io.keyline.ui.workers.WorkersView workersView;
    private final Button workersButton = new Button(Text.t("ui.workers.title"));
    private AutoCloseable changes;
    private final java.util.concurrent.atomic.AtomicBoolean changePending = new java.util.concurrent.atomic.AtomicBoolean();
    private final StackPane page = new StackPane();
    private final Toasts toasts = new Toasts(Duration.seconds(10));
    private final Button inboxButton = new Button(Text.t("ui.nav.attention"));
    private final Button credentialsButton = new Button(Text.t("ui.credentials.title"));
    private final ListView<Snapshot.JobSummary> jobList = new ListView<>();
    private final Timeline ticker;
    private boolean dark;
    private boolean notificationsEnabled = true;
    /** The job whose page is open (its timeline too, where Back goes), or {@code null}; the sidebar marks it. */
    private final javafx.beans.property.StringProperty shownJob = new javafx.beans.property.SimpleStringProperty();
    /** The Back button of the timeline on screen, or {@code null}: Esc and Alt+Left press it. */
    private Button timelineBack;

    public ConsoleView(ConsoleViewModel vm) {
        this(vm, new SchedulerViewModel(vm.services().scheduler(), vm.threads(), vm.services().clock()));
    }

    /** The console on {@code vm} and {@code schedulerVm} (a language switch builds it again on the same ones). */
    private ConsoleView(ConsoleViewModel vm, SchedulerViewModel schedulerVm) {
        this.vm = vm;
        this.inboxVm = new InboxViewModel(vm);
        this.inbox = new InboxView(inboxVm, this, () -> vm.services().clock().instant());
        this.schedulerVm = schedulerVm;
        setId("console");
        getStyleClass().add("console");
        setLeft(sidebar());
        VBox.setVgrow(page, Priority.ALWAYS);
        // the banner and the notes sit under the page, above the status bar: when they appear or go, the
        // page's top (the Attention list's rows, their buttons) stays where the pointer is; only the page's
        // bottom edge moves
        VBox center = new VBox(page, schedulerBanner(), toasts);
        VBox.setMargin(toasts, new Insets(0, 24, 10, 24));
        setCenter(center);
        setBottom(statusBar());
        vm.onNewAttention(this::notifyAttention);
        schedulerVm.onRan(text -> notify(Note.INFO, Text.t("ui.console.scheduler"), text, null, null));
        schedulerVm.onUpcoming(text -> notify(Note.INFO, Text.t("ui.console.scheduler"), text,
                Text.t("ui.console.pauseScheduler"), schedulerVm::toggle));
        ticker = new Timeline(new KeyFrame(REFRESH, e -> refresh()));
        ticker.setCycleCount(Timeline.INDEFINITE);
        sceneProperty().addListener((o, a, s) -> {
            if (s != null) {
                install(s);
                ticker.play();
                listenForChanges();
            } else {
                ticker.stop();
                stopListening();
            }
        });
        showInbox();
        vm.refresh();
        schedulerVm.refresh();
    }

    private JobView jobView() {
        if (jobView == null) {
            jobVm = new JobViewModel(vm.services(), vm.threads());
            jobView = new JobView(jobVm, this);
        }
        return jobView;
    }

    private CredentialsView credentialsView() {
        if (credentialsView == null) {
            credentialsVm = new CredentialsViewModel(vm.services(), vm.threads());
            credentialsView = new CredentialsView(credentialsVm, this);
        }
        return credentialsView;
    }

    /** The main window's view model (tests in this package wait for its reloads). */
    ConsoleViewModel model() {
        return vm;
    }

    /**
     * Refreshes when another process announces a change (PostgreSQL: within moments of its commit); the
     * 3 s poll stays as the fallback. Announcements that come while a refresh is queued are one refresh.
     */
    private void listenForChanges() {
        if (changes != null) {
            return;
        }
        try {
            changes = vm.services().operations().watch(() -> {
                if (changePending.compareAndSet(false, true)) {
                    vm.threads().ui(() -> {
                        changePending.set(false);
                        refresh();
                    });
                }
            });
        } catch (RuntimeException e) {
            changes = null; // the poll refreshes
        }
    }

    private void stopListening() {
        if (changes != null) {
            try {
                changes.close();
            } catch (Exception ignored) {
                // a listener thread that is gone already
            }
            changes = null;
        }
    }

    private io.keyline.ui.workers.WorkersView workersView() {
        if (workersView == null) {
            workersView = new io.keyline.ui.workers.WorkersView(
                    new io.keyline.ui.workers.WorkersViewModel(vm.services(), vm.threads()));
        }
        return workersView;
    }

    private void showWorkers() {
        shownJob.set(null);
        select(workersButton);
        show(workersView());
        workersView().refresh();
    }

    /** Turns desktop notifications off (tests). */
    public void notifications(boolean on) {
        notificationsEnabled = on;
    }

    /** Applies the theme and stylesheets, and the morning-routine shortcuts. */
    private void install(Scene scene) {
        applyTheme(scene);
        io.keyline.ui.common.Keys.install(scene);
        // back from a key's timeline: Esc, Alt+Left, or Backspace where it does not type
        for (KeyCodeCombination back : List.of(new KeyCodeCombination(KeyCode.ESCAPE),
                new KeyCodeCombination(KeyCode.LEFT, KeyCombination.ALT_DOWN),
                new KeyCodeCombination(KeyCode.BACK_SPACE))) {
            scene.getAccelerators().put(back, () -> {
                if (timelineBack != null && timelineBack.getScene() != null
                        && !(back.getCode() == KeyCode.BACK_SPACE
                        && io.keyline.ui.common.Keys.typesInto(scene.getFocusOwner()))) {
                    timelineBack.fire();
                }
            });
        }
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.J, KeyCombination.SHORTCUT_DOWN), () -> {
            showInbox();
            inbox.next();
        });
        // Ctrl+Enter acts only on an item visibly selected in the inbox on screen; anywhere else it does nothing
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.ENTER, KeyCombination.SHORTCUT_DOWN), () -> {
            if (page.getChildren().contains(inbox)) {
                inbox.actOnSelected();
            }
        });
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.F5), this::refresh);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.R, KeyCombination.SHORTCUT_DOWN), this::refresh);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.F, KeyCombination.SHORTCUT_DOWN), () -> {
            if (shownJob.get() != null) {
                jobView().focusSearch();
            }
        });
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.D, KeyCombination.SHORTCUT_DOWN), this::toggleTheme);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.DIGIT1, KeyCombination.SHORTCUT_DOWN), this::showInbox);
    }

    private void applyTheme(Scene scene) {
        Application.setUserAgentStylesheet(dark ? new PrimerDark().getUserAgentStylesheet()
                : new PrimerLight().getUserAgentStylesheet());
        for (String css : Theme.stylesheets()) {
            if (!scene.getStylesheets().contains(css)) {
                scene.getStylesheets().add(css);
            }
        }
        scene.getRoot().getStyleClass().remove(Theme.DARK);
        if (dark) {
            scene.getRoot().getStyleClass().add(Theme.DARK);
        }
        Palette.darkProperty().set(dark);
    }

    public void toggleTheme() {
        dark = !dark;
        if (getScene() != null) {
            applyTheme(getScene());
        }
    }

    private VBox sidebar() {
        Label brand = new Label(Text.t("ui.console.brand"));
        brand.getStyleClass().add("brand");

        inboxButton.setId("nav-inbox");
        inboxButton.getStyleClass().add("nav-button");
        Label inboxBadge = badge();
        inboxBadge.setId("attention-badge");
        inboxBadge.textProperty().bind(vm.attentionCountProperty().asString());
        // drawn from the count as it is now too: a console built again (another language) finds it already loaded
        Runnable quiet = () -> {
            inboxBadge.getStyleClass().remove("quiet");
            if (vm.attentionCountProperty().get() == 0) {
                inboxBadge.getStyleClass().add("quiet");
            }
        };
        Listen.toValue(this, vm.attentionCountProperty(), (o, a, b) -> quiet.run());
        quiet.run();
        inboxButton.setGraphic(null);
        inboxButton.setMaxWidth(Double.MAX_VALUE);
        inboxButton.setOnAction(e -> showInbox());
        HBox inboxRow = navRow(inboxButton, inboxBadge);

        Label jobsTitle = new Label(Text.t("ui.console.jobs"));
        jobsTitle.getStyleClass().add("section-title");
        jobList.setId("job-list");
        jobList.setItems(vm.jobs());
        jobList.setFixedCellSize(44);
        jobList.setCellFactory(lv -> new JobCell());
        jobList.setPlaceholder(new Label(Text.t("ui.console.noJobFiles", vm.services().jobsDir().toString())));
        jobList.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b != null && (!Objects.equals(b.name(), shownJob.get()) || jobView == null
                    || !page.getChildren().contains(jobView))) {
                showJob(b.name());
            }
        });
        VBox.setVgrow(jobList, Priority.ALWAYS);

        Label invalid = new Label();
        invalid.setId("invalid-jobs");
        invalid.getStyleClass().add("error-text");
        invalid.setWrapText(true);
        invalid.textProperty().bind(Bindings.createStringBinding(() -> vm.invalidJobFiles().isEmpty() ? ""
                : Text.t("ui.console.invalidJobFiles", vm.invalidJobFiles().size()),
                vm.invalidJobFiles()));
        Widgets.shownWhen(invalid, Bindings.isNotEmpty(vm.invalidJobFiles()));
        Tips.on(invalid, () -> String.join("\n", vm.invalidJobFiles().stream().map(Object::toString).toList()));

        credentialsButton.setId("nav-credentials");
        credentialsButton.getStyleClass().add("nav-button");
        credentialsButton.setMaxWidth(Double.MAX_VALUE);
        credentialsButton.setOnAction(e -> showCredentials());
        Label credBadge = badge();
        credBadge.setId("credential-badge");
        credBadge.getStyleClass().add("warning");
        credBadge.textProperty().bind(Bindings.createStringBinding(() -> "!", vm.alerts()));
        credBadge.visibleProperty().bind(Bindings.isNotEmpty(vm.alerts()));
        Tips.on(credBadge, () -> String.join("\n", vm.alerts().stream().map(a -> a.message()).toList()));
        HBox credRow = navRow(credentialsButton, credBadge);

        workersButton.setId("nav-workers");
        workersButton.getStyleClass().add("nav-button");
        workersButton.setMaxWidth(Double.MAX_VALUE);
        workersButton.setOnAction(e -> showWorkers());

        Label runningTitle = new Label(Text.t("ui.console.running"));
        runningTitle.getStyleClass().add("section-title");
        VBox running = new VBox(6);
        running.setId("running-keys");
        Runnable showRunning = () -> {
            running.getChildren().clear();
            for (Snapshot.RunningKey k : vm.running()) {
                Label l = new Label(k.job() + " " + k.key() + (k.step() == null ? "" : " · " + k.step()));
                l.getStyleClass().add("muted");
                if (k.owner() != null) {
                    // which process (on which machine) runs it: host/pid/nonce
                    Tips.on(l, Text.t("ui.console.runBy", io.keyline.domain.Printable.line(k.owner())));
                }
                ProgressBar bar = new ProgressBar(k.progress());
                bar.setMaxWidth(Double.MAX_VALUE);
                bar.getStyleClass().add(Styles.SMALL);
                running.getChildren().add(new VBox(2, l, bar));
            }
        };
        Listen.toList(this, vm.running(), c -> showRunning.run());
        showRunning.run();
        VBox runningBox = new VBox(2, runningTitle, running);
        Widgets.shownWhen(runningBox, Bindings.isNotEmpty(vm.running()));

        Button theme = new Button(Text.t("ui.console.theme"));
        theme.setId("theme-toggle");
        theme.getStyleClass().addAll("nav-button", Styles.FLAT);
        theme.setMaxWidth(Double.MAX_VALUE);
        Tips.on(theme, Text.t("ui.console.themeTip"));
        theme.setOnAction(e -> toggleTheme());

        VBox bar = new VBox(brand, inboxRow, jobsTitle, jobList, invalid, credRow, workersButton, runningBox, theme,
                languageSwitch());
        bar.getStyleClass().add("sidebar");
        bar.setPrefWidth(250);
        bar.setMinWidth(220);
        return bar;
    }

    /**
     * English / 中文, each in its own language: a click rebuilds the console in the other language on the
     * same page and keeps the choice for the next start.
     */
    private HBox languageSwitch() {
        HBox box = new HBox(4);
        for (java.util.Locale l : List.of(Text.ENGLISH, Text.CHINESE)) {
            boolean zh = l.equals(Text.CHINESE);
            // two buttons, each a stop of Tab; the language in use is the marked one
            Button b = new Button(Text.t(zh ? "ui.language.zh" : "ui.language.en"));
            b.setId(zh ? "language-zh" : "language-en");
            b.getStyleClass().add(Styles.SMALL);
            b.getStyleClass().add(zh == Text.chinese() ? Styles.ACCENT : Styles.FLAT);
            b.setAccessibleText(Text.t("ui.language.switch") + ": " + b.getText());
            Tips.on(b, Text.t("ui.language.switch"));
            b.setOnAction(e -> switchLanguage(l));
            box.getChildren().add(b);
        }
        box.setId("language-switch");
        box.setAccessibleText(Text.t("ui.language.switch"));
        box.setAlignment(Pos.CENTER_LEFT);
        box.setPadding(new Insets(4, 8, 4, 8));
        return box;
    }

    /**
     * Speaks {@code l} from now on: the console is built again in it, on the same page with the same theme,
     * and the switch keeps the keyboard focus.
     */
    void switchLanguage(java.util.Locale l) {
        if (Text.locale().getLanguage().equals(l.getLanguage())) {
            return;
        }
        io.keyline.ui.common.Language.choose(l);
        Scene scene = getScene();
        ConsoleView fresh = new ConsoleView(vm, schedulerVm);
        fresh.dark = dark;
        fresh.notificationsEnabled = notificationsEnabled;
        boolean credentials = credentialsView != null && page.getChildren().contains(credentialsView);
        boolean workers = workersView != null && page.getChildren().contains(workersView);
        String job = shownJob.get();
        if (scene != null) {
            scene.setRoot(fresh);
        }
        if (job != null) {
            fresh.showJob(job);
        } else if (credentials) {
            fresh.showCredentials();
        } else if (workers) {
            fresh.showWorkers();
        }
        boolean zh = Text.chinese();
        javafx.application.Platform.runLater(() -> {
            Node b = fresh.lookup(zh ? "#language-zh" : "#language-en");
            if (b != null) {
                b.requestFocus();
            }
        });
    }

    private static Label badge() {
        Label b = new Label();
        b.getStyleClass().add("badge");
        return b;
    }

    private static HBox navRow(Button button, Label badge) {
        HBox.setHgrow(button, Priority.ALWAYS);
        HBox row = new HBox(4, button, badge);
        row.setAlignment(Pos.CENTER_LEFT);
        row.setPadding(new Insets(0, 8, 0, 0));
        return row;
    }

    /** The least of the scheduler's sentence the status bar shows, its start and an ellipsis. */
    private static final double SENTENCE_MIN = 80;

    private HBox statusBar() {
        Label state = new Label(Text.t("ui.console.state", vm.services().stateDir().toString()));
        state.setId("status-state");
        Label scheduler = new Label();
        scheduler.setId("status-scheduler");
        scheduler.textProperty().bind(schedulerVm.textProperty());
        Tips.on(scheduler, schedulerVm.detailProperty()::get);
        Button schedulerToggle = new Button();
        schedulerToggle.setId("scheduler-toggle");
        schedulerToggle.getStyleClass().addAll(Styles.FLAT, Styles.SMALL);
        schedulerToggle.textProperty().bind(Bindings.createStringBinding(() ->
                schedulerVm.modeProperty().get() == SchedulerControl.Mode.PAUSED ? Text.t("ui.console.resumeScheduler") : Text.t("ui.console.pauseScheduler"),
                schedulerVm.modeProperty()));
        Widgets.shownWhen(schedulerToggle, schedulerVm.modeProperty().isNotEqualTo(SchedulerControl.Mode.OFF));
        schedulerToggle.setOnAction(e -> schedulerVm.toggle());
        Label refreshed = new Label();
        refreshed.setId("status-refreshed");
        refreshed.textProperty().bind(Bindings.createStringBinding(() -> vm.lastRefreshProperty().get() == null
                ? Text.t("ui.console.loading") : Text.t("ui.console.refreshed", Format.time(vm.lastRefreshProperty().get())),
                vm.lastRefreshProperty()));
        Label error = new Label();
        error.getStyleClass().add("error-text");
        error.textProperty().bind(vm.errorProperty());
        Label user = new Label(Text.t("ui.console.operator", vm.services().user()));
        // at 1024 px the state's path gives way with an ellipsis; the scheduler's sentence (whose end says when it
        // starts the next key, "(in 33 h)"), the button and the short labels keep their words
        for (javafx.scene.control.Control c : List.of(schedulerToggle, user, refreshed)) {
            c.setMinWidth(Region.USE_PREF_SIZE);
        }
        state.setMinWidth(60);
        HBox bar = new HBox(state, scheduler, schedulerToggle, Widgets.grow(), error, user, refreshed) {
            /** The sentence keeps its words while the path can give way, and past that gives way itself. */
            @Override
            protected void layoutChildren() {
                double others = snappedLeftInset() + snappedRightInset()
                        + getSpacing() * (getManagedChildren().size() - 1);
                for (Node n : getManagedChildren()) {
                    others += n == scheduler ? 0 : n == state ? state.minWidth(-1) : n.prefWidth(-1);
                }
                scheduler.setMinWidth(Math.max(SENTENCE_MIN, Math.min(scheduler.prefWidth(-1), getWidth() - others)));
                super.layoutChildren();
            }

            /** However long the sentence, the bar never asks for more than the window has. */
            @Override
            protected double computeMinWidth(double height) {
                return super.computeMinWidth(height) - scheduler.minWidth(-1) + SENTENCE_MIN;
            }
        };
        bar.getStyleClass().add("status-bar");
        bar.setAlignment(Pos.CENTER_LEFT);
        return bar;
    }

    private void show(Node n) {
        page.getChildren().setAll(n);
    }

    private void select(Button b) {
        inboxButton.getStyleClass().remove("selected");
        credentialsButton.getStyleClass().remove("selected");
        workersButton.getStyleClass().remove("selected");
        if (b != null) {
            b.getStyleClass().add("selected");
            jobList.getSelectionModel().clearSelection();
        }
    }

    @Override
    public void showInbox() {
        shownJob.set(null);
        select(inboxButton);
        show(inbox);
        // the keyboard goes on in the list (J/K, Enter, T) after a click in the sidebar or Ctrl+1, on the first
        // row when none was highlighted (to look at: nothing acts on it until the operator picks it)
        inbox.arrive();
        inbox.focusList();
    }

    @Override
    public void showJob(String job) {
        shownJob.set(job);
        select(null);
        JobView view = jobView();
        jobVm.load(job);
        vm.jobs().stream().filter(j -> j.name().equals(job)).findFirst()
                .ifPresent(j -> jobList.getSelectionModel().select(j));
        show(view);
        view.focusTable();
    }

    private void showCredentials() {
        shownJob.set(null);
        select(credentialsButton);
        CredentialsView view = credentialsView();
        credentialsVm.load();
        show(view);
    }

    @Override
    public void showTimeline(String job, String key) {
        // a click on the job in the sidebar then opens its page again (its row was still selected)
        jobList.getSelectionModel().clearSelection();
        TimelineViewModel tvm = new TimelineViewModel(vm.services(), vm.threads());
        TimelineView view = new TimelineView(tvm, this);
        tvm.load(job, key);
        Button back = new Button(Text.t("ui.console.back"));
        Tips.on(back, Text.t("ui.console.backTip"));
        timelineBack = back;
        back.setId("timeline-back");
        back.getStyleClass().add(Styles.FLAT);
        String returnTo = shownJob.get();
        back.setOnAction(e -> {
            if (returnTo != null) {
                showJob(returnTo);
            } else {
                showInbox();
            }
        });
        BorderPane wrapper = new BorderPane(view);
        wrapper.setTop(back);
        BorderPane.setMargin(back, new Insets(8, 0, 0, 16));
        show(wrapper);
    }

    @Override
    public void confirm(String job, String key) {
        ConfirmDialog.show(window(), vm.services(), vm.threads(), job, key, this::refresh, this::renewCredential,
                this::plan);
    }

    @Override
    public void showRetry(String job, List<io.keyline.core.operations.RetryAndSend.Send> sends,
                          java.util.function.Consumer<java.util.Map<String, String>> send) {
        io.keyline.ui.confirm.RetryDialog.show(window(), job, sends, send);
    }

    @Override
    public void renewCredential(String name) {
        CredentialDialog.show(window(), vm.services(), vm.threads(), name, this::refresh,
                (stage, credential) -> io.keyline.ui.login.LoginWindow.show(stage, vm.services(), vm.threads(),
                        credential, credential.nameProperty().get().strip(), null, job -> {
                            stage.hide(); // the Renew dialog under the login window
                            plan(job);
                        }), this::plan);
    }

    @Override
    public void logIn(String credential) {
        // the web engine loads here, on first use, never for the first frame
        io.keyline.ui.login.LoginWindow.show(window(), vm.services(), vm.threads(), null, credential, this::refresh,
                this::plan);
    }

    @Override
    public void plan(String job) {
        PlanDialog.show(window(), vm.services(), vm.threads(), job, null, this::refresh);
    }

    @Override
    public void plan(String job, List<String> keys) {
        PlanDialog.show(window(), vm.services(), vm.threads(), job, keys, this::refresh);
    }

    @Override
    public void refresh() {
        vm.refresh();
        schedulerVm.refresh();
        if (shownJob.get() != null && jobVm != null) {
            jobVm.reload();
        }
        if (credentialsView != null && page.getChildren().contains(credentialsView)) {
            credentialsVm.load();
        }
        if (workersView != null && page.getChildren().contains(workersView)) {
            workersView.refresh();
        }
    }

    private Window window() {
        return Widgets.windowOf(this);
    }

    private void notifyAttention(List<io.keyline.core.operations.Attention.Item> items) {
        String first = waits(items.get(0));
        String text = items.size() == 1 ? first : Text.t("ui.console.newAttention", items.size(), first);
        // Show opens Attention on the item the note is about
        String about = items.get(0).id();
        notify(Note.WARNING, Text.t("ui.console.needsAttention"), text, Text.t("ui.console.show"), () -> {
            showInbox();
            inbox.arriveAt(about);
        });
    }

    /**
     * One short line for a note: how many keys wait and for what ("3 keys of daily-article wait for the review").
     * The whole reason is the Attention card's; a note keeps to one line.
     */
    private static String waits(io.keyline.core.operations.Attention.Item item) {
        return switch (item.kind()) {
            case REVIEW -> Text.t("ui.console.waits.review", item.keys().size(), item.job());
            case CONFIRMATION -> Text.t("ui.console.waits.confirmation", item.firstJob(), item.key());
            case FAILED -> item.keys().size() == 1 ? Text.t("ui.console.waits.failedOne", item.firstJob(), item.key())
                    : Text.t("ui.console.waits.failed", item.keys().size(), item.job());
            case INTERRUPTED -> Text.t("ui.console.waits.interrupted", item.firstJob(), item.key());
            // "3 keys wait for a new login to site-cookie": the card's title says it in one line already
            case CREDENTIAL, MISSING -> item.title().replace("  ·  ", " ");
        };
    }

    /** A note in the console's own notification strip (it takes room; it never covers a control). */
    private void notify(Note kind, String title, String text, String action, Runnable onAction) {
        if (notificationsEnabled) {
            toasts.show(kind.name().toLowerCase(java.util.Locale.ROOT), title, text, action, onAction);
        }
    }

    /** The kinds of note, named as their style classes. */
    private enum Note { INFO, WARNING }

    /** The banner over the page while the scheduler is paused. */
    private HBox schedulerBanner() {
        Label text = new Label();
        text.setId("scheduler-banner-text");
        text.setWrapText(true);
        text.textProperty().bind(schedulerVm.bannerProperty());
        HBox.setHgrow(text, Priority.ALWAYS);
        text.setMaxWidth(Double.MAX_VALUE);
        Button resume = Widgets.button("scheduler-banner-resume", Text.t("ui.console.resumeScheduler"),
                e -> schedulerVm.toggle(), Styles.SMALL);
        Label icon = new Label(Text.t("ui.console.paused")); // a word: the pause glyph is missing from common fonts
        icon.setStyle("-fx-font-weight: bold;");
        icon.setMinWidth(Region.USE_PREF_SIZE);
        HBox banner = new HBox(10, icon, text, resume);
        banner.setId("scheduler-banner");
        banner.setAlignment(Pos.CENTER_LEFT);
        banner.getStyleClass().add("scheduler-banner");
        return Widgets.shownWhen(banner, schedulerVm.bannerProperty().isNotEmpty());
    }

    private static final javafx.css.PseudoClass OPEN = javafx.css.PseudoClass.getPseudoClass("open");

    private final class JobCell extends ListCell<Snapshot.JobSummary> {
        private final Label name = new Label();
        private final Label schedule = new Label();
        private final Label paused = badge();
        private final Label missing = badge();
        private final Label attention = badge();
        private final HBox root;
        private final javafx.beans.InvalidationListener markOpen = o -> markOpen();

        JobCell() {
            name.getStyleClass().add("job-name");
            schedule.getStyleClass().add("job-schedule");
            paused.setText(Text.t("ui.console.jobPaused"));
            paused.getStyleClass().add("paused");
            Tips.on(paused, () -> getItem() == null || !getItem().paused() ? null : getItem().pauseReason());
            missing.getStyleClass().add("missing");
            // the badges keep their text; a long job name (and schedule) is cut with an ellipsis instead,
            // and the row never asks for more than the list's width (no sideways scrolling)
            for (Label b : new Label[] {paused, missing, attention}) {
                b.setMinWidth(Region.USE_PREF_SIZE);
            }
            VBox texts = new VBox(1, name, schedule);
            texts.setMinWidth(0);
            texts.setPrefWidth(0);
            texts.setMaxWidth(Double.MAX_VALUE);
            HBox.setHgrow(texts, Priority.ALWAYS);
            name.setMinWidth(0);
            name.setMaxWidth(Double.MAX_VALUE);
            schedule.setMinWidth(0);
            schedule.setMaxWidth(Double.MAX_VALUE);
            root = new HBox(6, texts, paused, missing, attention);
            root.setAlignment(Pos.CENTER_LEFT);
            root.setMinWidth(0);
            setPrefWidth(0);
            shownJob.addListener(new javafx.beans.WeakInvalidationListener(markOpen));
        }

        /** Marks the row of the job whose page is open (the list's selection is not kept across a reload). */
        private void markOpen() {
            pseudoClassStateChanged(OPEN, !isEmpty() && getItem() != null && getItem().name().equals(shownJob.get()));
        }

        /** A row takes the list's width, never more (the list has no horizontal scroll bar). */
        @Override
        protected double computePrefWidth(double height) {
            return 0;
        }

        @Override
        protected void updateItem(Snapshot.JobSummary j, boolean empty) {
            super.updateItem(j, empty);
            markOpen();
            if (empty || j == null) {
                setGraphic(null);
                return;
            }
            name.setText(j.name());
            schedule.setText(Text.t("ui.console.jobLine", j.schedule(), j.done()));
            // the row's two lines whole (the sidebar cuts long ones), then what the badges count
            if (getTooltip() == null) {
                setTooltip(new Tooltip());
            }
            getTooltip().setText(j.name() + "\n" + Text.t("ui.console.jobTotal", schedule.getText(), j.total())
                    + (j.missing() == 0 ? "" : "\n" + Text.t("ui.console.jobMissing", j.missingText()))
                    + (j.attention() == 0 ? "" : "\n" + Text.t("ui.console.jobAttention", j.attention())));
            paused.setVisible(j.paused());
            paused.setManaged(j.paused());
            missing.setText(Text.t("ui.console.missingBadge", j.missing()));
            missing.setVisible(j.missing() > 0);
            missing.setManaged(j.missing() > 0);
            missing.setId("missing-" + j.name());
            attention.setText(Integer.toString(j.attention()));
            attention.setVisible(j.attention() > 0);
            attention.setManaged(j.attention() > 0);
            setGraphic(root);
            setId("job-" + j.name());
        }
    }
}
