package io.keyline.sandbox;

import io.keyline.domain.Trigger;
import io.keyline.testing.MutableClock;
import io.keyline.text.Text;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's instructions (its five steps, {@code keyline sandbox}, the sandbox site's home page) name the
 * console's buttons by the labels they have, in both languages: "Renew login…" in Attention, "Renew…" on the
 * Credentials page, "Log in…" in the Renew dialog, "Use these cookies" in the login window.
 */
class DemoNamesRealButtonsTest {

    /** A text as the operator reads it: the terminal texts write "…" as "...". */
    static String read(Locale language, String key, Object... args) {
        return Text.in(language, key, args).replace("...", "…");
    }

    @Test
    void theDemosStepsAndTheSandboxCommandNameTheButtonsThatExist() {
        for (Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            String renewLogin = Text.in(language, "common.move." + Trigger.CREDENTIAL_UPDATED.name());
            String logIn = Text.in(language, "ui.credential.logIn");
            String use = Text.in(language, "ui.login.use");
            String renew = Text.in(language, "ui.credentials.renew");

            String step2 = read(language, "core.demo.summary.step2", "http://127.0.0.1:8899");
            assertThat(step2).as(language + ": the demo's step 2").contains(renewLogin + " > " + logIn + " > ")
                    .contains(use).doesNotContain("Renew credential", "更新凭据");

            // the job's first review: Plan… on its page, Apply in the plan's dialog
            String step3 = read(language, "core.demo.summary.step3", "daily-article", 3);
            assertThat(step3).as(language + ": the demo's step 3").contains(Text.in(language, "ui.job.plan"))
                    .contains(Text.in(language, "ui.plan.apply"));

            // the failed key's timeline: under More on its Attention card
            String step4 = read(language, "core.demo.summary.step4", "2026-11-12");
            assertThat(step4).as(language + ": the demo's step 4").contains(Text.in(language, "ui.inbox.more") + " > "
                    + Text.in(language, "ui.inbox.timeline"));

            String sandbox = read(language, "cli.sandbox.renew");
            assertThat(sandbox).as(language + ": keyline sandbox").contains(renewLogin, renew)
                    .doesNotContain("Renew credential", "更新凭据");
        }
    }

    @Test
    void theSandboxSitesHomePageNamesTheButtonsThatExist() throws Exception {
        try (SandboxSite site = SandboxSite.start(0, new MutableClock(Instant.parse("2026-11-29T09:00:00Z")), null)) {
            HttpResponse<String> home = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(site.base() + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(home.statusCode()).isEqualTo(200);
            String renewLogin = Text.in(Text.ENGLISH, "common.move." + Trigger.CREDENTIAL_UPDATED.name());
            String logIn = Text.in(Text.ENGLISH, "ui.credential.logIn");
            assertThat(home.body()).contains("(" + renewLogin + " → " + logIn + ")").doesNotContain("Renew credential");
        }
    }
}
