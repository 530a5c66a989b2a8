package io.keyline.ui.shell;

import io.keyline.ui.MainWindowTest;
import javafx.collections.ListChangeListener;
import javafx.scene.control.ListView;
import javafx.scene.layout.BackgroundFill;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.paint.Paint;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.util.concurrent.atomic.AtomicInteger;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sidebar marks the page that is open: a job's entry as the Attention entry is marked when its page is
 * open, only that job's, and still after the console reloads what it shows.
 */
class SidebarOpenPageTest extends MainWindowTest {

    @Test
    void theOpenJobIsMarkedAsAnOpenAttentionPageIs(FxRobot robot) throws Exception {
        fixture("sidebar");
        fx.publishJob("daily", null);
        fx.publishJob("weekly", null);
        show(robot, 1024, 680);
        waitUntil(() -> robot.lookup("#job-weekly").tryQuery().isPresent());
        Paint open = fxValue(robot, () -> top(robot.lookup("#nav-inbox").queryAs(Region.class)));
        assertThat(open).as("the open Attention page's entry").isNotNull();

        robot.clickOn("#job-daily");
        waitUntil(() -> robot.lookup("#job-view").tryQuery().isPresent());
        robot.moveTo(".page-title"); // the pointer off the sidebar: what shows is the mark, not the hover
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fxValue(robot, () -> top(robot.lookup("#nav-inbox").queryAs(Region.class))))
                .as("Attention's entry once a job is open").isNull();
        assertThat(fxValue(robot, () -> top(robot.lookup("#job-daily").queryAs(Region.class))))
                .as("the open job's entry").isEqualTo(open);
        assertThat(fxValue(robot, () -> top(robot.lookup("#job-weekly").queryAs(Region.class))))
                .as("another job's entry").isNull();

        // the console reloads what it shows: the mark stays
        @SuppressWarnings("unchecked")
        ListView<Object> jobs = robot.lookup("#job-list").queryAs(ListView.class);
        AtomicInteger reloads = new AtomicInteger();
        robot.interact(() -> jobs.getItems().addListener((ListChangeListener<Object>) c -> reloads.incrementAndGet()));
        robot.interact(() -> console.refresh());
        waitUntil(() -> reloads.get() > 0);
        assertThat(fxValue(robot, () -> top(robot.lookup("#job-daily").queryAs(Region.class))))
                .as("the open job's entry after a reload").isEqualTo(open);

        // a job's page opened from elsewhere than its entry (a link, the Back button)
        robot.interact(() -> console.showJob("weekly"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fxValue(robot, () -> top(robot.lookup("#job-weekly").queryAs(Region.class))))
                .as("the job opened by the console").isEqualTo(open);
        assertThat(fxValue(robot, () -> top(robot.lookup("#job-daily").queryAs(Region.class))))
                .as("the job that was open before").isNull();
    }

    /** The colour a region's background shows on top, or {@code null} where it shows none. */
    private static Paint top(Region r) {
        if (r.getBackground() == null) {
            return null;
        }
        Paint top = null;
        for (BackgroundFill f : r.getBackground().getFills()) {
            if (!(f.getFill() instanceof Color c) || c.getOpacity() > 0) {
                top = f.getFill();
            }
        }
        return top;
    }
}
