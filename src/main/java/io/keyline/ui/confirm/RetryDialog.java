package io.keyline.ui.confirm;

import atlantafx.base.theme.Styles;
import io.keyline.text.Text;
import io.keyline.core.operations.RetryAndSend;
import io.keyline.ui.common.Theme;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Retry, shown before it sends: a retry whose run sends an unsafe step shows exactly what that step sends
 * (the confirm dialog's text: method, URL, masked headers, body and its hash), per key. Nothing is sent by a
 * stray key: "Retry and send" is not the default button and fires once; "Cancel" (and Esc) sends nothing.
 */
public final class RetryDialog {

    private RetryDialog() {
    }

    /**
     * Opens the dialog (modal to {@code owner}).
     *
     * @param send called once, on the UI thread, with the hashes shown (key → {@link RetryAndSend#hashShown}),
     *             when the operator chose to send
     */
    public static Stage show(Window owner, String job, List<RetryAndSend.Send> sends,
                             Consumer<Map<String, String>> send) {
        AtomicReference<Stage> window = new AtomicReference<>();
        RetryPane pane = new RetryPane(job, sends, shown -> {
            window.get().close();
            send.accept(shown);
        }, () -> window.get().close());
        Stage stage = Theme.dialog(owner, pane, 760, 640, 520, 420);
        window.set(stage);
        stage.setTitle(sends.size() == 1 ? Text.t("ui.retry.windowTitle", job, sends.get(0).key())
                : Text.t("ui.retry.windowTitleKeys", job, sends.size()));
        stage.show();
        pane.cancelButton().requestFocus();
        return stage;
    }

    /** The dialog's content. */
    static final class RetryPane extends BorderPane {
        private final Button retry = new Button(Text.t("ui.retry.send"));
        private final Button cancel = new Button(Text.t("ui.confirm.cancelNothing"));

        RetryPane(String job, List<RetryAndSend.Send> sends, Consumer<Map<String, String>> send, Runnable close) {
            getStyleClass().addAll("confirm-dialog", "retry-dialog");
            setId("retry-dialog");
            Label heading = new Label(sends.size() == 1
                    ? Text.t("ui.retry.title", job, sends.get(0).key())
                    : Text.t("ui.retry.titleKeys", sends.size(), job));
            heading.getStyleClass().add("confirm-title");
            Label explain = new Label(explanation(sends));
            explain.setId("retry-explain");
            explain.setWrapText(true);
            explain.setMinHeight(Region.USE_PREF_SIZE);
            VBox top = new VBox(6, heading, explain);
            top.getStyleClass().add("confirm-header");
            setTop(top);

            VBox blocks = new VBox(14);
            Map<String, String> shown = new LinkedHashMap<>();
            for (RetryAndSend.Send s : sends) {
                shown.put(s.key(), RetryAndSend.hashShown(s));
                blocks.getChildren().add(block(s, sends.size() > 1));
            }
            blocks.setPadding(new Insets(4, 20, 8, 20));
            ScrollPane scroll = new ScrollPane(blocks);
            scroll.setFitToWidth(true);
            scroll.getStyleClass().add("edge-to-edge");
            setCenter(scroll);

            retry.setId("retry-and-send");
            retry.getStyleClass().add(Styles.ACCENT);
            retry.setDefaultButton(false);
            retry.setTooltip(new Tooltip(Text.t("ui.retry.sendTip")));
            AtomicBoolean sent = new AtomicBoolean();
            retry.setOnAction(e -> {
                if (sent.compareAndSet(false, true)) {
                    retry.setDisable(true);
                    send.accept(Map.copyOf(shown));
                }
            });
            cancel.setId("retry-cancel");
            cancel.setCancelButton(true);
            cancel.setOnAction(e -> close.run());
            ButtonBar.setButtonData(retry, ButtonBar.ButtonData.OK_DONE);
            ButtonBar.setButtonData(cancel, ButtonBar.ButtonData.CANCEL_CLOSE);
            ButtonBar bar = new ButtonBar();
            bar.getButtons().addAll(cancel, retry);
            bar.setPadding(new Insets(10, 20, 16, 20));
            setBottom(bar);
        }

        Button cancelButton() {
            return cancel;
        }

        private static VBox block(RetryAndSend.Send s, boolean titled) {
            TextArea payload = new TextArea(s.payload() == null ? "" : s.payload().text());
            payload.setEditable(false);
            payload.setWrapText(false);
            payload.setPrefRowCount(titled ? 8 : 14);
            payload.getStyleClass().addAll("code", "confirm-payload", "retry-payload");
            VBox.setVgrow(payload, Priority.ALWAYS);
            Label title = new Label(titled ? Text.t("ui.retry.keySends", s.key(), s.step().id())
                    : Text.t("ui.retry.stepSends", s.step().id()));
            title.getStyleClass().add("confirm-section-title");
            VBox box = new VBox(6, title, payload);
            if (s.shown()) {
                Label hash = new Label(Text.t("ui.retry.payloadHash", s.payload().hash().substring(0, 16)));
                hash.getStyleClass().addAll("muted", "confirm-hash");
                hash.setWrapText(true);
                hash.setMinHeight(Region.USE_PREF_SIZE);
                hash.setTooltip(new Tooltip(s.payload().hash()));
                box.getChildren().add(hash);
            }
            box.getStyleClass().add("confirm-section");
            return box;
        }

        /** What pressing Retry and send does, in one or two sentences. */
        static String explanation(List<RetryAndSend.Send> sends) {
            if (sends.size() > 1) {
                return Text.t("ui.retry.explainKeys");
            }
            RetryAndSend.Send s = sends.get(0);
            boolean probe = s.step().probe() != null;
            if (s.before().isEmpty()) {
                return probe ? Text.t("ui.retry.explainProbe", s.step().id())
                        : Text.t("ui.retry.explain", s.step().id());
            }
            String before = String.join(", ", s.before());
            return probe ? Text.t("ui.retry.explainBeforeProbe", before, s.step().id())
                    : Text.t("ui.retry.explainBefore", before, s.step().id());
        }
    }
}
