package io.keyline.ui.credentials;

import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialTester;
import io.keyline.core.operations.LoginCheck;
import io.keyline.credentials.CredentialParser;
import io.keyline.credentials.CredentialType;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyState;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Threads;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The credential dialog's and page's view models against a real state and a real loopback site. */
class CredentialViewModelTest {

    static final String TODAY = "2026-11-29";
    static final String SESSION = "9f8e7d6c5b4a39281706f5e4d3c2b1a0";
    static final String CSRF = "Xy7Qk2LmN9pR4sT6uV8wZ0aB";

    @TempDir
    Path tmp;
    ConsoleFixture fx;
    CredentialViewModel vm;

    @BeforeEach
    void setUp() throws IOException {
        fx = new ConsoleFixture(tmp);
        vm = new CredentialViewModel(fx.services, Threads.direct());
        vm.open(null);
        vm.nameProperty().set("site-cookie");
    }

    @AfterEach
    void tearDown() throws IOException {
        fx.close();
    }

    /** Every string the view model exposes, except the input the operator typed. */
    static List<String> exposed(CredentialViewModel vm) {
        CredentialInput.Reading reading = vm.input().readingProperty().get();
        List<String> out = new ArrayList<>(List.of(reading.summary(), reading.parseError(), reading.dropped(),
                vm.messageProperty().get(), vm.errorProperty().get(), vm.currentProperty().get(),
                vm.probes().summaryProperty().get(), vm.input().loadedFileProperty().get()));
        vm.input().preview().forEach(r -> out.add(r.toString()));
        vm.probes().lines().forEach(r -> out.add(LoginCheck.line(r)));
        return out;
    }

    static void assertNoSecret(CredentialViewModel vm, String... secrets) {
        for (String s : exposed(vm)) {
            for (String secret : secrets) {
                assertThat(s).doesNotContain(secret);
            }
        }
    }

    @Test
    void malformedInputShowsTheParsersMessageAndSaveIsDisabled() {
        vm.input().textProperty().set("[{\"name\": \"sessionid\", \"domain\": \"example.com\"}]");
        assertThat(vm.input().readingProperty().get().parseError()).isEqualTo("[0].value: missing");
        assertThat(vm.input().readingProperty().get().valid()).isFalse();
        assertThat(vm.canSaveProperty().get()).isFalse();
        assertThat(vm.input().preview()).isEmpty();

        vm.input().textProperty().set("# Netscape HTTP Cookie File\nexample.com\tFALSE\t/\tFALSE\tsoon\tsid\t" + SESSION + "\n");
        assertThat(vm.input().readingProperty().get().parseError()).startsWith("line 2").contains("expir");
        assertThat(vm.canSaveProperty().get()).isFalse();
        assertNoSecret(vm, SESSION);

        vm.save(); // disabled: nothing is stored
        assertThat(fx.services.credentials().info("site-cookie")).isEmpty();

        vm.input().textProperty().set("sid=" + SESSION);
        assertThat(vm.input().readingProperty().get().parseError()).isEmpty();
        assertThat(vm.canSaveProperty().get()).isTrue();
        vm.nameProperty().set("bad name!");
        assertThat(vm.shownNameErrorProperty().get()).isNotEmpty();
        assertThat(vm.canSaveProperty().get()).isFalse();
    }

    @Test
    void aNewCredentialsNameErrorShowsOnceTheNameIsEditedOrASaveIsTried() {
        CredentialViewModel fresh = new CredentialViewModel(fx.services, Threads.direct());
        fresh.open(null);
        assertThat(fresh.shownNameErrorProperty().get()).as("just opened").isEmpty();
        fresh.input().textProperty().set("sid=" + SESSION);
        assertThat(fresh.canSaveProperty().get()).as("Save can be tried").isTrue();

        fresh.save();
        assertThat(fresh.shownNameErrorProperty().get()).isEqualTo("enter a name for the credential");
        assertThat(fresh.canSaveProperty().get()).isFalse();
        assertThat(fx.services.credentials().list()).as("nothing stored").isEmpty();

        fresh.nameProperty().set("site-cookie");
        assertThat(fresh.shownNameErrorProperty().get()).isEmpty();
        assertThat(fresh.canSaveProperty().get()).isTrue();

        CredentialViewModel edited = new CredentialViewModel(fx.services, Threads.direct());
        edited.open(null);
        edited.nameProperty().set("s");
        edited.nameProperty().set("");
        assertThat(edited.shownNameErrorProperty().get()).as("edited away").isEqualTo("enter a name for the credential");
    }

