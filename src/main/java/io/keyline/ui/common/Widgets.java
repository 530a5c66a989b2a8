package io.keyline.ui.common;

import io.keyline.text.Text;
import javafx.beans.property.Property;
import javafx.beans.value.ObservableValue;
import javafx.event.ActionEvent;
import javafx.event.EventHandler;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextField;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.stage.Stage;
import javafx.stage.Window;

import java.util.ArrayList;
import java.util.List;

/**
 * The small pieces the console's views and dialogs build the same way: lines of text that take no room
 * while they are empty, text fields bound to a property, the busy spinner, a row of buttons pushed to the
 * end, "Close", a dialog's frame, and a copy to the clipboard.
 */
public final class Widgets {

    private Widgets() {
    }

    /** A wrapped label showing {@code text} with {@code styleClasses}; it takes no room while the text is empty. */
    public static Label line(ObservableValue<String> text, String... styleClasses) {
        Label l = new Label();
        l.getStyleClass().addAll(styleClasses);
        l.setWrapText(true);
        l.textProperty().bind(text);
        return collapseWhenEmpty(l);
    }

    /** {@code n} has the CSS pseudo-class {@code pc} while {@code on} is true. */
    public static <N extends javafx.scene.Node> N pseudo(N n, javafx.css.PseudoClass pc,
                                                           javafx.beans.value.ObservableValue<Boolean> on) {
        n.pseudoClassStateChanged(pc, Boolean.TRUE.equals(on.getValue()));
        on.addListener((o, was, is) -> n.pseudoClassStateChanged(pc, Boolean.TRUE.equals(is)));
        return n;
    }

    /** {@code l} is hidden, and takes no room, while its text is empty. */
    public static <L extends Labeled> L collapseWhenEmpty(L l) {
        return shownWhen(l, l.textProperty().isNotEmpty());
    }

    /** {@code n} is shown, and takes room, only while {@code shown} is true. */
    public static <N extends Node> N shownWhen(N n, ObservableValue<Boolean> shown) {
        n.visibleProperty().bind(shown);
        n.managedProperty().bind(n.visibleProperty());
        return n;
    }

    /** A text field that edits {@code text} (both ways), showing {@code prompt} while it is empty. */
    public static TextField field(Property<String> text, String prompt) {
        TextField f = new TextField();
        f.setPromptText(prompt);
        f.textProperty().bindBidirectional(text);
        return f;
    }

    /** The small spinner shown while {@code running} is true (it keeps its room when hidden). */
    public static ProgressIndicator spinner(ObservableValue<Boolean> running) {
        ProgressIndicator spinner = new ProgressIndicator();
        spinner.setPrefSize(18, 18);
        spinner.visibleProperty().bind(running);
        return spinner;
    }

    /** An empty region that takes the free width of the row it is in. */
    public static Region grow() {
        Region grow = new Region();
        HBox.setHgrow(grow, Priority.ALWAYS);
        return grow;
    }

    /**
     * A row of {@code left} at the start and {@code right} at the end, the free width between them; when the row is
     * narrow the left side gives way, and the buttons on the right keep their whole text.
     */
    public static HBox bar(Node left, Node... right) {
        List<Node> all = new ArrayList<>(right.length + 2);
        all.add(left);
        all.add(grow());
        all.addAll(List.of(right));
        for (Node n : right) {
            if (n instanceof Button b) {
                b.setMinWidth(Region.USE_PREF_SIZE);
            }
        }
        HBox bar = new HBox(8, all.toArray(Node[]::new));
        bar.setAlignment(Pos.CENTER_LEFT);
        return bar;
    }

    /**
     * A button with {@code id}, {@code text} and {@code styleClasses} that runs {@code onAction}; it keeps its whole
     * text (it never shrinks below its preferred width).
     */
    public static Button button(String id, String text, EventHandler<ActionEvent> onAction, String... styleClasses) {
        Button b = new Button(text);
        b.setId(id);
        b.getStyleClass().addAll(styleClasses);
        b.setMinWidth(Region.USE_PREF_SIZE);
        b.setOnAction(onAction);
        return b;
    }

