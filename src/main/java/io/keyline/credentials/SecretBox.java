package io.keyline.credentials;

import io.keyline.text.Said;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts credential values at rest with AES-256-GCM and a random 12-byte nonce per value.
 *
 * <p>The master key comes from the environment variable {@code KEYLINE_MASTER_KEY} (base64 of exactly
 * 32 bytes) or else from {@code STATE/secret.key} (the same encoding), which is created on first use
 * with permissions 0600 and refused if group or others may read or write it.
 */
public final class SecretBox {
    /** Environment variable that holds the master key; it takes precedence over the key file. */
    public static final String MASTER_KEY_VARIABLE = "KEYLINE_MASTER_KEY";
    /** Environment variable naming a file that holds the master key (what {@code --master-key-file} sets). */
    public static final String MASTER_KEY_FILE_VARIABLE = "KEYLINE_MASTER_KEY_FILE";
    /** Name of the key file inside the state folder. */
    public static final String KEY_FILE_NAME = "secret.key";

    private static final int KEY_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;
    private final byte[] keyId;
    private final String keyFingerprint;

    private SecretBox(byte[] keyBytes) {
        this.key = new SecretKeySpec(keyBytes, "AES");
        this.keyId = Hashes.sha256(keyBytes);
        this.keyFingerprint = Hashes.fingerprint(keyBytes);
    }

    /**
     * Opens the box with the master key from {@code env} ({@value #MASTER_KEY_VARIABLE}) or else from
     * {@code stateDir/secret.key}, creating that file (and {@code stateDir}) if it does not exist.
     *
     * @throws MasterKeyException if the key is malformed or the key file is accessible to group or others
     * @throws IOException        if the key file cannot be created or read
     */
    public static SecretBox open(Path stateDir, Map<String, String> env) throws IOException {
        java.util.Optional<SecretBox> given = given(env);
        if (given.isPresent()) {
            return given.get();
        }
        Path keyFile = stateDir.resolve(KEY_FILE_NAME);
        if (Files.notExists(keyFile)) {
            createKeyFile(keyFile);
        }
        if (isPosix(keyFile)) {
            refuseIfShared(keyFile);
        }
        return new SecretBox(decodeKey(Files.readString(keyFile, StandardCharsets.US_ASCII), keyFile.toString()));
    }

    /**
     * The master key the operator gave explicitly, if any: {@value #MASTER_KEY_VARIABLE}, else the file named
     * by {@value #MASTER_KEY_FILE_VARIABLE} ({@code --master-key-file}), which must exist and be private.
     * A shared state (PostgreSQL) takes its key only from here: a key created on one machine would not be
     * the key of the others.
     *
     * @throws MasterKeyException if the key is malformed, or the file is missing or readable by others
     */
    public static java.util.Optional<SecretBox> given(Map<String, String> env) throws IOException {
        String fromEnv = env.get(MASTER_KEY_VARIABLE);
        if (fromEnv != null) {
            return java.util.Optional.of(new SecretBox(decodeKey(fromEnv, MASTER_KEY_VARIABLE)));
        }
        String file = env.get(MASTER_KEY_FILE_VARIABLE);
        if (file == null || file.isBlank()) {
            return java.util.Optional.empty();
        }
        Path keyFile = Path.of(file);
        if (!Files.isRegularFile(keyFile)) {
            throw new MasterKeyException(Said.of("core.masterKey.noFile", keyFile.toString(), MASTER_KEY_FILE_VARIABLE));
        }
        if (isPosix(keyFile)) {
            refuseIfShared(keyFile);
        }
        return java.util.Optional.of(new SecretBox(decodeKey(Files.readString(keyFile, StandardCharsets.US_ASCII),
                keyFile.toString())));
    }

