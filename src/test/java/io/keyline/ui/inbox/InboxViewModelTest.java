package io.keyline.ui.inbox;

import io.keyline.acceptance.Jobs;
import io.keyline.domain.KeyState;
import io.keyline.ui.ConsoleFixture;
import io.keyline.testing.TestSite;
import io.keyline.ui.common.Threads;
import io.keyline.ui.shell.ConsoleViewModel;
import io.keyline.ui.shell.Snapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class InboxViewModelTest {

    @TempDir
    Path tmp;
    ConsoleFixture fx;
    TestSite site;
    ConsoleViewModel console;
    InboxViewModel inbox;

    @BeforeEach
    void setUp() throws IOException {
        fx = new ConsoleFixture(tmp);
        site = fx.site;
        console = new ConsoleViewModel(fx.services, Threads.direct());
        inbox = new InboxViewModel(console);
    }

    @AfterEach
    void tearDown() throws IOException {
        fx.close();
    }

    @Test
    void everyWaitingKeyShowsOldestFirstWithItsReasonEvidenceAndAction() throws IOException {
        fx.wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());
        site.failPosts(TestSite.Fault.STATUS_404);
        fx.wb.cli("run", "p", "--key", "2026-11-27");
        fx.wb.clock.advance(java.time.Duration.ofMinutes(5));
        site.failPosts(TestSite.Fault.STATUS_502);
        fx.wb.cli("run", "p", "--key", "2026-11-28");
        fx.wb.clock.advance(java.time.Duration.ofMinutes(5));
        site.failPosts(TestSite.Fault.STATUS_401);
        fx.wb.cli("run", "p", "--key", "2026-11-29");

        console.refresh();

        List<Snapshot.AttentionItem> items = inbox.items();
        assertThat(items).extracting(Snapshot.AttentionItem::key).containsExactly("2026-11-27", "2026-11-28", "2026-11-29");
        assertThat(items).extracting(Snapshot.AttentionItem::state)
                .containsExactly(KeyState.FAILED, KeyState.NEEDS_CONFIRMATION, KeyState.NEEDS_CREDENTIAL);
        assertThat(items).extracting(Snapshot.AttentionItem::primaryAction)
                .containsExactly("Retry", "Confirm…", "Renew credential…");
        assertThat(items.get(0).evidence()).contains("POST").contains("HTTP 404").contains("no such site");
        assertThat(items.get(0).reason()).contains("HTTP 404");
        assertThat(items.get(1).evidence()).startsWith("POST").contains("HTTP 502").contains("maintenance");
        assertThat(items.get(2).evidence()).contains("HTTP 401").contains("login expired");
        assertThat(console.attentionCountProperty().get()).isEqualTo(3);
    }

    @Test
    void retryReArmsAndRunsTheKeyAndItLeavesTheInbox() throws IOException {
        fx.wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());
        site.failPosts(TestSite.Fault.STATUS_404);
        fx.wb.cli("run", "p", "--key", "2026-11-29");
        console.refresh();
        assertThat(inbox.items()).hasSize(1);

        inbox.retry(inbox.items().get(0));

        assertThat(inbox.noticeProperty().get()).contains("Done");
        assertThat(inbox.items()).isEmpty();
        assertThat(site.effects("2026-11-29")).isEqualTo(1);
    }

    @Test
    void newAttentionIsReportedOnceForNotifications() throws IOException {
        fx.wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());
        List<String> notified = new ArrayList<>();
        console.onNewAttention(items -> items.forEach(i -> notified.add(i.key())));
        console.refresh();
        site.failPosts(TestSite.Fault.STATUS_404);
        fx.wb.cli("run", "p", "--key", "2026-11-29");
        console.refresh();
        console.refresh();
        assertThat(notified).containsExactly("2026-11-29");
    }

    @Test
    void markDoneAndSkipNeedANoteAndResolveTheItem() throws IOException {
        fx.wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());
        site.failPosts(TestSite.Fault.STATUS_404, TestSite.Fault.STATUS_404);
        fx.wb.cli("run", "p", "--key", "2026-11-28");
        fx.wb.cli("run", "p", "--key", "2026-11-29");
        console.refresh();
        inbox.markDone(inbox.items().get(0), "");
        assertThat(inbox.noticeProperty().get()).contains("needs a note");
        inbox.markDone(inbox.items().get(0), "published by hand");
        inbox.skip(inbox.items().get(0), "holiday");
        assertThat(inbox.items()).isEmpty();
        assertThat(fx.wb.cli("timeline", "p", "2026-11-28").out()).contains("MARKED_DONE").contains("published by hand");
    }

    @Test
    void keyboardMovesThroughTheItemsAndWraps() throws IOException {
        fx.wb.job("c", Jobs.command("c", "none", "exit 64", "PT5S"), null);
        fx.wb.cli("run", "c", "--from", "2026-11-27", "--to", "2026-11-29");
        console.refresh();
        inbox.selectNext();
        assertThat(inbox.selectedProperty().get().key()).isEqualTo("2026-11-27");
        inbox.selectNext();
        inbox.selectNext();
        inbox.selectNext();
        assertThat(inbox.selectedProperty().get().key()).isEqualTo("2026-11-27");
        inbox.selectPrevious();
        assertThat(inbox.selectedProperty().get().key()).isEqualTo("2026-11-29");
    }
}
