package io.keyline.ui.confirm;

import io.keyline.core.exec.Rendering;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepKind;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.common.Threads;
import io.keyline.core.ShownHeaders.Header;
import io.keyline.core.operations.ConfirmAndRun.Payload;
import io.keyline.core.operations.ConfirmAndRun.Reason;
import io.keyline.ui.timeline.TimelineConfirmFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.keyline.ui.timeline.TimelineConfirmFixture.KEY;
import static org.assertj.core.api.Assertions.assertThat;

class ConfirmViewModelTest {

    static final String COOKIE = "session=s3cr3t-value-42";

    @TempDir
    Path tmp;
    TimelineConfirmFixture fx;

    @BeforeEach
    void setUp() throws Exception {
        fx = new TimelineConfirmFixture(tmp);
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
    }

    /** An unsafe POST without probe answered 502 (it may have arrived): the key waits for confirmation. */
    private void waitingKey(String extra) throws Exception {
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", extra, false));
        fx.site.failPosts(Fault.STATUS_502);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
    }

    private ConfirmViewModel loaded(Threads threads) {
        ConfirmViewModel vm = new ConfirmViewModel(fx.services(), threads);
        vm.load("daily", KEY);
        return vm;
    }

    @Test
    void showsWhyItWaitsAndExactlyWhatWillBeSentWithTheCredentialMasked() throws Exception {
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", "\"credential\": \"site-cookie\",", false));
        fx.setCookie("site-cookie", COOKIE);
        fx.site.requireCookie(COOKIE);
        fx.site.failPosts(Fault.STATUS_502);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);

        ConfirmViewModel vm = loaded(Threads.direct());

        assertThat(vm.infoProperty().get().reason()).isEqualTo(Reason.OUTCOME_UNKNOWN);
        assertThat(vm.reasonHeadlineProperty().get()).contains("unknown");
        assertThat(vm.reasonProperty().get()).contains("502");
        assertThat(vm.evidenceTextProperty().get()).contains("HTTP 502").contains("maintenance")
                .contains("POST " + fx.site.base() + "/api/articles");
        assertThat(vm.probeAnswerProperty().get()).startsWith("No probe");

        Payload p = vm.infoProperty().get().payload();
        byte[] body = Files.readAllBytes(fx.bodyFile(KEY));
        assertThat(p.kind()).isEqualTo(StepKind.HTTP);
        assertThat(p.method()).isEqualTo("POST");
        assertThat(p.url()).isEqualTo(fx.site.base() + "/api/articles");
        assertThat(p.headers()).contains(new Header("Idempotency-Key", "daily:" + KEY + ":publish", false),
                new Header("Content-Type", "text/markdown", false));
        String fingerprint = fx.services().credentials().lookup("site-cookie").material().fingerprint();
        assertThat(p.headers()).contains(new Header("Cookie",
                "*** (credential site-cookie, fingerprint " + fingerprint + ")", true,
                io.keyline.text.Said.of("core.headers.masked", "Cookie", "site-cookie", fingerprint)));
        assertThat(p.bodyBytes()).isEqualTo(body.length);
        assertThat(p.bodySha256()).isEqualTo(Rendering.sha256(body));
        assertThat(p.bodyPreview()).isEqualTo("article for " + KEY);
        assertThat(p.hash()).isEqualTo(fx.services().operations().actions().payloadHash(fx.def("daily"), fx.record("daily", KEY)));
        assertThat(vm.payloadHashProperty().get()).isEqualTo(p.hash());

        String shown = vm.payloadTextProperty().get();
        assertThat(shown).contains("POST " + fx.site.base() + "/api/articles")
                .contains("Idempotency-Key: daily:" + KEY + ":publish")
                .contains("Cookie: *** (credential site-cookie")
                .contains(Rendering.sha256(body))
                .contains("article for " + KEY)
                .doesNotContain("s3cr3t");
        assertThat(vm.canConfirmProperty().get()).isTrue();
        assertThat(vm.canMarkDoneProperty().get()).isTrue();
    }

    @Test
    void confirmAndRunTwiceSendsExactlyOneRequestAndTheKeyIsDone() throws Exception {
        waitingKey(null);
        long before = fx.site.posts();
        ConfirmViewModel vm = loaded(Threads.direct());
        AtomicInteger changed = new AtomicInteger();
        vm.setOnChanged(changed::incrementAndGet);

        assertThat(vm.confirmAndRun("checked: not on the site")).isTrue();
        assertThat(vm.confirmAndRun("again")).isFalse();

        assertThat(fx.site.posts() - before).isEqualTo(1);
        assertThat(fx.site.effects(KEY)).isEqualTo(1);
        assertThat(fx.record("daily", KEY).state()).isEqualTo(KeyState.DONE);
        assertThat(vm.outcomeProperty().get().state()).isEqualTo(KeyState.DONE);
        assertThat(vm.outcomeTextProperty().get()).startsWith("The site answered HTTP 201: id = ");
        assertThat(vm.finishedProperty().get()).isTrue();
        assertThat(vm.canConfirmProperty().get()).isFalse();
        assertThat(vm.canMarkDoneProperty().get()).isFalse();
        assertThat(changed).hasValue(1);
        KeyEvent confirmed = fx.ws().store().events("daily", KEY).stream()
                .filter(e -> e.type() == EventType.CONFIRMED).findFirst().orElseThrow();
        assertThat(confirmed.user()).isEqualTo("tester");
        assertThat(confirmed.note()).isEqualTo("checked: not on the site");
    }

    @Test
    void aSecondCallWhileTheFirstRunsIsIgnored() throws Exception {
        waitingKey(null);
        long before = fx.site.posts();
        List<Runnable> background = new ArrayList<>();
        ConfirmViewModel vm = new ConfirmViewModel(fx.services(), new Threads(Runnable::run, background::add));
        vm.load("daily", KEY);
        drain(background);

        assertThat(vm.confirmAndRun(null)).isTrue();
        assertThat(vm.busyProperty().get()).isTrue();
        assertThat(vm.canConfirmProperty().get()).isFalse();
        assertThat(vm.confirmAndRun(null)).isFalse();
        assertThat(vm.markDone("meanwhile")).isFalse();
        assertThat(background).hasSize(1);
        drain(background);

        assertThat(fx.site.posts() - before).isEqualTo(1);
        assertThat(vm.busyProperty().get()).isFalse();
        assertThat(vm.outcomeTextProperty().get()).startsWith("The site answered HTTP 201: id = ");
    }

    @Test
    void aChangedBodyIsRefusedAndNothingIsSent() throws Exception {
        waitingKey(null);
        long before = fx.site.posts();
        ConfirmViewModel vm = loaded(Threads.direct());
        String shownHash = vm.payloadHashProperty().get();

        Files.writeString(fx.bodyFile(KEY), "a different article");
        vm.confirmAndRun("ok");

        assertThat(vm.problemProperty().get()).contains("changed since it was shown");
        assertThat(fx.site.posts() - before).isZero();
        assertThat(fx.record("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        assertThat(vm.finishedProperty().get()).isFalse();
        // reloaded: the new payload is shown, and confirming that one works
        assertThat(vm.payloadHashProperty().get()).isNotEqualTo(shownHash);
        assertThat(vm.infoProperty().get().payload().bodySha256())
                .isEqualTo(Rendering.sha256("a different article".getBytes()));
        assertThat(vm.payloadTextProperty().get()).contains("a different article");
        assertThat(vm.confirmAndRun("reviewed the new text")).isTrue();
        assertThat(fx.site.posts() - before).isEqualTo(1);
        assertThat(vm.outcomeTextProperty().get()).startsWith("The site answered HTTP 201: id = ");
    }

    @Test
    void markDoneNeedsANote() throws Exception {
        waitingKey(null);
        long before = fx.site.posts();
        ConfirmViewModel vm = loaded(Threads.direct());

        assertThat(vm.markDone("  ")).isFalse();
        assertThat(vm.problemProperty().get()).contains("needs a note");
        assertThat(fx.record("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);

        assertThat(vm.markDone("article is live, checked by hand")).isTrue();
        assertThat(vm.problemProperty().get()).isEmpty();
        assertThat(fx.record("daily", KEY).state()).isEqualTo(KeyState.DONE);
        assertThat(vm.outcomeTextProperty().get()).isEqualTo("You marked it done; nothing was sent.");
        assertThat(fx.site.posts() - before).isZero();
        assertThat(vm.confirmAndRun(null)).isFalse();
        KeyEvent marked = fx.ws().store().events("daily", KEY).stream()
                .filter(e -> e.type() == EventType.MARKED_DONE).findFirst().orElseThrow();
        assertThat(marked.note()).isEqualTo("article is live, checked by hand");
    }

    @Test
    void confirmAlwaysWithAProbeSaysSoAndAWaitingStateIsReported() throws Exception {
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", "\"confirm\": \"always\",", true));
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        ConfirmViewModel vm = loaded(Threads.direct());

        assertThat(vm.infoProperty().get().reason()).isEqualTo(Reason.CONFIRM_ALWAYS);
        assertThat(vm.reasonHeadlineProperty().get()).contains("confirm: always");
        assertThat(vm.evidenceTextProperty().get()).isEmpty();
        assertThat(vm.probeAnswerProperty().get()).contains("has not answered yet");

        // the site is down: the confirmed step fails again and the dialog reports the new waiting state
        fx.site.failPosts(Fault.STATUS_502);
        vm.confirmAndRun("go");
        assertThat(vm.outcomeProperty().get().state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        assertThat(vm.outcomeTextProperty().get()).startsWith("The site answered HTTP 502: ").contains("maintenance");
        assertThat(fx.site.effects(KEY)).isZero();
    }

    @Test
    void theProbesLatestAnswerIsShown() throws Exception {
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", null, true));
        fx.site.failPosts(Fault.STATUS_502);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        ConfirmViewModel vm = loaded(Threads.direct());

        assertThat(vm.infoProperty().get().reason()).isEqualTo(Reason.OUTCOME_UNKNOWN);
        assertThat(vm.probeAnswerProperty().get()).startsWith("Latest probe answer: ").contains("absent");
        // the answer is said once, on its own line with its time: the reason above it says what went wrong
        assertThat(vm.reasonProperty().get()).contains("502").doesNotContain("not there yet");
        assertThat(vm.evidenceTextProperty().get()).contains("HTTP 502")
                .contains("GET " + fx.site.base() + "/api/articles?date=" + KEY);
    }

    /** What Attention, the timeline and Confirm say of a request that got no answer: no brackets in brackets. */
    @Test
    void aRequestThatGotNoAnswerIsSaidWithoutBracketsInBrackets() throws Exception {
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", null, true));
        fx.site.failPosts(Fault.HANG_BEFORE_ACTING);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);

        String said = io.keyline.core.operations.Words.keyMessage(fx.record("daily", KEY));
        assertThat(said).startsWith("outcome of publish unknown: no answer within 1s (timeout; ")
                .contains("; absent: the effect is not there yet").doesNotContain("))");
        assertThat(loaded(Threads.direct()).reasonProperty().get())
                .isEqualTo("outcome of publish unknown: no answer within 1s (timeout; the request may have been sent)");
    }

    @Test
    void commandStepShowsArgvAndWorkingDirectory() throws Exception {
        fx.job("pack", """
            {
              "name": "pack",
              "key": { "type": "manual" },
              "steps": [
                { "id": "send", "kind": "command", "effect": "unsafe", "confirm": "always",
                  "command": ["sh", "-c", "echo sent {key}"] }
              ]
            }
            """);
        assertThat(fx.run("pack", "doc-17").state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        ConfirmViewModel vm = new ConfirmViewModel(fx.services(), Threads.direct());
        vm.load("pack", "doc-17");

        Payload p = vm.infoProperty().get().payload();
        assertThat(p.kind()).isEqualTo(StepKind.COMMAND);
        assertThat(p.argv()).containsExactly("sh", "-c", "echo sent doc-17");
        assertThat(p.workdir()).isEqualTo(fx.wb.jobs.toAbsolutePath().normalize().toString());
        assertThat(vm.payloadTextProperty().get()).contains("$ sh -c 'echo sent doc-17'");
        assertThat(p.hash()).isEqualTo(fx.services().operations().actions().payloadHash(fx.def("pack"), fx.record("pack", "doc-17")));
        vm.confirmAndRun(null);
        assertThat(vm.outcomeTextProperty().get()).isEqualTo("The command ended with exit code 0.");
    }

    @Test
    void inChineseACommandsMaskedCredentialIsChineseAndTheRunsHashTheSame() throws Exception {
        fx.job("pack", """
            {
              "name": "pack",
              "key": { "type": "manual" },
              "steps": [
                { "id": "send", "kind": "command", "effect": "unsafe", "confirm": "always", "credential": "api-token",
                  "command": ["sh", "-c", "echo sent {key}"], "env": { "MODE": "draft" } }
              ]
            }
            """);
        assertThat(fx.wb.cliWithInput("Bearer t0ken-s3cr3t-value", "credentials", "set", "api-token", "--type",
                "bearer").exit()).isZero();
        assertThat(fx.run("pack", "doc-17").state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            ConfirmViewModel vm = new ConfirmViewModel(fx.services(), Threads.direct());
            vm.load("pack", "doc-17");
            Payload p = vm.infoProperty().get().payload();
            assertThat(vm.payloadTextProperty().get()).contains("环境变量 MODE=draft")
                    .contains("环境变量 KEYLINE_CREDENTIAL=***（凭据 api-token，指纹 ")
                    .doesNotContain("(credential").doesNotContain("fingerprint").doesNotContain("t0ken-s3cr3t");
            // the hash the confirmation binds is the run's, whatever the language
            assertThat(p.hash()).isEqualTo(fx.services().operations().actions().payloadHash(fx.def("pack"),
                    fx.record("pack", "doc-17")));
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
        ConfirmViewModel en = new ConfirmViewModel(fx.services(), Threads.direct());
        en.load("pack", "doc-17");
        assertThat(en.payloadTextProperty().get()).contains("env KEYLINE_CREDENTIAL=*** (credential api-token, "
                + "fingerprint ").doesNotContain("t0ken-s3cr3t");
    }

    @Test
    void aKeyThatDoesNotWaitCannotBeConfirmed() throws Exception {
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", null, false));
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.DONE);
        ConfirmViewModel vm = loaded(Threads.direct());
        assertThat(vm.infoProperty().get().reason()).isEqualTo(Reason.NOT_WAITING);
        assertThat(vm.reasonHeadlineProperty().get()).contains("nothing to confirm");
        assertThat(vm.canConfirmProperty().get()).isFalse();
        assertThat(vm.confirmAndRun(null)).isFalse();
        assertThat(fx.site.posts()).isEqualTo(1);
    }

    private static void drain(List<Runnable> queue) {
        while (!queue.isEmpty()) {
            queue.remove(0).run();
        }
    }

    /**
     * Seen in a real window: Confirm offered "Confirm and run" with the login REJECTED; the breaker would
     * send nothing and the key would only wait for a login again. Confirm says so, and does not confirm.
     */
    @Test
    void aRejectedLoginIsSaidAndConfirmIsNotOffered() throws Exception {
        String cred = "\"credential\": \"site-cookie\",";
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", cred, false));
        fx.job("other", TimelineConfirmFixture.publishJob("other", cred, false));
        fx.setCookie("site-cookie", COOKIE);
        fx.site.requireCookie(COOKIE);
        fx.site.failPosts(Fault.STATUS_502);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        // the site then rejects the login (another job's request gets 401): the credential is rejected
        fx.site.requireCookie("session=another");
        assertThat(fx.run("other", KEY).state()).isEqualTo(KeyState.NEEDS_CREDENTIAL);
        long posts = fx.site.posts();

        ConfirmViewModel vm = loaded(Threads.direct());
        assertThat(vm.infoProperty().get().rejectedCredential()).isEqualTo("site-cookie");
        assertThat(vm.infoProperty().get().credentialWarning()).startsWith("The site rejected the login site-cookie")
                .contains("would send nothing").contains("Renew the login first");
        assertThat(vm.payloadTextProperty().get()).contains("REJECTED").doesNotContain("s3cr3t");
        assertThat(vm.canConfirmProperty().get()).isFalse();
        assertThat(vm.confirmAndRun("checked")).isFalse();
        assertThat(vm.canMarkDoneProperty().get()).as("marking done stays possible").isTrue();
        assertThat(fx.record("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        assertThat(fx.site.posts()).isEqualTo(posts);
    }
}