    /** "Close", which closes the window {@code content} is in; Escape presses it. */
    public static Button closeButton(Node content) {
        Button close = new Button(Text.t("common.close"));
        close.setCancelButton(true);
        close.setOnAction(e -> {
            if (windowOf(content) instanceof Stage s) {
                s.close();
            }
        });
        return close;
    }

    /**
     * Lays out a dialog's content in {@code root}: {@code header} over {@code body} over {@code footer}, 16 px
     * from the window's edges and 12 px apart.
     */
    public static void dialog(BorderPane root, String styleClass, Region header, Node body, Region footer) {
        root.getStyleClass().add(styleClass);
        root.setPadding(new Insets(16));
        header.setPadding(new Insets(0, 0, 12, 0));
        footer.setPadding(new Insets(12, 0, 0, 0));
        root.setTop(header);
        root.setCenter(body);
        root.setBottom(footer);
    }

    /** Runs {@code r} each time {@code flag} turns true; nothing when {@code r} is {@code null}. */
    public static void onTrue(ObservableValue<Boolean> flag, Runnable r) {
        if (r != null) {
            flag.addListener((o, was, is) -> {
                if (is) {
                    r.run();
                }
            });
        }
    }

    /** Puts {@code text} on the system clipboard. */
    public static void copy(String text) {
        ClipboardContent c = new ClipboardContent();
        c.putString(text);
        Clipboard.getSystemClipboard().setContent(c);
    }

    /** The window {@code n} is shown in, or {@code null}. */
    public static Window windowOf(Node n) {
        return n.getScene() == null ? null : n.getScene().getWindow();
    }

    /** A URL in a text: its scheme, "://" and what follows up to a space. */
    private static final java.util.regex.Pattern URL =
            java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://\\S+");

    /**
     * {@code text} as it reads wrapped at {@code width} in {@code font} with each URL on one line: where a URL would
     * break inside (a line may break after "http:", "127." or "/"), its line starts at the URL instead. A URL alone
     * wider than {@code width} still breaks.
     */
    public static String urlsWhole(String text, javafx.scene.text.Font font, double width) {
        if (text == null || width <= 0 || !text.contains("://")) {
            return text;
        }
        StringBuilder out = new StringBuilder(text);
        javafx.scene.text.Text laid = new javafx.scene.text.Text();
        laid.setFont(font);
        laid.setWrappingWidth(width);
        java.util.regex.Matcher m = URL.matcher(text);
        int shift = 0;
        while (m.find()) {
            int start = m.start() + shift;
            int end = m.end() + shift;
            if (start == 0 || out.charAt(start - 1) == '\n' || textWidth(List.of(m.group()), font) > width) {
                continue;
            }
            laid.setText(out.toString());
            if (Math.abs(lineOf(laid, start) - lineOf(laid, end - 1)) < 0.5) {
                continue;
            }
            if (out.charAt(start - 1) == ' ') {
                out.setCharAt(start - 1, '\n');
            } else {
                out.insert(start, '\n');
                shift++;
            }
        }
        return out.toString();
    }

    /** The y of the line on which {@code text} draws its character at {@code index}. */
    private static double lineOf(javafx.scene.text.Text text, int index) {
        javafx.scene.shape.PathElement[] caret = text.caretShape(index, true);
        return caret.length > 0 && caret[0] instanceof javafx.scene.shape.MoveTo m ? m.getY() : 0;
    }

    /** {@code c} is {@code width} wide, neither more nor less: a flexible column takes what is left. */
    public static void fix(javafx.scene.control.TableColumnBase<?, ?> c, double width) {
        c.setMinWidth(width);
        c.setPrefWidth(width);
        c.setMaxWidth(width);
    }

    /** The widest of {@code texts} drawn in {@code font}, in pixels (rounded up). */
    public static double textWidth(java.util.Collection<String> texts, javafx.scene.text.Font font) {
        double w = 0;
        for (String s : texts) {
            javafx.scene.text.Text t = new javafx.scene.text.Text(s);
            t.setFont(font);
            w = Math.max(w, t.getLayoutBounds().getWidth());
        }
        return Math.ceil(w);
    }
}
