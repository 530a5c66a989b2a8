package io.keyline.ui.login;

import javafx.concurrent.Worker;
import javafx.scene.Scene;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;
import javafx.scene.web.WebView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page inside the login window keeps a browser's light form controls when the console is dark: WebKit draws
 * a page's buttons with JavaFX controls under the WebView, which took Primer Dark (a dark button with dark text on
 * the page's white background, unreadable, seen on the sandbox's "Log in as demo" in a real window).
 */
@ExtendWith(ApplicationExtension.class)
class LoginPageThemeTest {

    static final String PAGE = "<html><body style='margin:0;background:#fff'>"
            + "<button id='b' style='position:absolute;left:20px;top:20px;width:200px;height:60px'>Log in as demo"
            + "</button></body></html>";

    Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        javafx.application.Application.setUserAgentStylesheet(
                new atlantafx.base.theme.PrimerDark().getUserAgentStylesheet());
    }

    @AfterEach
    void lightAgain() throws Exception {
        fx(() -> {
            javafx.application.Application.setUserAgentStylesheet(
                    new atlantafx.base.theme.PrimerLight().getUserAgentStylesheet());
            stage.hide();
            return null;
        });
    }

    @Test
    void thePagesButtonIsLightInADarkConsole() throws Exception {
        assertThat(LoginWindow.lightColours()).startsWith(".web-view {").contains("-color-bg-default");
        assertThat(buttonFill(true).getBrightness()).as("the page's button with the light colours").isGreaterThan(0.8);
    }

    @Test
    void withoutTheLightColoursThePagesButtonIsDark() throws Exception {
        // the check above can fail: the same page without them draws a dark button
        assertThat(buttonFill(false).getBrightness()).as("the page's button in Primer Dark").isLessThan(0.4);
    }

    /** The colour a few pixels inside the page's button (left of its label), drawn by the real web engine. */
    private Color buttonFill(boolean light) throws Exception {
        WebView web = fx(() -> {
            WebView w = new WebView();
            if (light) {
                LoginWindow.pageControlsLight(w);
            }
            stage.setScene(new Scene(w, 400, 200));
            stage.show();
            w.getEngine().loadContent(PAGE);
            return w;
        });
        // pulses for the page to be painted (up to 30 s: on a busy machine the web engine paints late; 5 s
        // was not always enough and the still-white view read as a light button). Once in a full test run
        // (2026-12-02) a page stayed white for the whole 30 s: it is then loaded once more; a page that is
        // never painted fails as such, not as a button of the wrong colour.
        for (int load = 0; load < 2; load++) {
            if (load > 0) {
                fx(() -> {
                    web.getEngine().loadContent(PAGE);
                    return null;
                });
            }
            WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS,
                    () -> fx(() -> web.getEngine().getLoadWorker().getState()) == Worker.State.SUCCEEDED);
            for (int i = 0; i < 300; i++) {
                WaitForAsyncUtils.sleep(100, TimeUnit.MILLISECONDS);
                Color c = fx(() -> {
                    WritableImage img = web.snapshot(null, null);
                    return img.getPixelReader().getColor(30, 50);
                });
                if (!c.equals(Color.WHITE)) {
                    return c;
                }
            }
        }
        throw new AssertionError("the web engine never painted the page's button (the view stayed white through "
                + "two loads of 30 s each)");
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(60, TimeUnit.SECONDS);
    }
}
