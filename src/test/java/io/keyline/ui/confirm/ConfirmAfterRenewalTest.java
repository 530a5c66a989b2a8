package io.keyline.ui.confirm;

import io.keyline.credentials.CredentialParser;
import io.keyline.credentials.CredentialType;
import io.keyline.domain.KeyState;
import io.keyline.testing.WordPressSite;
import io.keyline.text.Text;
import io.keyline.ui.common.Threads;
import io.keyline.ui.timeline.TimelineConfirmFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.keyline.ui.timeline.TimelineConfirmFixture.KEY;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's Confirm dialog for a post that waits for a person (its step says {@code confirm: always}) when the
 * login its REST nonce came from was renewed meanwhile: the dialog says that the nonce is fetched again first and
 * shows it as where it comes from, the confirmation binds what is shown, and the post goes out once with the new
 * login's nonce.
 */
class ConfirmAfterRenewalTest {

    static final String SLUG = "daily-" + KEY;

    static final String JOB = """
            { "name": "wp-daily", "key": { "type": "date", "zone": "UTC" },
              "steps": [
                { "id": "nonce", "kind": "http", "effect": "none", "credential": "wp",
                  "request": { "method": "GET", "url": "BASE/wp-admin/post-new.php" },
                  "response": { "successWhen": { "status": [200] } },
                  "extract": { "nonce": { "regex": "wpApiSettings = \\\\{[^}]*\\"nonce\\":\\"([0-9a-f]+)\\"" } } },
                { "id": "publish", "kind": "http", "effect": "unsafe", "credential": "wp", "confirm": "always",
                  "request": { "method": "POST", "url": "BASE/wp-json/wp/v2/posts",
                               "headers": { "X-WP-Nonce": "{steps.nonce.outputs.nonce}" },
                               "json": { "title": "Daily {key}", "slug": "daily-{key}", "status": "publish" } },
                  "response": { "successWhen": { "status": [201] } },
                  "probe": { "kind": "http", "method": "GET",
                             "url": "BASE/wp-json/wp/v2/posts?slug=daily-{key}&status=any",
                             "headers": { "X-WP-Nonce": "{steps.nonce.outputs.nonce}" },
                             "presentWhen": { "jsonPointer": "/0/id", "exists": true } } } ] }
            """;

    @TempDir
    Path tmp;
    TimelineConfirmFixture fx;
    WordPressSite site;
    String oldNonce;
    String renewed;

    @BeforeEach
    void setUp() throws Exception {
        fx = new TimelineConfirmFixture(tmp);
        site = new WordPressSite();
        fx.wb.job("wp-daily", JOB, site.base());
        String oldLogin = site.logIn();
        oldNonce = site.nonce(oldLogin);
        fx.setCookie("wp", oldLogin);
        assertThat(fx.run("wp-daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        site.expireLogins();
        renewed = site.logIn();
        fx.services().operations().renewAndResume().renew("wp", CredentialParser.parse(CredentialType.COOKIE,
                renewed, null), null, "tester", List.of(fx.def("wp-daily")));
    }

    @AfterEach
    void tearDown() throws Exception {
        Text.use(Text.ENGLISH);
        fx.close();
        site.close();
    }

    private ConfirmViewModel loaded() {
        ConfirmViewModel vm = new ConfirmViewModel(fx.services(), Threads.direct());
        vm.load("wp-daily", KEY);
        return vm;
    }

    private List<String> noncesPosted() {
        return site.requests().stream().filter(q -> q.method().equals("POST")).map(WordPressSite.Seen::nonce)
                .toList();
    }

    @Test
    void theNonceIsShownAsFetchedAgainAndThePostGoesOutOnceWithTheNewLogin() {
        ConfirmViewModel vm = loaded();

        assertThat(vm.canConfirmProperty().get()).as(vm.problemProperty().get()).isTrue();
        assertThat(vm.payloadTextProperty().get())
                .startsWith("First nonce runs again with the stored login (read-only)")
                .contains("X-WP-Nonce: from step nonce: nonce (extracted at run time)")
                .contains("POST " + site.base() + "/wp-json/wp/v2/posts")
                .contains("/title = Daily " + KEY)
                .doesNotContain(oldNonce);
        assertThat(vm.payloadHashProperty().get()).isNotEmpty();
        // the nonce goes in a header: the body's values are all known now, and so is its hash
        String sha = vm.infoProperty().get().payload().bodySha256();
        assertThat(vm.payloadTextProperty().get()).as("the body's hash")
                .doesNotContain(Text.t("core.confirm.shaAtRunTime"))
                .contains(Text.t("core.confirm.shaLine", String.valueOf(sha)));

        assertThat(vm.confirmAndRun("checked the blog")).isTrue();

        assertThat(fx.record("wp-daily", KEY).state()).isEqualTo(KeyState.DONE);
        assertThat(site.posts(SLUG)).isEqualTo(1);
        assertThat(noncesPosted()).containsExactly(site.nonce(renewed));
        assertThat(site.requests().stream().filter(q -> q.method().equals("POST"))
                .map(q -> io.keyline.core.exec.Rendering.sha256(q.body().getBytes(java.nio.charset.StandardCharsets.UTF_8))))
                .as("the hash of the body that was sent").containsExactly(sha);
        assertThat(fx.services().credentials().info("wp").orElseThrow().rejected()).isFalse();
    }

    @Test
    void aJobFileChangedAfterItWasShownIsRefusedAndNothingIsSent() throws Exception {
        ConfirmViewModel vm = loaded();
        String shown = vm.payloadHashProperty().get();

        Files.writeString(fx.wb.jobs.resolve("wp-daily.json"), JOB.replace("BASE", site.base())
                .replace("\"Daily {key}\"", "\"Weekly {key}\""));
        vm.confirmAndRun("checked the blog");

        assertThat(vm.problemProperty().get()).contains("changed since it was shown");
        assertThat(fx.record("wp-daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        assertThat(noncesPosted()).isEmpty();
        // reloaded: the new title is shown, still with the nonce fetched first, and that one is confirmed
        assertThat(vm.payloadHashProperty().get()).isNotEqualTo(shown);
        assertThat(vm.payloadTextProperty().get()).contains("/title = Weekly " + KEY)
                .contains("X-WP-Nonce: from step nonce: nonce (extracted at run time)");
        assertThat(vm.confirmAndRun("checked the new title")).isTrue();
        assertThat(site.posts(SLUG)).isEqualTo(1);
        assertThat(noncesPosted()).containsExactly(site.nonce(renewed));
    }

    @Test
    void inChineseTheDialogSaysTheSameAndBindsTheSameHash() {
        String english = loaded().payloadHashProperty().get();
        Text.use(Text.CHINESE);

        ConfirmViewModel vm = loaded();

        assertThat(vm.payloadTextProperty().get()).startsWith("先用已保存的登录重新运行 nonce（只读）")
                .contains("X-WP-Nonce: 来自步骤 nonce：nonce（运行时提取）");
        assertThat(vm.payloadHashProperty().get()).isEqualTo(english);
    }
}
