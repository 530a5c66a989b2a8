package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Base64;

import static io.keyline.acceptance.CredentialTesting.CRED;
import static io.keyline.acceptance.CredentialTesting.USES_CRED;
import static io.keyline.acceptance.CredentialTesting.assertNoStackTrace;
import static io.keyline.acceptance.CredentialTesting.fingerprintIn;
import static io.keyline.acceptance.CredentialTesting.listedFingerprint;
import static io.keyline.acceptance.CredentialTesting.set;
import static io.keyline.acceptance.CredentialTesting.status;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The master key: a wrong one parks keys with "cannot decrypt credential X: wrong master key", never a
 * stack trace, and never destroys the stored value (the right key makes it work again); a shared
 * {@code state/secret.key} is refused with a "chmod 600" hint.
 */
class CredentialMasterKeyTest extends SiteTestBase {

    static final String KEY = "2026-11-29";
    static final String A = key((byte) 1);
    static final String B = key((byte) 2);
    static final String VALUE = "session=MasterS3cret; theme=dark";


    static String key(byte fill) {
        byte[] k = new byte[32];
        Arrays.fill(k, fill);
        return Base64.getEncoder().encodeToString(k);
    }

    @BeforeEach
    void setUp() throws IOException {
        site.requireCookie("session=MasterS3cret");
        wb.job("p", Jobs.publish("p", "unsafe", true, USES_CRED), site.base());
    }

