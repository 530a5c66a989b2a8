package io.keyline.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretBoxTest {
    private static final byte[] KEY_A = new byte[32];
    private static final byte[] KEY_B = new byte[32];
    private static final byte[] NAME = "intranet-login".getBytes(StandardCharsets.UTF_8);
    private static final String SECRET = "sid=9f8e7d6c5b4a; csrftoken=Xy7Qk2";

    static {
        for (int i = 0; i < 32; i++) {
            KEY_A[i] = (byte) i;
            KEY_B[i] = (byte) (100 + i);
        }
    }

    @TempDir
    Path state;

    private static Map<String, String> env(byte[] key) {
        return Map.of("KEYLINE_MASTER_KEY", Base64.getEncoder().encodeToString(key));
    }

    @Test
    void roundTrip() throws IOException {
        SecretBox box = SecretBox.open(state, env(KEY_A));

        assertThat(box.decrypt(box.encrypt(SECRET, NAME), NAME)).isEqualTo(SECRET);
        assertThat(box.decrypt(box.encrypt("ünïcødé ✓", NAME), NAME)).isEqualTo("ünïcødé ✓");
    }

    @Test
    void blobIsNonceThenCiphertextAndTagAndDiffersEveryTime() throws IOException {
        SecretBox box = SecretBox.open(state, env(KEY_A));

        byte[] first = box.encrypt(SECRET, NAME);
        byte[] second = box.encrypt(SECRET, NAME);

        assertThat(first).hasSize(12 + SECRET.length() + 16).isNotEqualTo(second);
        assertThat(new String(first, StandardCharsets.ISO_8859_1)).doesNotContain("9f8e7d");
    }

    @Test
    void tamperedBlobOrOtherNameFails() throws IOException {
        SecretBox box = SecretBox.open(state, env(KEY_A));
        byte[] blob = box.encrypt(SECRET, NAME);
        byte[] tampered = blob.clone();
        tampered[20] ^= 1;

        assertThatThrownBy(() -> box.decrypt(tampered, NAME)).isInstanceOf(CredentialDecryptException.class);
        assertThatThrownBy(() -> box.decrypt(blob, "other".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(CredentialDecryptException.class);
        assertThatThrownBy(() -> box.decrypt(new byte[10], NAME))
                .hasMessage("cannot decrypt credential intranet-login: stored value is truncated");
    }

    @Test
    void wrongMasterKeyGivesClearMessageWithoutSecret() throws IOException {
        byte[] blob = SecretBox.open(state, env(KEY_A)).encrypt(SECRET, NAME);
        SecretBox other = SecretBox.open(state, env(KEY_B));

        assertThatThrownBy(() -> other.decrypt(blob, NAME))
                .isInstanceOf(CredentialDecryptException.class)
                .hasMessage("cannot decrypt credential intranet-login: wrong master key")
                .extracting(e -> ((CredentialDecryptException) e).credentialName()).isEqualTo("intranet-login");
    }

    @Test
    void keyIdAndFingerprintIdentifyTheKey() throws IOException, NoSuchAlgorithmException {
        SecretBox a = SecretBox.open(state, env(KEY_A));
        byte[] sha = MessageDigest.getInstance("SHA-256").digest(KEY_A);

        assertThat(a.keyId()).isEqualTo(sha);
        assertThat(a.keyFingerprint()).isEqualTo(HexFormat.of().formatHex(sha).substring(0, 8));
        assertThat(SecretBox.open(state, env(KEY_B)).keyFingerprint()).isNotEqualTo(a.keyFingerprint());
        assertThat(a.toString()).isEqualTo("SecretBox[key=" + a.keyFingerprint() + "]");
    }

    @Test
    void keyFileIsCreatedOwnerOnlyAndReused() throws IOException {
        Path stateDir = state.resolve("state");

        SecretBox first = SecretBox.open(stateDir, Map.of());
        Path keyFile = stateDir.resolve("secret.key");

        assertThat(Files.getPosixFilePermissions(keyFile)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Base64.getDecoder().decode(Files.readString(keyFile).strip())).hasSize(32);
        try (Stream<Path> files = Files.list(stateDir)) {
            assertThat(files.map(path -> path.getFileName().toString())).containsExactly("secret.key");
        }

        SecretBox second = SecretBox.open(stateDir, Map.of());
        assertThat(second.keyFingerprint()).isEqualTo(first.keyFingerprint());
        assertThat(second.decrypt(first.encrypt(SECRET, NAME), NAME)).isEqualTo(SECRET);
    }

    @Test
    void keyFileReadableByOthersIsRefusedWithChmodHint() throws IOException {
        Path keyFile = writeKeyFile("rw-r--r--");

        assertThatThrownBy(() -> SecretBox.open(state, Map.of()))
                .isInstanceOf(MasterKeyException.class)
                .hasMessage(keyFile + " is readable by others (mode 0644): run \"chmod 600 " + keyFile + "\"");
    }

    @Test
    void keyFileAccessibleToGroupIsRefused() throws IOException {
        Path keyFile = writeKeyFile("rw-rw----");

        assertThatThrownBy(() -> SecretBox.open(state, Map.of()))
                .hasMessage(keyFile + " is readable and writable by group (mode 0660): run \"chmod 600 " + keyFile + "\"");
    }

    @Test
    void keyFileWritableByOthersIsRefused() throws IOException {
        writeKeyFile("rw-----w-");

        assertThatThrownBy(() -> SecretBox.open(state, Map.of())).hasMessageContaining("is writable by others (mode 0602)");
    }

    @Test
    void ownerOnlyExistingKeyFileIsUsed() throws IOException {
        writeKeyFile("r--------");

        assertThat(SecretBox.open(state, Map.of()).keyId()).isEqualTo(SecretBox.open(state, env(KEY_A)).keyId());
    }

    @Test
    void malformedKeyFileIsRejectedWithoutShowingIt() throws IOException {
        Path keyFile = state.resolve("secret.key");
        Files.writeString(keyFile, "not a key", StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));

        assertThatThrownBy(() -> SecretBox.open(state, Map.of()))
                .isInstanceOf(MasterKeyException.class)
                .hasMessage(keyFile + " must hold the base64 encoding of exactly 32 bytes "
                        + "(e.g. the output of \"openssl rand -base64 32\"), but it is not valid base64");
    }

    @Test
    void badEnvironmentKeyIsRejectedClearly() {
        assertThatThrownBy(() -> SecretBox.open(state, Map.of("KEYLINE_MASTER_KEY", "correct horse battery")))
                .isInstanceOf(MasterKeyException.class)
                .hasMessage("KEYLINE_MASTER_KEY must hold the base64 encoding of exactly 32 bytes "
                        + "(e.g. the output of \"openssl rand -base64 32\"), but it is not valid base64");
        assertThatThrownBy(() -> SecretBox.open(state, env(new byte[16])))
                .hasMessage("KEYLINE_MASTER_KEY must hold the base64 encoding of exactly 32 bytes "
                        + "(e.g. the output of \"openssl rand -base64 32\"), but it decodes to 16 bytes");
    }

    @Test
    void environmentKeyTakesPrecedenceOverKeyFile() throws IOException {
        writeKeyFile("rw-r--r--");
        Path untouched = state.resolve("fresh");

        SecretBox fromEnv = SecretBox.open(state, env(KEY_B));
        SecretBox.open(untouched, env(KEY_B));

        assertThat(fromEnv.keyFingerprint()).isEqualTo(SecretBox.open(untouched, env(KEY_B)).keyFingerprint());
        assertThat(untouched).doesNotExist();
    }

    /** Writes KEY_A to state/secret.key with the given permissions. */
    private Path writeKeyFile(String permissions) throws IOException {
        Path keyFile = state.resolve("secret.key");
        Files.writeString(keyFile, Base64.getEncoder().encodeToString(KEY_A) + "\n", StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString(permissions));
        return keyFile;
    }
}
