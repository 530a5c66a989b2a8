package io.keyline.ui.common;

import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.stage.Window;

import java.util.List;
import java.util.Objects;

/** The console's stylesheets, and dialog windows that look like the window they open over. */
public final class Theme {

    /** Every stylesheet of the console: the looked-up colours from {@link Palette} first. */
    public static final List<String> STYLESHEETS = List.of(Palette.stylesheet(), url("keyline.css"),
            url("timeline-confirm.css"), url("plan-credentials.css"));

    private static volatile String chineseFonts;

    /**
     * The console's stylesheets for the language in use: {@link #STYLESHEETS}, and in Chinese the fonts
     * that keep bold and monospace text ({@link Fonts}).
     */
    public static List<String> stylesheets() {
        if (!io.keyline.text.Text.chinese()) {
            return STYLESHEETS;
        }
        String fonts = chineseFonts;
        if (fonts == null) {
            fonts = Fonts.chineseStylesheet();
            chineseFonts = fonts == null ? "" : fonts;
        }
        if (fonts.isEmpty()) {
            return STYLESHEETS;
        }
        List<String> all = new java.util.ArrayList<>(STYLESHEETS);
        all.add(fonts);
        return List.copyOf(all);
    }

    /** The style class the root of a dark window carries. */
    public static final String DARK = "kl-dark";

    private Theme() {
    }

    private static String url(String css) {
        return Objects.requireNonNull(Theme.class.getResource("/io/keyline/ui/" + css), css).toExternalForm();
    }

    /**
     * A dialog window over {@code owner} (modal to it), with the console's stylesheets and the
     * owner's light or dark theme.
     */
    public static Stage dialog(Window owner, Parent root, double width, double height, double minWidth,
                               double minHeight) {
        Stage stage = new Stage();
        if (owner != null) {
            stage.initOwner(owner);
            stage.initModality(Modality.WINDOW_MODAL);
        } else {
            stage.initModality(Modality.APPLICATION_MODAL);
        }
        // never larger than the screen (at 1024×680 a 760×720 Confirm had its buttons below the edge)
        javafx.geometry.Rectangle2D screen = screenOf(owner);
        double w = Math.min(width, screen.getWidth() - 24);
        double h = Math.min(height, screen.getHeight() - 48);
        Scene scene = new Scene(root, w, h);
        scene.getStylesheets().setAll(stylesheets());
        Keys.install(scene);
        if (owner != null && owner.getScene() != null && owner.getScene().getRoot().getStyleClass().contains(DARK)) {
            root.getStyleClass().add(DARK);
        }
        stage.setScene(scene);
        stage.setMinWidth(Math.min(minWidth, w));
        stage.setMinHeight(Math.min(minHeight, h));
        return stage;
    }

    /** The visual bounds of the screen {@code owner} is on (the primary screen without an owner). */
    public static javafx.geometry.Rectangle2D screenOf(Window owner) {
        if (owner != null && owner.getWidth() > 0) {
            var screens = javafx.stage.Screen.getScreensForRectangle(owner.getX(), owner.getY(), owner.getWidth(),
                    owner.getHeight());
            if (!screens.isEmpty()) {
                return screens.get(0).getVisualBounds();
            }
        }
        return javafx.stage.Screen.getPrimary().getVisualBounds();
    }
}
