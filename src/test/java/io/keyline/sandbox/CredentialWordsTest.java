package io.keyline.sandbox;

import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the credential store says about a credential it cannot give (not set, a wrong or malformed master key, a
 * value the site rejected) reads in Chinese under zh-CN, on the command line and in a key's own message; in
 * English the words are those of before, and {@code --json} keeps them in every language.
 */
class CredentialWordsTest {

    private static final String OTHER_KEY = java.util.Base64.getEncoder().encodeToString(new byte[] {
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
        31, 32});

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void theStoresAnswersSpeakChineseAndEnglishAsBefore(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        Result demo = wb.cli("demo", "--port", "0");
        assertThat(demo.exit()).as(demo.toString()).isZero();

        // a key parked by the breaker: its message is the store's sentence about the rejected value
        Text.use(Text.CHINESE);
        Result status = wb.cli("status", "daily-article");
        assertThat(status.out()).as(status.toString()).contains("凭据 sandbox-cookie 已被网站拒绝")
                .doesNotContain("was rejected by the site", "not sent again");
        Result json = wb.cli("status", "daily-article", "--json");
        assertThat(json.out()).contains("credential sandbox-cookie was rejected by the site at ",
                "; not sent again until renewed: keyline credentials set sandbox-cookie (or until keyline "
                        + "credentials test sandbox-cookie finds it accepted); log in at http://127.0.0.1:");

        // a parked key run again: its progress line says why in Chinese too
        String parked = null;
        for (com.fasterxml.jackson.databind.JsonNode k : io.keyline.core.json.Json.read(json.out(),
                com.fasterxml.jackson.databind.JsonNode.class)) {
            if (k.get("state").asText().equals("NEEDS_CREDENTIAL")) {
                parked = k.get("key").asText();
            }
        }
        assertThat(parked).isNotNull();
        assertThat(wb.cli("retry", "daily-article", parked).exit()).isZero();
        Result again = wb.cli("run", "daily-article", "--key", parked);
        assertThat(again.out()).as(again.toString()).contains("待登录：凭据 sandbox-cookie 已被网站拒绝")
                .doesNotContain("was rejected by the site");

        Result notSet = wb.cli("credentials", "test", "nope");
        assertThat(notSet.err()).as(notSet.toString()).contains("凭据 nope 还没有设置").doesNotContain("is not set");

        wb.env().put("KEYLINE_MASTER_KEY", OTHER_KEY);
        Result wrong = wb.cli("credentials", "test", "sandbox-cookie");
        assertThat(wrong.err()).as(wrong.toString()).contains("无法解密凭据 sandbox-cookie：主密钥不对")
                .doesNotContain("wrong master key", "stored with key");
        Result doctor = wb.cli("doctor");
        assertThat(doctor.out()).as(doctor.toString()).contains("! 无法解密凭据 sandbox-cookie：主密钥不对")
                .doesNotContain("cannot decrypt");

        wb.env().put("KEYLINE_MASTER_KEY", "YWJj");
        Result malformed = wb.cli("credentials", "test", "sandbox-cookie");
        assertThat(malformed.err()).as(malformed.toString()).contains("KEYLINE_MASTER_KEY 必须是正好 32 字节的 base64 编码",
                "解码后是 3 字节").doesNotContain("must hold");
        wb.env().remove("KEYLINE_MASTER_KEY");
        Result noFile = wb.cli("--master-key-file", tmp.resolve("none.key").toString(), "credentials", "test",
                "sandbox-cookie");
        assertThat(noFile.err()).as(noFile.toString()).contains("主密钥文件 " + tmp.resolve("none.key") + " 不存在")
                .doesNotContain("does not exist");

        // English, word for word as before
        Text.use(Text.ENGLISH);
        assertThat(wb.cli("status", "daily-article").out()).contains("credential sandbox-cookie was rejected by the "
                + "site at ");
        assertThat(wb.cli("credentials", "test", "nope").err())
                .contains("keyline: credential nope is not set: keyline credentials set nope");
        wb.env().put("KEYLINE_MASTER_KEY", OTHER_KEY);
        assertThat(wb.cli("credentials", "test", "sandbox-cookie").err())
                .containsPattern("keyline: cannot decrypt credential sandbox-cookie: wrong master key \\(stored with "
                        + "key [0-9a-f]+, this is [0-9a-f]+\\)");
        wb.env().put("KEYLINE_MASTER_KEY", "YWJj");
        assertThat(wb.cli("credentials", "test", "sandbox-cookie").err()).contains("keyline: KEYLINE_MASTER_KEY must "
                + "hold the base64 encoding of exactly 32 bytes (e.g. the output of \"openssl rand -base64 32\"), but "
                + "it decodes to 3 bytes");
        wb.env().remove("KEYLINE_MASTER_KEY");
        assertThat(wb.cli("--master-key-file", tmp.resolve("none.key").toString(), "credentials", "test",
                "sandbox-cookie").err()).contains("keyline: the master key file " + tmp.resolve("none.key")
                + " does not exist (--master-key-file / KEYLINE_MASTER_KEY_FILE); create it with: (umask 077; openssl "
                + "rand -base64 32 > " + tmp.resolve("none.key") + ")");
    }
}
