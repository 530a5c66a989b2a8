package io.keyline.acceptance;

import io.keyline.testing.SiteTestBase;
import io.keyline.testing.Workbench.Result;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static io.keyline.acceptance.CredentialTesting.CRED;
import static io.keyline.acceptance.CredentialTesting.USES_CRED;
import static io.keyline.acceptance.CredentialTesting.set;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code credentials test} (and the login window and the Renew dialog, which show the same lines) says a probe's
 * answer in the plain words the other screens use, in English and in Chinese: never the engine's stored form
 * {@code probe: /total = 0 (absent)}.
 */
class CredentialTestWordsTest extends SiteTestBase {

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void aProbesAnswerIsSaidInPlainWordsInBothLanguages() throws IOException {
        site.requireCookie("session=TestS3cret");
        wb.job("p", Jobs.publish("p", "unsafe", true, USES_CRED), site.base());
        set(wb, CRED, "Cookie: session=TestS3cret; theme=dark");

        Result en = wb.cli("credentials", "test", CRED);
        assertThat(en.exit()).as(en.toString()).isZero();
        assertThat(en.out()).as(en.toString())
                .contains("p/publish probe: accepted \u2014 absent: the effect is not there yet (the probe checked "
                        + "/total = 0)")
                .doesNotContain("probe: /total", "(absent)");

        Text.use(Text.CHINESE);
        Result zh = wb.cli("credentials", "test", CRED);
        assertThat(zh.exit()).as(zh.toString()).isZero();
        assertThat(zh.out()).as(zh.toString())
                .contains("p/publish 的检查：已接受\u2014\u2014不存在：结果还没有产生（检查读到的是 /total = 0）")
                .doesNotContain("probe:", "absent");
    }
}
