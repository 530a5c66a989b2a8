package io.keyline.credentials;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 helpers for fingerprints shown to operators. */
final class Hashes {
    private static final int FINGERPRINT_BYTES = 4;

    private Hashes() {
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    /** The first 8 lower-case hex characters of the SHA-256 of {@code data}. */
    static String fingerprint(byte[] data) {
        return HexFormat.of().formatHex(sha256(data), 0, FINGERPRINT_BYTES);
    }
}
