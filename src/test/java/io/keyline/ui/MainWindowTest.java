package io.keyline.ui;

import io.keyline.app.ConsoleApp;
import io.keyline.testing.Fx;
import io.keyline.text.Text;
import io.keyline.ui.common.Threads;
import io.keyline.ui.shell.ConsoleView;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A test of the real main window, headless: TestFX's stage, a {@link ConsoleFixture} (a real state, jobs folder
 * and loopback site) and the {@link ConsoleView} that {@link ConsoleApp#scene} builds on it. After each test the
 * windows the test opened are hidden, the console speaks English again and the fixture is closed.
 *
 * <p>The stage is TestFX's registered one, the stage a {@code @Start} method would be given: TestFX looks for
 * {@code @Start} only among the methods the test class itself declares, so a base class cannot take it there.
 */
@ExtendWith(ApplicationExtension.class)
public abstract class MainWindowTest {

    /** A fresh folder for each test; each fixture takes its own folder in it. */
    @TempDir
    protected Path tmp;
    protected Stage stage;
    protected ConsoleFixture fx;
    protected ConsoleView console;
    private int fixtures;

    @BeforeEach
    protected final void takeStage() {
        stage = FxToolkit.toolkitContext().getRegisteredStage();
    }

    @AfterEach
    protected final void closeMainWindow(FxRobot robot) throws Exception {
        Fx.hideOtherWindows(robot, stage);
        Text.use(Text.ENGLISH);
        closeFixture();
    }

    /** A new fixture as {@link #fx}, in a folder of its own named {@code name} and a number. */
    protected ConsoleFixture fixture(String name) throws IOException {
        fx = new ConsoleFixture(tmp.resolve(name + "-" + ++fixtures));
        return fx;
    }

    /** Closes {@link #fx}, when there is one. */
    protected void closeFixture() throws IOException {
        if (fx != null) {
            fx.close();
            fx = null;
        }
    }

    /** Shows the main window on {@link #fx}'s services, {@code width} × {@code height}. */
    protected ConsoleView show(FxRobot robot, double width, double height) {
        return show(robot, fx.services, width, height);
    }

    /** Shows the main window on {@code services}, {@code width} × {@code height}. */
    protected ConsoleView show(FxRobot robot, ConsoleServices services, double width, double height) {
        return show(robot, services, true, width, height);
    }

    /** As {@link #show(FxRobot, double, double)}, with the console's notes turned off. */
    protected ConsoleView showQuiet(FxRobot robot, double width, double height) {
        return show(robot, fx.services, false, width, height);
    }

    /** Shows the main window on {@link #fx}'s services, notes off, in the size the stage has. */
    protected ConsoleView showQuiet(FxRobot robot) {
        return show(robot, fx.services, false, Double.NaN, Double.NaN);
    }

    private ConsoleView show(FxRobot robot, ConsoleServices services, boolean notes, double width, double height) {
        robot.interact(() -> {
            Scene scene = ConsoleApp.scene(services, Threads.javafx());
            console = (ConsoleView) scene.getRoot();
            if (!notes) {
                console.notifications(false);
            }
            stage.setScene(scene);
            if (!Double.isNaN(width)) {
                stage.setWidth(width);
                stage.setHeight(height);
            }
            stage.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        return console;
    }
}