    @Test
    void aCookieHeaderPreviewsWithMaskedValues() {
        vm.input().textProperty().set("Cookie: sessionid=" + SESSION + "; csrftoken=" + CSRF);
        assertThat(vm.input().readingProperty().get().parseError()).isEmpty();
        assertThat(vm.input().preview()).extracting(CredentialInput.CookieRow::name).containsExactly("sessionid", "csrftoken");
        assertThat(vm.input().preview()).extracting(CredentialInput.CookieRow::value).containsOnly("***");
        assertThat(vm.input().preview()).extracting(CredentialInput.CookieRow::domain).containsOnly("any host");
        String fingerprint = CredentialParser.parse(CredentialType.COOKIE, "sessionid=" + SESSION + "; csrftoken=" + CSRF,
                null).fingerprint();
        assertThat(fingerprint).hasSize(8);
        assertThat(vm.input().readingProperty().get().summary())
                .isEqualTo("2 cookies · fingerprint " + fingerprint + " · session cookies (no expiry)");
        assertThat(vm.canSaveProperty().get()).isTrue();
        assertNoSecret(vm, SESSION, CSRF);

        vm.input().domainProperty().set("portal.example.com");
        assertThat(vm.input().preview()).extracting(CredentialInput.CookieRow::domain).containsOnly("portal.example.com");
    }

    @Test
    void aCookieNoRequestCanCarryIsLeftOutWithAWarningByNameInBothLanguages() {
        String nickname = "\u5F20\u4E09";
        String export = "[{\"name\": \"sessionid\", \"value\": \"" + SESSION + "\", \"domain\": \"example.com\"},"
                + " {\"name\": \"nickname\", \"value\": \"" + nickname + "\", \"domain\": \"example.com\"}]";
        vm.input().textProperty().set(export);

        assertThat(vm.input().readingProperty().get().parseError()).isEmpty();
        assertThat(vm.input().readingProperty().get().dropped()).isEqualTo("Left out 1 cookie a request cannot carry (a character "
                + "outside ASCII, a control character or \";\" in the value): nickname. The others are saved.");
        assertThat(vm.input().preview()).extracting(CredentialInput.CookieRow::name).containsExactly("sessionid");
        assertThat(vm.canSaveProperty().get()).isTrue();
        assertThat(vm.input().readingProperty().get().dropped()).doesNotContain(nickname);
        assertNoSecret(vm, SESSION, nickname);

        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            vm.input().textProperty().set("");
            vm.input().textProperty().set(export);
            assertThat(vm.input().readingProperty().get().dropped())
                    .isEqualTo("略去了 1 个请求无法携带的 Cookie（值里有 ASCII 以外的字符、控制字符或“;”）：nickname。其余的会保存。");
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }

        vm.save();
        assertThat(fx.services.credentials().info("site-cookie")).get()
                .extracting(CredentialInfo::cookies).isEqualTo(1);