    @Test
    void wrongMasterKeyParksTheKeyWithoutStackTraceAndKeepsTheStoredValue() {
        wb.env().put("KEYLINE_MASTER_KEY", A);
        String fingerprint = fingerprintIn(set(wb, CRED, VALUE).out());
        assertThat(wb.state.resolve("secret.key")).as("the env key replaces the key file").doesNotExist();

        wb.env().put("KEYLINE_MASTER_KEY", B);
        Result run = wb.cli("run", "p", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isEqualTo(4);
        assertNoStackTrace(run);
        JsonNode st = status(wb, "p", KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("credential").asText()).isEqualTo(CRED);
        assertThat(st.get("message").asText()).contains("cannot decrypt credential site-cookie: wrong master key");
        assertThat(site.server().received()).as("nothing is sent without a usable credential").isEmpty();
        Result tl = wb.cli("timeline", "p", KEY);
        assertThat(tl.out()).contains("cannot decrypt credential site-cookie: wrong master key");
        assertNoStackTrace(tl);

        Result test = wb.cli("credentials", "test", CRED);
        assertThat(test.exit()).as(test.toString()).isEqualTo(1);
        assertThat(test.err()).contains("cannot decrypt credential site-cookie: wrong master key");
        assertNoStackTrace(test);
        assertThat(site.server().received()).isEmpty();

        // listing needs no key and shows the value is still there
        assertThat(listedFingerprint(wb, CRED)).isEqualTo(fingerprint);
        Result listB = wb.cli("credentials", "list");
        assertNoStackTrace(listB);

        // back to the right key: the value is intact; the parked key resumes on retry
        wb.env().put("KEYLINE_MASTER_KEY", A);
        assertThat(wb.cli("run", "p", "--key", KEY).exit()).as("a parked key stays parked").isEqualTo(4);
        Result ok = wb.cli("credentials", "test", CRED);
        assertThat(ok.exit()).as(ok.toString()).isZero();
        assertThat(ok.out()).contains("accepted");
        assertThat(status(wb, "p", KEY).get("state").asText())
                .as("a credential found accepted resumes the keys parked for it").isEqualTo("PENDING");
        Result done = wb.cli("run", "p", "--key", KEY);
        assertThat(done.exit()).as(done.toString()).isZero();
        assertThat(site.effects(KEY)).isEqualTo(1);
        assertThat(listedFingerprint(wb, CRED)).isEqualTo(fingerprint);
    }

    @Test
    void wrongKeyThenRightKeyResumesOnCredentialsSetToo() {
        wb.env().put("KEYLINE_MASTER_KEY", A);
        set(wb, CRED, VALUE);
        wb.env().put("KEYLINE_MASTER_KEY", B);
        assertThat(wb.cli("run", "p", "--key", KEY).exit()).isEqualTo(4);
        // renewing under key B replaces the value (re-encrypted with B) and resumes the key
        Result renewed = set(wb, CRED, VALUE);
        assertThat(renewed.out()).contains("1 parked key resumed");
        Result done = wb.cli("run", "p", "--key", KEY);
        assertThat(done.exit()).as(done.toString()).isZero();
        assertThat(site.effects(KEY)).isEqualTo(1);
    }

    @Test
    void malformedMasterKeyIsAClearErrorNotAStackTrace() {
        wb.env().put("KEYLINE_MASTER_KEY", A);
        String fingerprint = fingerprintIn(set(wb, CRED, VALUE).out());
        wb.env().put("KEYLINE_MASTER_KEY", "not base64!");
        Result setBad = wb.cliWithInput("session=Other1234", "credentials", "set", CRED);
        assertThat(setBad.exit()).as(setBad.toString()).isEqualTo(1);
        assertThat(setBad.err()).contains("KEYLINE_MASTER_KEY must hold the base64 encoding of exactly 32 bytes");
        assertNoStackTrace(setBad);
        Result run = wb.cli("run", "p", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isEqualTo(4);
        assertNoStackTrace(run);
        assertThat(status(wb, "p", KEY).get("message").asText()).contains("KEYLINE_MASTER_KEY");
        wb.env().put("KEYLINE_MASTER_KEY", key((byte) 3).substring(0, 20));
        Result shortKey = wb.cli("credentials", "test", CRED);
        assertThat(shortKey.exit()).isEqualTo(1);
        assertThat(shortKey.err()).contains("decodes to 15 bytes");
        assertNoStackTrace(shortKey);
        assertThat(listedFingerprint(wb, CRED)).isEqualTo(fingerprint);
    }

    @Test
    void sharedSecretKeyFileIsRefusedWithAChmodHint() throws IOException {
        assertThat(wb.env()).doesNotContainKey("KEYLINE_MASTER_KEY");
        String fingerprint = fingerprintIn(set(wb, CRED, VALUE).out());
        Path keyFile = wb.state.resolve("secret.key");
        assertThat(keyFile).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile))).isEqualTo("rw-------");

        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-r--r--"));
        Result setShared = wb.cliWithInput("session=Other1234", "credentials", "set", CRED);
        assertThat(setShared.exit()).as(setShared.toString()).isEqualTo(1);
        assertThat(setShared.err()).contains("chmod 600").contains("0644").contains("readable by others");
        assertNoStackTrace(setShared);
        assertThat(listedFingerprint(wb, CRED)).as("refused set leaves the value").isEqualTo(fingerprint);

        Result run = wb.cli("run", "p", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isEqualTo(4);
        assertNoStackTrace(run);
        JsonNode st = status(wb, "p", KEY);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("message").asText()).contains("chmod 600");
        assertThat(site.server().received()).isEmpty();
        Result test = wb.cli("credentials", "test", CRED);
        assertThat(test.exit()).isEqualTo(1);
        assertThat(test.err()).contains("chmod 600");
        assertNoStackTrace(test);

        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
        assertThat(wb.cli("retry", "p", KEY).exit()).isZero();
        Result done = wb.cli("run", "p", "--key", KEY);
        assertThat(done.exit()).as(done.toString()).isZero();
        assertThat(site.effects(KEY)).isEqualTo(1);
        assertThat(listedFingerprint(wb, CRED)).isEqualTo(fingerprint);
    }

    @Test
    void groupWritableKeyFileIsRefusedToo() throws IOException {
        set(wb, CRED, VALUE);
        Path keyFile = wb.state.resolve("secret.key");
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw--w----"));
        Result r = wb.cliWithInput("session=Other1234", "credentials", "set", CRED);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("writable by group").contains("chmod 600");
        assertNoStackTrace(r);
    }
}
