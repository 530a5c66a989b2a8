package io.keyline.ui.credentials;

import atlantafx.base.theme.Styles;
import io.keyline.core.CredentialTester;
import io.keyline.text.Said;
import io.keyline.core.operations.LoginCheck;
import io.keyline.text.Text;
import io.keyline.ui.common.Cut;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Widgets;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What the renew dialog and the login window both show of a login: its cookies, values masked, the lines
 * of a test against the site's probes, and the offer to save a value the site has just rejected.
 */
public final class LoginParts {

    private LoginParts() {
    }

    /** The cookies of {@code rows} (values masked), or {@code empty} while there are none. */
    public static TableView<CredentialInput.CookieRow> table(ObservableList<CredentialInput.CookieRow> rows,
                                                             String empty) {
        TableView<CredentialInput.CookieRow> table = new TableView<>(rows);
        table.getStyleClass().addAll("credential-preview", Styles.DENSE);
        table.setFixedCellSize(28);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        Label placeholder = new Label(empty);
        placeholder.getStyleClass().add("muted");
        table.setPlaceholder(placeholder);
        table.getColumns().setAll(List.of(
                column(Text.t("ui.cookie.name"), 150, CredentialInput.CookieRow::name),
                column(Text.t("ui.cookie.value"), 70, CredentialInput.CookieRow::value),
                column(Text.t("ui.cookie.domain"), 170, CredentialInput.CookieRow::domain),
                column(Text.t("ui.cookie.path"), 70, CredentialInput.CookieRow::path),
                column(Text.t("ui.cookie.secure"), 60, r -> r.secure() ? Text.t("ui.cookie.yes") : ""),
                column(Text.t("ui.cookie.httpOnly"), 70, r -> r.httpOnly() ? Text.t("ui.cookie.yes") : ""),
                column(Text.t("ui.cookie.expires"), 150,
                        r -> r.expires() == null ? Text.t("ui.cookie.session") : Format.time(r.expires()))));
        return table;
    }

    private static TableColumn<CredentialInput.CookieRow, String> column(
            String title, double width, Function<CredentialInput.CookieRow, String> f) {
        return Cut.column(title, width, f);
    }

    /**
     * "Save anyway", shown only after {@code vm} refused to save because the site had just rejected the value;
     * {@code save} stores it all the same.
     */
    public static Button saveAnyway(CredentialViewModel vm, String tip, Runnable save) {
        Button anyway = new Button(Text.t("ui.credential.saveAnyway"));
        anyway.getStyleClass().add(Styles.DANGER);
        anyway.setTooltip(new Tooltip(tip));
        Widgets.shownWhen(anyway, vm.saveAnywayProperty());
        anyway.disableProperty().bind(vm.busyProperty());
        anyway.setOnAction(e -> save.run());
        return anyway;
    }

    /**
     * "Plan p…" for each job whose resumed keys wait for its review after a save of {@code vm}: the review is one
     * click away. {@code plan} opens the plan of a job; nothing is offered without it.
     */
    public static HBox planButtons(CredentialViewModel vm, Consumer<String> plan) {
        HBox buttons = new HBox(6);
        buttons.getStyleClass().add("credential-plans");
        Widgets.shownWhen(buttons, Bindings.isNotEmpty(buttons.getChildren()));
        if (plan == null) {
            return buttons;
        }
        Runnable show = () -> {
            buttons.getChildren().setAll(vm.review().stream().map(job -> planButton(job, plan)).toList());
            if (!buttons.getChildren().isEmpty()) { // the next step after the save: Enter opens the plan
                javafx.application.Platform.runLater(buttons.getChildren().get(0)::requestFocus);
            }
        };
        vm.review().addListener((ListChangeListener<String>) c -> show.run());
        show.run();
        return buttons;
    }

    private static Button planButton(String job, Consumer<String> plan) {
        Button b = new Button(Text.t("ui.credential.planJob", job));
        b.getStyleClass().addAll("credential-plan", Styles.ACCENT);
        b.setMinWidth(Region.USE_PREF_SIZE);
        b.setTooltip(new Tooltip(Text.t("ui.credential.planTip", job)));
        b.setOnAction(e -> plan.accept(job));
        return b;
    }

    /**
     * {@code results} as the Renew dialog says them: a request kept from the site for want of a cookie for its host
     * ends with the dialog's own way out (its Log in…, its paste box), where {@code keyline credentials test} gives
     * the command to type; the verdicts are the same.
     */
    public static List<CredentialTester.Result> inDialog(List<CredentialTester.Result> results) {
        return wayOut(results, "ui.credential.noCookieForHost", Said.of("ui.credential.logIn"));
    }

    /** {@code results} as a row of the Credentials page says them: the way out is the row's Renew…. */
    public static List<CredentialTester.Result> onCredentialsPage(List<CredentialTester.Result> results) {
        return wayOut(results, "ui.credentials.noCookieForHost", Said.of("ui.credentials.renew"));
    }

    /** {@code results} as the login window says them: log in on the host in the window, then its Test again. */
    public static List<CredentialTester.Result> inLoginWindow(List<CredentialTester.Result> results) {
        return wayOut(results, "ui.login.noCookieForHost", Said.of("ui.login.test"));
    }

    /**
     * {@code results} with the words of a request kept from the site for want of a cookie for its host said as
     * {@code key} (the credential, the host, its cookies, then {@code way}, the button that gets such cookies where
     * they are shown).
     */
    private static List<CredentialTester.Result> wayOut(List<CredentialTester.Result> results, String key, Said way) {
        return results.stream().map(r -> new CredentialTester.Result(r.job(), r.step(), r.asked(), r.verdict(),
                wayOut(r.message(), key, way))).toList();
    }

    private static Said wayOut(Said words, String key, Said way) {
        if (words == null || words.key() == null) {
            return words;
        }
        if (words.key().equals(io.keyline.core.exec.HttpExecutor.NO_COOKIE_FOR_HOST)) {
            List<Object> args = new java.util.ArrayList<>(words.args());
            args.add(way);
            return new Said(key, args);
        }
        return new Said(words.key(), words.args().stream().map(a -> a instanceof Said s ? wayOut(s, key, way) : a)
                .toList());
    }

    /** One line a probe of {@code results}, coloured by its verdict; it follows the list. */
    public static VBox testLines(ObservableList<CredentialTester.Result> results) {
        VBox lines = new VBox(2);
        lines.getStyleClass().add("credential-test-lines");
        results.addListener((ListChangeListener<CredentialTester.Result>) c -> {
            lines.getChildren().clear();
            for (CredentialTester.Result r : results) {
                Label x = new Label(LoginCheck.line(r));
                x.getStyleClass().addAll("code", switch (r.verdict()) {
                    case ACCEPTED -> "ok-text";
                    case REJECTED, NOT_SENT -> "error-text";
                    default -> "muted";
                });
                lines.getChildren().add(x);
            }
        });
        return lines;
    }
}