        vm.input().textProperty().set("nickname=" + nickname);
        assertThat(vm.input().readingProperty().get().dropped()).isEmpty();
        assertThat(vm.input().readingProperty().get().parseError())
                .isEqualTo("line 1, cookie 1, value: contains a character outside ASCII (U+5F20), which a request "
                        + "header cannot carry");
        assertThat(vm.canSaveProperty().get()).isFalse();
    }

    @Test
    void aCookiesTxtFilePreviewsWithMaskedValues() throws IOException {
        Path file = tmp.resolve("cookies.txt");
        Files.writeString(file, """
                # Netscape HTTP Cookie File
                .example.com\tTRUE\t/\tFALSE\t1767225600\t_ga\tGA1.2.1843256733.1732800000
                #HttpOnly_portal.example.com\tFALSE\t/\tTRUE\t1764547200\tsessionid\t%s
                portal.example.com\tFALSE\t/app\tTRUE\t0\tcsrftoken\t%s
                """.formatted(SESSION, CSRF));
        vm.loadFile(file);
        assertThat(vm.input().loadedFileProperty().get()).isEqualTo("cookies.txt");
        assertThat(vm.input().readingProperty().get().parseError()).isEmpty();
        assertThat(vm.input().preview()).hasSize(3);
        CredentialInput.CookieRow session = vm.input().preview().get(1);
        assertThat(session).isEqualTo(new CredentialInput.CookieRow("sessionid", "***", "portal.example.com", "/",
                true, true, Instant.ofEpochSecond(1764547200)));
        assertThat(vm.input().preview().get(0).domain()).isEqualTo(".example.com");
        assertThat(vm.input().preview().get(2).expires()).isNull();
        assertThat(vm.input().readingProperty().get().summary()).contains("3 cookies")
                .endsWith("earliest expiry " + Format.time(Instant.ofEpochSecond(1764547200)));
        assertNoSecret(vm, SESSION, CSRF, "GA1.2.1843256733.1732800000");

        vm.input().textProperty().set(vm.input().textProperty().get() + " "); // typing over it: no longer "from a file"
        assertThat(vm.input().loadedFileProperty().get()).isEmpty();
    }

    @Test
    void aJsonExportPreviewsWithMaskedValues() throws IOException {
        Path file = tmp.resolve("export.json");
        Files.writeString(file, """
                [
                  {"domain": ".example.com", "expirationDate": 1767225600.48, "hostOnly": false, "httpOnly": false,
                   "name": "remember", "path": "/", "secure": true, "session": false, "value": "%s"},
                  {"domain": "portal.example.com", "expirationDate": 1764547200, "hostOnly": true, "httpOnly": true,
                   "name": "sessionid", "path": "/", "secure": true, "session": false, "value": "%s"}
                ]
                """.formatted(CSRF, SESSION));
        vm.loadFile(file);
        assertThat(vm.input().readingProperty().get().parseError()).isEmpty();
        assertThat(vm.input().preview()).extracting(CredentialInput.CookieRow::name).containsExactly("remember", "sessionid");
        assertThat(vm.input().preview()).extracting(CredentialInput.CookieRow::value).containsOnly("***");
        assertThat(vm.input().preview().get(1).httpOnly()).isTrue();
        assertThat(vm.input().readingProperty().get().summary())
                .endsWith("earliest expiry " + Format.time(Instant.ofEpochSecond(1764547200)));
        assertNoSecret(vm, SESSION, CSRF);

        vm.input().typeProperty().set(CredentialType.BEARER); // a JSON array is no bearer token
        assertThat(vm.input().readingProperty().get().parseError()).isNotEmpty();
        assertThat(vm.canSaveProperty().get()).isFalse();
        vm.input().textProperty().set("Bearer " + SESSION);
        assertThat(vm.input().preview()).extracting(CredentialInput.CookieRow::value).containsExactly("Bearer ***");
        assertNoSecret(vm, SESSION);
    }

    @Test
    void anOAuthRefreshTokenPreviewsItsClientAndEndpointAndNeitherSecret() {
        String clientSecret = "cs" + SESSION.substring(2);
        vm.input().typeProperty().set(CredentialType.OAUTH2);
        vm.input().textProperty().set("token_url=https://api.dropboxapi.com/oauth2/token\nclient_id=appkey\n"
                + "client_secret=" + clientSecret + "\nrefresh_token=" + SESSION + "\n");

        assertThat(vm.input().readingProperty().get().parseError()).isEmpty();
        assertThat(vm.input().preview()).extracting(CredentialInput.CookieRow::value).containsExactly("Bearer ***");
        assertThat(vm.input().readingProperty().get().masked()).contains("client_id=appkey", "refresh_token=••");
        assertThat(vm.input().readingProperty().get().summary())
                .startsWith("OAuth 2.0, client appkey at https://api.dropboxapi.com/oauth2/token");
        assertNoSecret(vm, SESSION);
        assertNoSecret(vm, clientSecret);
    }

    @Test
    void anHttpBasicLoginPreviewsItsUserAndNeverItsPassword() {
        vm.input().typeProperty().set(CredentialType.BASIC);
        vm.input().textProperty().set("alice:" + SESSION + "\n");

        assertThat(vm.input().readingProperty().get().parseError()).isEmpty();
        assertThat(vm.input().preview()).extracting(CredentialInput.CookieRow::value).containsExactly("Basic ***");
        assertThat(vm.input().readingProperty().get().masked()).startsWith("alice:");
        assertThat(vm.input().readingProperty().get().summary()).startsWith("HTTP Basic as alice");
        assertNoSecret(vm, SESSION);
    }

    @Test
    void savingTheRenewedCookieResumesTheParkedKeyWhichCompletesOnce() throws IOException {
        fx.publishJob("p", "site-cookie");
        fx.site.requireCookie("session=v2");
        fx.services.credentials().set("site-cookie", CredentialParser.parse(CredentialType.COOKIE, "session=v1", null),
                "tester");
        JobDefinition job = fx.services.catalog().get().job("p").orElseThrow();
        fx.services.operations().actions().approve(job, null); // reviewed: a save may run its keys
        fx.services.engine().run(job, List.of(TODAY));
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.NEEDS_CREDENTIAL);
        assertThat(fx.site.effects(TODAY)).isZero();

        // the Credentials page flags it
        CredentialsViewModel page = new CredentialsViewModel(fx.services, Threads.direct());
        page.refresh();
        assertThat(page.rows()).singleElement().satisfies(r -> {
            assertThat(r.name()).isEqualTo("site-cookie");
            assertThat(r.parked()).isEqualTo(1);
            assertThat(r.warning()).isEqualTo(CredentialsViewModel.Warning.REJECTED);
        });

        CredentialViewModel renew = new CredentialViewModel(fx.services, Threads.direct());
        renew.open("site-cookie");
        assertThat(renew.nameEditableProperty().get()).isFalse();
        // the renew dialog says which keys will resume (not only how many)
        assertThat(renew.waitingKeysProperty().get()).isEqualTo("1 key will resume: p " + TODAY);
        renew.input().textProperty().set("Cookie: session=v2");
        assertThat(renew.input().readingProperty().get().masked()).isEqualTo("Cookie: session=••• (2 characters)")
                .doesNotContain("v2");
        renew.save();

        assertThat(renew.errorProperty().get()).isEmpty();
        assertThat(renew.messageProperty().get()).isEqualTo("Saved. 1 parked key resumed, 1 of 1 completed.");
        assertThat(renew.completedCountProperty().get()).isEqualTo(1);
        assertThat(renew.input().textProperty().get()).isEmpty(); // the secret does not linger in the dialog
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.DONE);
        assertThat(fx.site.effects(TODAY)).isEqualTo(1);

        renew.test();
        assertThat(renew.probes().lines()).singleElement().satisfies(l -> {
            assertThat(l.step()).isEqualTo("publish");
            assertThat(l.verdict()).isEqualTo(CredentialTester.Verdict.ACCEPTED);
        });
        assertThat(renew.probes().summaryProperty().get()).isEqualTo("The stored login: Accepted: the site answered 1 "
                + "request as for someone logged in, and none showed its login page.");
        assertThat(fx.site.effects(TODAY)).isEqualTo(1);

        page.refresh();
        assertThat(page.rows()).singleElement().satisfies(r -> {
            assertThat(r.parked()).isZero();
            assertThat(r.warning()).isEqualTo(CredentialsViewModel.Warning.NONE);
        });
    }

    @Test
    void withoutRunningSaveOnlyResumesAndTheTestSaysRejected() throws IOException {
        fx.publishJob("p", "site-cookie");
        fx.site.requireCookie("session=v2");
        JobDefinition job = fx.services.catalog().get().job("p").orElseThrow();
        fx.services.engine().run(job, List.of(TODAY)); // not set at all: parked before anything is sent
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.NEEDS_CREDENTIAL);

        CredentialsViewModel page = new CredentialsViewModel(fx.services, Threads.direct());
        page.refresh();
        assertThat(page.missing()).containsExactly("site-cookie");
        assertThat(page.rows()).singleElement().satisfies(r -> {
            assertThat(r.missing()).isTrue();
            assertThat(r.warning()).isEqualTo(CredentialsViewModel.Warning.MISSING);
        });

        vm.runResumedProperty().set(false);
        vm.input().textProperty().set("session=wrong-value");
        vm.save();
        // p was never reviewed: the scheduler would park the key again for that, and the message says so
        assertThat(vm.messageProperty().get()).isEqualTo("Saved. 1 parked key resumed, but the scheduler parks it "
                + "again until p is reviewed: Plan… on the job's page, then apply the plan (or keyline approve p).");
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.PENDING);

        page.refresh();
        page.test("site-cookie");
        assertThat(page.testResults("site-cookie")).extracting(CredentialTester.Result::verdict)
                .containsExactly(CredentialTester.Verdict.REJECTED);
        assertThat(page.rows()).singleElement().satisfies(r -> {
            assertThat(r.test()).isEqualTo("p/publish rejected");
            // shown as a problem because a step rejected it, not because its words say so
            assertThat(r.tested()).isEqualTo(CredentialTester.Verdict.REJECTED);
            assertThat(r.tone()).isEqualTo(CredentialsViewModel.Tone.PROBLEM);
        });
        assertThat(fx.site.posts()).isZero();
    }

    /**
     * A job whose unsafe steps were never reviewed (typed runs parked its keys on the login): what a save without
     * running and a test that finds the login accepted say leads to the review of the job first, since the
     * scheduler would only park its keys again for it.
     */
    @Test
    void resumingTheKeysOfAnUnreviewedJobSaysToReviewItFirst() throws IOException {
        fx.publishJob("p", "site-cookie");
        fx.site.requireCookie("session=v2");
        fx.services.credentials().set("site-cookie", CredentialParser.parse(CredentialType.COOKIE, "session=v1", null),
                "tester");
        JobDefinition job = fx.services.catalog().get().job("p").orElseThrow();
        fx.services.engine().run(job, List.of(TODAY));
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.NEEDS_CREDENTIAL);

        vm.runResumedProperty().set(false);
        vm.input().textProperty().set("session=v2");
        vm.save();
        assertThat(vm.messageProperty().get()).startsWith("Saved. 1 parked key resumed")
                .contains("p", "Plan…", "keyline approve p").doesNotContain("they run on the next run");
        assertThat(vm.messageWaitsProperty().get()).as("saved, but the key waits for a person").isTrue();
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.PENDING);

        // parked again on a rejected login; the site takes the stored value again: the Renew dialog's Test and the
        // Credentials page's Test say the same
        fx.site.requireCookie("session=v3");
        fx.services.engine().run(job, List.of(TODAY));
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.NEEDS_CREDENTIAL);
        fx.site.requireCookie("session=v2");
        CredentialViewModel renew = new CredentialViewModel(fx.services, Threads.direct());
        renew.open("site-cookie");
        renew.test();
        assertThat(renew.probes().summaryProperty().get()).contains("1 parked key resumed", "Plan…",
                "keyline approve p").doesNotContain("they run on the next run");

        fx.site.requireCookie("session=v3");
        fx.services.engine().run(job, List.of(TODAY));
        fx.site.requireCookie("session=v2");
        CredentialsViewModel page = new CredentialsViewModel(fx.services, Threads.direct());
        page.refresh();
        page.test("site-cookie");
        assertThat(page.rows()).singleElement().satisfies(r -> {
            assertThat(r.test()).contains("1 parked key resumed", "Plan…", "keyline approve p");
            // accepted, but the key waits for a person: read as a wait, not as a success
            assertThat(r.tone()).isEqualTo(CredentialsViewModel.Tone.WAITING);
        });

        // once the job is reviewed, the words are those of before
        fx.services.operations().actions().approve(job, null);
        fx.site.requireCookie("session=v3");
        fx.services.engine().run(job, List.of(TODAY));
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.NEEDS_CREDENTIAL);
        CredentialViewModel again = new CredentialViewModel(fx.services, Threads.direct());
        again.open("site-cookie");
        again.runResumedProperty().set(false);
        again.input().textProperty().set("session=v3");
        again.save();
        assertThat(again.messageProperty().get()).isEqualTo("Saved. 1 parked key resumed: they run on the next run.");
        assertThat(again.messageWaitsProperty().get()).isFalse();
    }

    /**
     * Save with "run resumed keys now" (on by default): the person pasting the login has not seen the plan of an
     * unreviewed job, so its key waits for the review and is not sent; a reviewed job's key runs.
     */
    @Test
    void savingAndRunningDoesNotSendTheKeyOfAnUnreviewedJob() throws IOException {
        fx.publishJob("p", "site-cookie");
        fx.publishJob("q", "site-cookie");
        fx.site.requireCookie("session=v2");
        fx.services.credentials().set("site-cookie", CredentialParser.parse(CredentialType.COOKIE, "session=v1", null),
                "tester");
        JobDefinition q = fx.services.catalog().get().job("q").orElseThrow();
        fx.services.operations().actions().approve(q, null);
        String yesterday = "2026-11-28"; // the site counts articles by date: q's is another one
        fx.services.engine().run(fx.services.catalog().get().job("p").orElseThrow(), List.of(TODAY));
        fx.services.engine().run(q, List.of(yesterday));
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.NEEDS_CREDENTIAL);
        assertThat(fx.state("q", yesterday)).isEqualTo(KeyState.NEEDS_CREDENTIAL);

        CredentialViewModel renew = new CredentialViewModel(fx.services, Threads.direct());
        renew.open("site-cookie");
        assertThat(renew.runResumedProperty().get()).isTrue();
        renew.input().textProperty().set("Cookie: session=v2");
        renew.save();

        assertThat(fx.site.server().received()).filteredOn(r -> r.method().equals("POST"))
                .extracting(r -> r.header("Idempotency-Key")).containsExactly("q:" + yesterday + ":publish");
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        assertThat(fx.state("q", yesterday)).isEqualTo(KeyState.DONE);
        assertThat(renew.completedCountProperty().get()).isEqualTo(1);
        assertThat(renew.errorProperty().get()).isEmpty();
        assertThat(renew.messageProperty().get()).isEqualTo("Saved. 2 parked keys resumed: 1 ran, 1 completed; 1 "
                + "waits for the review of p and was not sent: Plan… on the job's page, then apply the plan (or "
                + "keyline approve p).");
    }

    @Test
    void aTestThatFindsTheRejectedValueAcceptedAgainResumesItsParkedKeysAsTheCliDoes() throws IOException {
        fx.publishJob("p", "site-cookie");
        fx.publishJob("q", "site-cookie");
        fx.site.requireCookie("session=v2");
        fx.services.credentials().set("site-cookie", CredentialParser.parse(CredentialType.COOKIE, "session=v1", null),
                "tester");
        for (String j : List.of("p", "q")) {
            fx.services.engine().run(fx.services.catalog().get().job(j).orElseThrow(), List.of(TODAY));
            assertThat(fx.state(j, TODAY)).isEqualTo(KeyState.NEEDS_CREDENTIAL);
        }
        // the site's login trouble is over: the same value is accepted again
        fx.site.requireCookie("session=v1");

        // the Renew dialog's Test
        CredentialViewModel renew = new CredentialViewModel(fx.services, Threads.direct());
        renew.open("site-cookie");
        renew.test();
        assertThat(renew.probes().lines()).extracting(CredentialTester.Result::verdict)
                .containsOnly(CredentialTester.Verdict.ACCEPTED);
        assertThat(renew.probes().summaryProperty().get()).contains("2 parked keys resumed");
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.PENDING);
        assertThat(fx.state("q", TODAY)).isEqualTo(KeyState.PENDING);
        assertThat(fx.site.posts()).as("a test only reads").isZero();
    }

    @Test
    void theCredentialsPagesTestResumesTheParkedKeysToo() throws IOException {
        fx.publishJob("p", "site-cookie");
        fx.site.requireCookie("session=v2");
        fx.services.credentials().set("site-cookie", CredentialParser.parse(CredentialType.COOKIE, "session=v1", null),
                "tester");
        fx.services.engine().run(fx.services.catalog().get().job("p").orElseThrow(), List.of(TODAY));
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.NEEDS_CREDENTIAL);
        fx.site.requireCookie("session=v1");

        CredentialsViewModel page = new CredentialsViewModel(fx.services, Threads.direct());
        page.refresh();
        page.test("site-cookie");
        assertThat(page.rows()).singleElement().satisfies(r -> {
            assertThat(r.test()).contains("p/publish accepted", "1 parked key resumed");
            assertThat(r.parked()).isZero();
        });
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.PENDING);
        assertThat(fx.site.posts()).isZero();
    }

    /**
     * Seen with the demo: Test said "Accepted by the probe" while a placeholder was pasted (it tested the
     * stored value, which the site accepted again), then Save ran the keys with the placeholder: "0 of 3
     * completed" in green. Test now tests the pasted value (read-only, nothing stored or resumed), and a
     * save whose keys did not complete is said as an error.
     */
    @Test
    void testChecksThePastedValueAndASaveThatCompletesNothingIsNoSuccess() throws IOException {
        fx.publishJob("p", "site-cookie");
        fx.services.operations().actions().approve(fx.services.catalog().get().job("p").orElseThrow(), null);
        fx.site.requireCookie("session=v1");
        fx.services.credentials().set("site-cookie", CredentialParser.parse(CredentialType.COOKIE, "session=v0", null),
                "tester");
        fx.services.engine().run(fx.services.catalog().get().job("p").orElseThrow(), List.of(TODAY));
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.NEEDS_CREDENTIAL);
        // the site accepts the stored value again (its session came back), but not the placeholder pasted now
        fx.site.requireCookie("session=v0");

        CredentialViewModel renew = new CredentialViewModel(fx.services, Threads.direct());
        renew.open("site-cookie");
        renew.input().textProperty().set("Cookie: session=placeholder");
        renew.test();
        assertThat(renew.probes().lines()).extracting(CredentialTester.Result::verdict)
                .containsExactly(CredentialTester.Verdict.REJECTED);
        assertThat(renew.probes().summaryProperty().get()).startsWith("The pasted value (not saved yet): Rejected");
        assertThat(fx.state("p", TODAY)).as("a test of the pasted value resumes nothing")
                .isEqualTo(KeyState.NEEDS_CREDENTIAL);
        assertThat(fx.site.posts()).isZero();

        renew.save();
        assertThat(renew.errorProperty().get()).as("the value the test just rejected is not saved silently")
                .startsWith("Not saved: the site did not accept this value when it was just tested.")
                .contains("Save anyway");
        assertThat(renew.saveAnywayProperty().get()).isTrue();
        assertThat(renew.savedProperty().get()).isFalse();

        renew.saveAnyway(); // the operator's second, explicit choice
        assertThat(renew.saveAnywayProperty().get()).isFalse();
        assertThat(renew.completedCountProperty().get()).isZero();
        assertThat(renew.messageProperty().get()).as("nothing said in the green line").isEmpty();
        assertThat(renew.errorProperty().get()).startsWith("Saved, but not every resumed key completed")
                .contains("0 of 1 completed").doesNotContain("placeholder");
    }
    /**
     * The value the site rejected, pasted again without a test: Save and resume stores nothing, sends nothing
     * and says whose value it is; another value ends the offer; Save anyway stores it (and resumes nothing).
     */
    @Test
    void theValueTheSiteRejectedIsNotSavedAgainWithoutSaveAnyway() throws IOException {
        fx.publishJob("p", "site-cookie");
        fx.site.requireCookie("session=v2");
        fx.services.credentials().set("site-cookie", CredentialParser.parse(CredentialType.COOKIE, "session=v1", null),
                "tester");
        fx.services.engine().run(fx.services.catalog().get().job("p").orElseThrow(), List.of(TODAY));
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.NEEDS_CREDENTIAL);
        CredentialInfo before = fx.services.credentials().info("site-cookie").orElseThrow();
        assertThat(before.rejected()).isTrue();
        long gets = fx.site.gets();
        long posts = fx.site.posts();
        fx.wb.clock.advance(java.time.Duration.ofMinutes(1)); // a store now would show in updatedAt

        CredentialViewModel renew = new CredentialViewModel(fx.services, Threads.direct());
        renew.open("site-cookie");
        renew.input().textProperty().set("Cookie: session=v1");
        renew.save();
        assertThat(renew.errorProperty().get()).startsWith("Not saved: this is the value the site rejected at ")
                .contains("Save anyway").doesNotContain("v1;").doesNotContain("session=v1");
        assertThat(renew.saveAnywayProperty().get()).isTrue();
        assertThat(renew.savedProperty().get()).isFalse();
        assertThat(renew.messageProperty().get()).isEmpty();
        CredentialInfo unchanged = fx.services.credentials().info("site-cookie").orElseThrow();
        assertThat(unchanged.updatedAt()).as("nothing stored").isEqualTo(before.updatedAt());
        assertThat(unchanged.lastResult()).isEqualTo("rejected");
        assertThat(fx.state("p", TODAY)).isEqualTo(KeyState.NEEDS_CREDENTIAL);
        assertThat(fx.site.gets()).as("nothing sent").isEqualTo(gets);
        assertThat(fx.site.posts()).isEqualTo(posts);

        // another value ends the offer: Save anyway is about the refused value only
        renew.input().textProperty().set("Cookie: session=v3");
        assertThat(renew.saveAnywayProperty().get()).isFalse();
        renew.saveAnyway();
        assertThat(fx.services.credentials().info("site-cookie").orElseThrow().updatedAt()).isEqualTo(before.updatedAt());

        renew.input().textProperty().set("Cookie: session=v1");
        renew.save();
        assertThat(renew.saveAnywayProperty().get()).isTrue();
        renew.saveAnyway();
        assertThat(renew.savedProperty().get()).isTrue();
        assertThat(renew.errorProperty().get()).isEmpty();
        CredentialInfo stored = fx.services.credentials().info("site-cookie").orElseThrow();
        assertThat(stored.fingerprint()).isEqualTo(before.fingerprint());
        assertThat(stored.updatedAt()).as("stored on the second choice").isNotEqualTo(before.updatedAt());
        assertThat(fx.state("p", TODAY)).as("the rejected value resumes nothing").isEqualTo(KeyState.NEEDS_CREDENTIAL);
        assertThat(fx.site.posts()).isEqualTo(posts);
        assertNoSecret(renew, "session=v1");
    }

    /**
     * A pasted value whose test sent nothing (cookies of another host than the one the job sends to) is still not
     * saved without Save anyway, and the refusal says what happened: nothing went out, for want of a cookie for the
     * job's host; not that the site did not accept it (no site saw it). In English and in Chinese.
     */
    @Test
    void aValueWhoseTestSentNothingIsRefusedForWhatHappenedNotForTheSite() throws IOException {
        fx.publishJob("p", "site-cookie");
        fx.services.credentials().set("site-cookie", CredentialParser.parse(CredentialType.COOKIE, "session=v1", null),
                "tester");
        String before = fx.services.credentials().info("site-cookie").orElseThrow().fingerprint();
        // exported from a browser on http://localhost: the job sends to 127.0.0.1
        String export = "# Netscape HTTP Cookie File\nlocalhost\tFALSE\t/\tFALSE\t0\tsession\tV4lue9\n";
        for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
            io.keyline.text.Text.use(language);
            try {
                CredentialViewModel renew = new CredentialViewModel(fx.services, Threads.direct());
                renew.open("site-cookie");
                renew.input().textProperty().set(export);
                renew.test();
                assertThat(renew.probes().lines()).extracting(CredentialTester.Result::verdict)
                        .containsExactly(CredentialTester.Verdict.NOT_SENT);
                renew.save();
                String refusal = renew.errorProperty().get();
                if (language.equals(io.keyline.text.Text.ENGLISH)) {
                    assertThat(refusal).as("the refusal in English").startsWith("Not saved: no site saw this value "
                                    + "when it was just tested: nothing was sent: credential site-cookie holds no "
                                    + "cookie for 127.0.0.1 (its cookies: ")
                            .contains("localhost", "Save anyway").doesNotContain("did not accept");
                } else {
                    assertThat(refusal).as("the refusal in Chinese").startsWith("没有保存：刚才测试时没有网站见过这个值：什么都没有"
                                    + "发送：凭据 site-cookie 没有发往 127.0.0.1 的 Cookie")
                            .contains("仍然保存").doesNotContain("网站没有接受");
                }
                assertThat(refusal).doesNotContain("V4lue9");
                assertThat(renew.saveAnywayProperty().get()).as("Save anyway is offered").isTrue();
                assertThat(renew.savedProperty().get()).isFalse();
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
            }
        }
        assertThat(fx.services.credentials().info("site-cookie").orElseThrow().fingerprint()).as("nothing stored")
                .isEqualTo(before);
        assertThat(fx.site.gets() + fx.site.posts()).as("nothing went out").isZero();
    }
}
