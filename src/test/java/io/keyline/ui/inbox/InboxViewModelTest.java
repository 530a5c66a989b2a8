package io.keyline.ui.inbox;

import io.keyline.acceptance.Jobs;
import io.keyline.domain.KeyState;
import io.keyline.ui.ConsoleFixture;
import io.keyline.testing.TestSite;
import io.keyline.ui.common.Threads;
import io.keyline.ui.shell.ConsoleViewModel;
import io.keyline.core.operations.Attention;
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

        List<Attention.Item> items = waiting();
        assertThat(items).extracting(Attention.Item::key).containsExactly("2026-11-27", "2026-11-28", "2026-11-29");
        assertThat(items).extracting(Attention.Item::state)
                .containsExactly(KeyState.FAILED, KeyState.NEEDS_CONFIRMATION, KeyState.NEEDS_CREDENTIAL);
        assertThat(items).extracting(Attention.Item::action)
                .containsExactly("Retry", "Confirm…", "Renew login…");
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
        assertThat(waiting()).hasSize(1);
        List<io.keyline.core.operations.RetryAndSend.Send> shown = new ArrayList<>();
        inbox.setRetryShow((job, sends, send) -> {
            shown.addAll(sends);
            send.accept(sends.stream().collect(java.util.stream.Collectors.toMap(
                    io.keyline.core.operations.RetryAndSend.Send::key,
                    io.keyline.core.operations.RetryAndSend::hashShown)));
        });

        inbox.retry(waiting().get(0));

        // the next step is the unsafe POST: it was shown before it was sent
        assertThat(shown).extracting(s -> s.step().id()).containsExactly("publish");
        assertThat(inbox.noticeProperty().get()).isEqualTo("Retried p 2026-11-29: done");
        assertThat(waiting()).isEmpty();
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
        // the two keys failed the same way (HTTP 404 at publish): one item for both
        assertThat(waiting()).singleElement().satisfies(i -> {
            assertThat(i.keys()).containsExactly("2026-11-28", "2026-11-29");
            assertThat(i.action()).isEqualTo("Retry 2 keys");
        });
        inbox.markDone(waiting().get(0), "");
        assertThat(inbox.noticeProperty().get()).contains("needs a note");
        inbox.markDone(waiting().get(0), "published by hand");
        assertThat(waiting()).isEmpty();
        assertThat(fx.state("p", "2026-11-28")).isEqualTo(KeyState.DONE);
        assertThat(fx.state("p", "2026-11-29")).isEqualTo(KeyState.DONE);
        assertThat(fx.wb.cli("timeline", "p", "2026-11-28").out()).contains("MARKED_DONE").contains("published by hand");
    }

    @Test
    void keyboardMovesThroughTheItemsAndWraps() throws IOException {
        fx.wb.job("c", Jobs.command("c", "none", "exit 64", "PT5S")
                .replace("2026-01-01", "2026-11-27"), null);
        fx.wb.job("d", Jobs.command("d", "none", "exit 65", "PT5S").replace("2026-01-01", "2026-11-27"), null);
        fx.wb.job("e", Jobs.command("e", "none", "exit 1", "PT5S").replace("2026-01-01", "2026-11-27"), null);
        fx.wb.cli("run", "c", "--key", "2026-11-27");
        fx.wb.clock.advance(java.time.Duration.ofMinutes(1));
        fx.wb.cli("run", "d", "--key", "2026-11-28");
        fx.wb.clock.advance(java.time.Duration.ofMinutes(1));
        fx.wb.cli("run", "e", "--key", "2026-11-29");
        console.refresh();
        assertThat(inbox.items()).filteredOn(i -> i.waitingKeys() > 0).hasSize(3);
        inbox.selectNext();
        assertThat(inbox.selectedProperty().get().key()).isEqualTo("2026-11-27");
        int n = inbox.items().size();
        for (int i = 0; i < n; i++) {
            inbox.selectNext();
        }
        assertThat(inbox.selectedProperty().get().key()).isEqualTo("2026-11-27");
        inbox.selectPrevious();
        assertThat(inbox.selectedProperty().get()).isEqualTo(inbox.items().get(n - 1));
    }

    @Test
    void aRefreshKeepsTheSelectedItemAndAGoneOneLeavesNothingSelected() throws IOException {
        fx.wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());
        site.failPosts(TestSite.Fault.STATUS_404);
        fx.wb.cli("run", "p", "--key", "2026-11-28");
        fx.wb.clock.advance(java.time.Duration.ofMinutes(1));
        site.failPosts(TestSite.Fault.STATUS_502);
        fx.wb.cli("run", "p", "--key", "2026-11-29");
        console.refresh();
        inbox.selectNext();
        inbox.selectNext();
        Attention.Item chosen = inbox.selectedProperty().get();
        assertThat(chosen.key()).isEqualTo("2026-11-29");

        console.refresh(); // the periodic reload: new item objects, the same causes
        assertThat(inbox.selectedProperty().get()).isNotSameAs(chosen).isEqualTo(waiting().get(1));
        assertThat(inbox.selectedProperty().get().id()).isEqualTo(chosen.id());

        fx.wb.cli("mark-done", "p", "2026-11-29", "--note", "checked by hand"); // another process resolves it
        console.refresh();
        assertThat(inbox.selectedProperty().get()).as("an item that went away leaves nothing selected").isNull();
    }

    @Test
    void aRejectedCredentialIsOneItemListingItsKeysAndWhereToLogIn() throws IOException {
        fx.wb.job("p", Jobs.publish("p", "unsafe", true, "\"credential\": \"site-cookie\","), site.base());
        site.requireCookie("session=v2");
        fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "site-cookie", "--login-url",
                site.base() + "/login");
        assertThat(fx.wb.cli("run", "--yes", "p", "--from", "2026-11-27", "--to", "2026-11-29").exit()).isEqualTo(4);
        console.refresh();

        assertThat(waiting()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo(Attention.Kind.CREDENTIAL);
            assertThat(i.keys()).containsExactly("2026-11-27", "2026-11-28", "2026-11-29");
            assertThat(i.title()).isEqualTo("3 keys wait for a new login to site-cookie");
            assertThat(i.loginUrl()).isEqualTo(site.base() + "/login");
            assertThat(i.reason()).contains("Log in at " + site.base() + "/login");
            assertThat(i.action()).isEqualTo("Renew login…");
        });
        assertThat(console.attentionCountProperty().get()).isEqualTo(3);
    }

    @Test
    void keysThatNeverRanAreOneItemPerJobThatPlansExactlyThem() throws IOException {
        fx.wb.job("c", Jobs.command("c", "none", "exit 0", "PT5S").replace("2026-01-01", "2026-11-20"), null);
        fx.wb.cli("run", "--yes", "c", "--from", "2026-11-20", "--to", "2026-11-25");
        fx.wb.cli("run", "c", "--key", "2026-11-28");
        console.refresh();

        assertThat(inbox.items()).filteredOn(i -> i.kind() == Attention.Kind.MISSING).singleElement().satisfies(i -> {
            assertThat(i.job()).isEqualTo("c");
            assertThat(i.keys()).containsExactly("2026-11-26", "2026-11-27", "2026-11-29");
            assertThat(i.title()).isEqualTo("c  ·  3 days never ran");
            assertThat(i.action()).isEqualTo("Plan 3 missing…");
            assertThat(i.waitingKeys()).isZero();
        });
        assertThat(console.attentionCountProperty().get()).as("missing keys do not wait for a person").isZero();
    }

    /** The items that wait for a person (jobs of these tests start 2026-01-01: most days are missing). */
    private List<Attention.Item> waiting() {
        return inbox.items().stream().filter(i -> i.waitingKeys() > 0).toList();
    }
}