    /**
     * Encrypts {@code plaintext}.
     *
     * @param aad the credential name in UTF-8, bound to the ciphertext: decryption needs the same bytes
     * @return nonce (12 bytes) followed by ciphertext and 16-byte tag
     */
    public byte[] encrypt(String plaintext, byte[] aad) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            byte[] sealed = cipher(Cipher.ENCRYPT_MODE, nonce, aad).doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM encryption failed", e);
        }
    }

    /**
     * Decrypts a value written by {@link #encrypt}.
     *
     * @param aad the credential name in UTF-8, as given to {@link #encrypt}; also named in errors
     * @throws CredentialDecryptException {@code cannot decrypt credential NAME: wrong master key} if the
     *                                    key, the name or the stored bytes differ from encryption time
     */
    public String decrypt(byte[] blob, byte[] aad) {
        String credentialName = new String(aad, StandardCharsets.UTF_8);
        if (blob.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new CredentialDecryptException(credentialName, Said.of("core.credential.decrypt.truncated"));
        }
        try {
            byte[] plain = cipher(Cipher.DECRYPT_MODE, Arrays.copyOf(blob, NONCE_BYTES), aad)
                    .doFinal(blob, NONCE_BYTES, blob.length - NONCE_BYTES);
            return new String(plain, StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            throw new CredentialDecryptException(credentialName, Said.of("core.credential.decrypt.wrongKey"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM decryption failed", e);
        }
    }

    /** SHA-256 of the master key, to store next to encrypted values and detect a wrong key before decrypting. */
    public byte[] keyId() {
        return keyId.clone();
    }

    /** The first 8 lower-case hex characters of {@link #keyId()}, for display. */
    public String keyFingerprint() {
        return keyFingerprint;
    }

    /** Describes the box by its key fingerprint only. */
    @Override
    public String toString() {
        return "SecretBox[key=" + keyFingerprint() + "]";
    }

    private Cipher cipher(int mode, byte[] nonce, byte[] aad) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD(aad);
        return cipher;
    }

    private static byte[] decodeKey(String text, String source) {
        byte[] key;
        try {
            key = Base64.getDecoder().decode(text.strip());
        } catch (IllegalArgumentException e) {
            throw new MasterKeyException(Said.of("core.masterKey.notBase64", source, KEY_BYTES));
        }
        if (key.length != KEY_BYTES) {
            throw new MasterKeyException(Said.of("core.masterKey.wrongLength", source, KEY_BYTES, key.length));
        }
        return key;
    }

    /**
     * Writes a new random key to a temporary file created with 0600 permissions, then links it into
     * place, which fails instead of overwriting if another process created the key file meanwhile.
     */
    private static void createKeyFile(Path keyFile) throws IOException {
        Path dir = keyFile.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        FileAttribute<?>[] attributes = isPosix(dir)
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                : new FileAttribute<?>[0];
        Path temp = Files.createTempFile(dir, "." + KEY_FILE_NAME + "-", ".tmp", attributes);
        try {
            byte[] key = new byte[KEY_BYTES];
            RANDOM.nextBytes(key);
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.wrap((Base64.getEncoder().encodeToString(key) + "\n").getBytes(StandardCharsets.US_ASCII)));
                channel.force(true);
            }
            Files.createLink(keyFile, temp);
        } catch (FileAlreadyExistsException e) {
            // Another process created the key first; open() reads that one.
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static void refuseIfShared(Path keyFile) throws IOException {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(keyFile);
        boolean othersRead = permissions.contains(PosixFilePermission.OTHERS_READ);
        boolean othersWrite = permissions.contains(PosixFilePermission.OTHERS_WRITE);
        boolean groupRead = permissions.contains(PosixFilePermission.GROUP_READ);
        boolean groupWrite = permissions.contains(PosixFilePermission.GROUP_WRITE);
        String who;
        String access;
        if (othersRead || othersWrite) {
            who = "others";
            access = access(othersRead, othersWrite);
        } else if (groupRead || groupWrite) {
            who = "group";
            access = access(groupRead, groupWrite);
        } else {
            return;
        }
        throw new MasterKeyException(Said.of("core.masterKey.shared." + who + "." + access, keyFile.toString(),
                octal(permissions)));
    }

    /** How the file can be reached: {@code readWrite}, {@code read} or {@code write} (a bundle key's last word). */
    private static String access(boolean read, boolean write) {
        if (read && write) {
            return "readWrite";
        }
        return read ? "read" : "write";
    }

    private static String octal(Set<PosixFilePermission> permissions) {
        int mode = 0;
        for (PosixFilePermission permission : permissions) {
            mode |= 1 << (8 - permission.ordinal());
        }
        return String.format("%04o", mode);
    }

    /** Whether the file store holding the existing file {@code path} has POSIX permissions (not on Windows). */
    private static boolean isPosix(Path path) throws IOException {
        return Files.getFileStore(path).supportsFileAttributeView(PosixFileAttributeView.class);
    }
}
