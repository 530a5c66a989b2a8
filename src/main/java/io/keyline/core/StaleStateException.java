package io.keyline.core;

/** Another process changed a key between our read and our write; nothing was written. */
public final class StaleStateException extends RuntimeException {
    public StaleStateException(String job, String key) {
        super("key " + job + "/" + key + " was changed by another process");
    }
}
